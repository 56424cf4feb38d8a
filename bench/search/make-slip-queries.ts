// Writes bench/search/dev-queries-slips.json: the six development sets' queries
// (never the held-out bench/search/eval set) with one slip each in their longest
// word of five letters or more: a keyboard neighbour, a dropped, swapped or doubled
// letter, never the first or last letter. Each query keeps its sets, and
// `clean` holds it as written: dev.ts runs both in one run and prints the slip's
// cost as a ratio.
//   npx tsx bench/search/make-slip-queries.ts
//   DEV_QUERIES=bench/search/dev-queries-slips.json DEV_SIZE=100000 npx tsx bench/search/dev.ts
// The slips come from a seeded generator that knows nothing of the engine's word lists.
// Queries already misspelt (the misspelt-intent stratum) are left out.
import { mulberry32 } from "@/db/seed-data";
import { devQueries, writeVariedSet, type DevQuery } from "./dev-sets";

const SEED = 2026_1128;
const ROWS = ["qwertyuiop", "asdfghjkl", "zxcvbnm"];

const rng = mulberry32(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

/** A letter next to `c` on a QWERTY keyboard (same row or the row above or below). */
function neighbour(c: string): string {
  const row = ROWS.findIndex((r) => r.includes(c));
  if (row < 0) return c;
  const at = (ROWS[row] as string).indexOf(c);
  const near: string[] = [];
  for (const [dr, di] of [[0, -1], [0, 1], [-1, 0], [1, 0], [-1, 1], [1, -1]] as const) {
    const letter = ROWS[row + dr]?.[at + di];
    if (letter) near.push(letter);
  }
  return pick(near);
}

function slip(word: string): string {
  const i = 1 + Math.floor(rng() * (word.length - 2));
  const [head, letter, tail] = [word.slice(0, i), word[i] as string, word.slice(i + 1)];
  switch (pick(["neighbour", "drop", "swap", "double"] as const)) {
    case "neighbour":
      return head + neighbour(letter) + tail;
    case "drop":
      return head + tail;
    case "swap":
      return tail ? head + tail[0] + letter + tail.slice(1) : head + letter;
    case "double":
      return head + letter + letter + tail;
  }
}

const out: (DevQuery & { clean: string })[] = [];
for (const query of devQueries()) {
  if (query.stratum === "misspelt-intent") continue;
  const words = query.q.split(" ");
  const candidates = words.map((w, i) => [w, i] as const).filter(([w]) => w.length >= 5 && /^[a-z]+$/.test(w));
  if (candidates.length === 0) continue;
  const [word, at] = candidates.reduce((a, b) => (b[0].length > a[0].length ? b : a));
  words[at] = slip(word);
  out.push({ q: words.join(" "), stratum: "slip", sets: query.sets, clean: query.q });
}
writeVariedSet("dev-queries-slips.json", out);
console.log(`${out.length} queries with one slip each`);
