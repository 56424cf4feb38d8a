/**
 * Validates bench/search/eval/intent-queries.json, the hand-written evaluation set.
 *   npx tsx bench/search/eval/check-intent-queries.ts
 * Exits non-zero with a list of problems when the file is malformed.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

type Stratum = "intent" | "category" | "descriptive" | "brand-style" | "misspelt-intent";
type Query = { id: string; stratum: Stratum; q: string; sets: string[][]; tld?: string; note?: string };

const MIN: Record<Stratum, number> = {
  intent: 110,
  category: 60,
  descriptive: 50,
  "brand-style": 50,
  "misspelt-intent": 50,
};
const PREFIX: Record<Stratum, string> = {
  intent: "i",
  category: "c",
  descriptive: "d",
  "brand-style": "b",
  "misspelt-intent": "m",
};
const TLDS = new Set(["com", "net", "org", "io", "co", "ai", "app", "dev", "shop", "store", "xyz", "online", "tech"]);
const KEYS = new Set(["id", "stratum", "q", "sets", "tld", "note"]);

const file = join(dirname(fileURLToPath(import.meta.url)), "intent-queries.json");
const problems: string[] = [];
let data: unknown;
try {
  data = JSON.parse(readFileSync(file, "utf8"));
} catch (e) {
  console.error(`intent-queries.json does not parse: ${(e as Error).message}`);
  process.exit(1);
}
if (!Array.isArray(data)) {
  console.error("intent-queries.json is not an array");
  process.exit(1);
}

const ids = new Set<string>();
const texts = new Set<string>();
const counts = Object.fromEntries(Object.keys(MIN).map((s) => [s, 0])) as Record<Stratum, number>;
let setCount = 0;
for (const [i, raw] of (data as unknown[]).entries()) {
  const where = `#${i}`;
  if (typeof raw !== "object" || raw === null) {
    problems.push(`${where}: not an object`);
    continue;
  }
  const q = raw as Query;
  const label = `${where} ${q.id ?? "?"}`;
  for (const k of Object.keys(q)) if (!KEYS.has(k)) problems.push(`${label}: unknown key ${k}`);
  if (typeof q.id !== "string" || !/^[icdbm]\d{3}$/.test(q.id)) problems.push(`${label}: bad id`);
  else if (ids.has(q.id)) problems.push(`${label}: duplicate id`);
  else ids.add(q.id);
  if (!(q.stratum in MIN)) problems.push(`${label}: bad stratum ${String(q.stratum)}`);
  else {
    counts[q.stratum]++;
    if (typeof q.id === "string" && q.id[0] !== PREFIX[q.stratum]) problems.push(`${label}: id prefix does not match stratum ${q.stratum}`);
  }
  if (typeof q.q !== "string" || q.q.trim() === "") problems.push(`${label}: empty q`);
  else if (texts.has(q.q.trim().toLowerCase())) problems.push(`${label}: duplicate query text`);
  else texts.add(q.q.trim().toLowerCase());
  if (!Array.isArray(q.sets) || q.sets.length < 1 || q.sets.length > 3) problems.push(`${label}: needs 1-3 sets`);
  else
    for (const [j, set] of q.sets.entries()) {
      setCount++;
      if (!Array.isArray(set) || set.length === 0) {
        problems.push(`${label}: set ${j} empty`);
        continue;
      }
      const seen = new Set<string>();
      for (const w of set) {
        if (typeof w !== "string" || !/^[a-z]+$/.test(w)) problems.push(`${label}: set ${j} bad word ${JSON.stringify(w)}`);
        else if (seen.has(w)) problems.push(`${label}: set ${j} repeats ${w}`);
        seen.add(w);
      }
    }
  if (q.tld !== undefined && (typeof q.tld !== "string" || !TLDS.has(q.tld))) problems.push(`${label}: tld ${String(q.tld)} not sold in the corpus`);
  if (q.note !== undefined && typeof q.note !== "string") problems.push(`${label}: note not a string`);
}
for (const [s, n] of Object.entries(MIN) as [Stratum, number][])
  if (counts[s] < n) problems.push(`stratum ${s}: ${counts[s]} queries, need at least ${n}`);

console.log(`${data.length} queries, ${setCount} sets`);
for (const s of Object.keys(MIN) as Stratum[]) console.log(`  ${s.padEnd(16)} ${counts[s]}`);
if (problems.length) {
  console.error(`${problems.length} problem(s):`);
  for (const p of problems) console.error(`  ${p}`);
  process.exit(1);
}
console.log("ok");
