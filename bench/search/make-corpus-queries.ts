// Writes bench/search/eval/corpus-queries.json: the corpus-derived query strata,
// drawn with a fixed seed from the 100k corpus (its names are the first 100k of
// any larger corpus, so they exist at 1M too), never from the engine's word lists.
// Run once and commit the output; rerunning with the same corpus gives the same file.
//   npx tsx bench/search/make-corpus-queries.ts [perStratum=40]
// The same strata from the SCOWL corpus (corpus.ts, BENCH_VOCAB), committed too:
//   BENCH_VOCAB=scowl OUT=bench/search/eval/scowl-corpus-queries.json npx tsx bench/search/make-corpus-queries.ts
// A development set, never the held-out one, with another seed, corpus size and file:
//   QUERY_SEED=777 CORPUS_SIZE=50000 OUT=bench/search/dev-corpus-queries.json npx tsx bench/search/make-corpus-queries.ts 60
//
//   exact         a name as typed, with its TLD ("fierceflux.com"); 3 = that name
//   typo          a name's label with one edit (deletion, transposition, substitution,
//                 insertion; never the first letter), with its TLD half the time; 3 = that name
//   run-together  a multi-word label typed with spaces ("fierce flux"), a hyphenated one
//                 run together ("fierceflux"), or in pieces ("fiercetown shop"); 3 = all words
//   tld           one or two of a name's words and a typed TLD ("flux .io"); 3 = all words + TLD
import { writeFileSync } from "node:fs";
import path from "node:path";
import { mulberry32 } from "@/db/seed-data";
import { corpusVocabulary, ENDINGS, generateCorpus, PREFIXES, SUFFIXES } from "./corpus";
import { EVAL_DIR, type EvalQuery } from "./eval";

const QUERY_SEED = Number(process.env.QUERY_SEED ?? 2024_15);
const CORPUS_SIZE = Number(process.env.CORPUS_SIZE ?? 100_000);
const perStratum = Number(process.argv[2] ?? 40);

const corpus = generateCorpus(CORPUS_SIZE);
const names = new Set(corpus.map((d) => d.name));
const labels = new Set(corpus.map((d) => d.label));
const rng = mulberry32(QUERY_SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;
const affixes = new Set<string>([...PREFIXES, ...SUFFIXES, ...ENDINGS]);
const words = (tokens: string) => tokens.split(" ");
/** A content word: no affix, no number, no single letter. */
const content = (w: string) => !affixes.has(w) && /^[a-z]{2,}$/.test(w);

function typo(label: string): string {
  const letters = [...label].map((c, i) => (/[a-z]/.test(c) && i > 0 ? i : -1)).filter((i) => i > 0);
  const i = pick(letters);
  const letter = String.fromCharCode(97 + Math.floor(rng() * 26));
  switch (Math.floor(rng() * 4)) {
    case 0: return label.slice(0, i) + label.slice(i + 1);
    case 1: return i + 1 < label.length && /[a-z]/.test(label[i + 1]!) ? label.slice(0, i) + label[i + 1] + label[i] + label.slice(i + 2) : label.slice(0, i) + label.slice(i + 1);
    case 2: return label.slice(0, i) + (letter === label[i] ? (letter === "x" ? "q" : "x") : letter) + label.slice(i + 1);
    default: return label.slice(0, i) + letter + label.slice(i);
  }
}

const out: EvalQuery[] = [];
const used = new Set<string>();
const sample = (ok: (d: (typeof corpus)[number]) => boolean) => {
  for (;;) {
    const d = pick(corpus);
    if (!used.has(d.name) && ok(d)) {
      used.add(d.name);
      return d;
    }
  }
};
/** Ids of the SCOWL corpus's queries start "s" ("sce001"), so judgements of one corpus's queries never apply to the other's. */
const idPrefix = corpusVocabulary() === "scowl" ? "s" : "";
const id = (prefix: string, i: number) => `${idPrefix}${prefix}${String(i + 1).padStart(3, "0")}`;

for (let i = 0; i < perStratum; i++) {
  const d = sample(() => true);
  out.push({ id: id("ce", i), stratum: "exact", q: d.name, sets: words(d.tokens).map((w) => [w]), name: d.name });
}
for (let i = 0; i < perStratum; i++) {
  const d = sample((x) => x.label.replace(/[^a-z]/g, "").length >= 5);
  let label = typo(d.label);
  while (labels.has(label) || label === d.label) label = typo(d.label);
  const q = rng() < 0.5 ? `${label}.${d.tld}` : label;
  if (names.has(q)) throw new Error(`typo ${q} is a name`);
  out.push({ id: id("ct", i), stratum: "typo", q, sets: words(d.tokens).map((w) => [w]), name: d.name });
}
for (let i = 0; i < perStratum; i++) {
  const d = sample((x) => words(x.tokens).filter(content).length >= 2);
  const ws = words(d.tokens);
  const form = d.label.includes("-") ? "joined" : ws.length >= 3 && rng() < 0.35 ? "pieces" : "spaces";
  const q = form === "joined" ? ws.join("") : form === "pieces" ? `${ws.slice(0, -1).join("")} ${ws[ws.length - 1]}` : ws.join(" ");
  out.push({ id: id("cr", i), stratum: "run-together", q, sets: ws.map((w) => [w]), note: form });
}
for (let i = 0; i < perStratum; i++) {
  const d = sample((x) => x.tld !== "com" && words(x.tokens).some(content));
  const ws = words(d.tokens).filter(content);
  const kept = ws.length > 1 && rng() < 0.5 ? ws.slice(0, 2) : [pick(ws)];
  out.push({ id: id("cd", i), stratum: "tld", q: `${kept.join(" ")} .${d.tld}`, sets: kept.map((w) => [w]), tld: d.tld, note: `from ${d.name}` });
}

const file = process.env.OUT ? path.resolve(process.env.OUT) : path.join(EVAL_DIR, "corpus-queries.json");
writeFileSync(file, `[\n${out.map((q) => `  ${JSON.stringify(q)}`).join(",\n")}\n]\n`);
console.log(`${out.length} queries -> ${path.relative(process.cwd(), file)}`);
