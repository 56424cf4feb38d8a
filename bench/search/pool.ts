// Pooling for hand judgement: runs every method (hybrid, each leg, both baselines)
// on every query and writes, per query, the pooled top-5 names that have no
// explicit judgement yet, with their truth words and the rule grade, to
// bench/search/eval/pool.json (and prints them). A person then adds the names
// whose rule grade is wrong to eval/judgements.json.
//   BENCH_KEEP=1 npx tsx bench/search/pool.ts            (then BENCH_REUSE=1 for the next pool)
//   BENCH_QUERIES=bench/search/eval/intent-queries.json  only these queries
// Same environment as run.ts (BENCH_SIZE, BENCH_PG_URL, BENCH_KEEP, BENCH_REUSE).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { EVAL_DIR, loadJudgements, loadQueries, ruleGrade } from "./eval";
import { openBench, Truth } from "./harness";

const { queries } = loadQueries();
const judgements = loadJudgements();
const bench = await openBench();
const truth = new Truth(bench.corpus);

interface Pooled {
  name: string;
  words: string;
  rule: number;
  /** Methods that returned it, with its rank (1-5). */
  by: string[];
}
const pool: Record<string, { q: string; stratum: string; sets: string[][]; tld?: string; names: Pooled[] }> = {};
let total = 0;
for (const q of queries) {
  const byName = new Map<string, Pooled>();
  for (const [method, run] of Object.entries(bench.methods)) {
    (await run(q.q)).forEach((name, i) => {
      if (judgements[q.id]?.[name] !== undefined) return;
      const doc = truth.docs.get(name);
      const entry = byName.get(name) ?? { name, words: doc?.words.join(" ") ?? "?", rule: doc ? ruleGrade(doc, q) : 0, by: [] };
      entry.by.push(`${method}#${i + 1}`);
      byName.set(name, entry);
    });
  }
  const names = [...byName.values()].sort((a, b) => b.by.length - a.by.length || a.name.localeCompare(b.name));
  total += names.length;
  pool[q.id] = { q: q.q, stratum: q.stratum, sets: q.sets, ...(q.tld ? { tld: q.tld } : {}), names };
  console.log(`\n${q.id} ${q.stratum} "${q.q}"${q.tld ? ` [.${q.tld}]` : ""}  sets: ${q.sets.map((s) => s.join("|")).join(" + ")}`);
  for (const p of names) console.log(`  ${p.rule}  ${p.name.padEnd(36)} [${p.words}]  ${p.by.join(" ")}`);
}
const file = path.join(EVAL_DIR, "pool.json");
writeFileSync(file, `${JSON.stringify(pool, null, 1)}\n`);
console.log(`\n${total} unjudged names pooled over ${queries.length} queries -> ${path.relative(process.cwd(), file)}`);
await bench.close();
