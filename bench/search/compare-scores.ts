// The queries whose nDCG@5 differs between two runs of run.ts with BENCH_SCORES, largest change first:
//   BENCH_SCORES=/tmp/before.jsonl TUNE_X=0 ... npx tsx bench/search/run.ts
//   BENCH_SCORES=/tmp/after.jsonl ... npx tsx bench/search/run.ts
//   npx tsx bench/search/compare-scores.ts /tmp/before.jsonl /tmp/after.jsonl
import { readFileSync } from "node:fs";

interface Scored {
  id: string;
  stratum: string;
  q: string;
  ndcg: number;
  names: string[];
}

const [beforeFile, afterFile] = process.argv.slice(2);
if (!beforeFile || !afterFile) throw new Error("usage: compare-scores.ts before.jsonl after.jsonl");
const read = (file: string) => new Map(readFileSync(file, "utf8").split("\n").filter(Boolean).map((line) => JSON.parse(line) as Scored).map((s) => [s.id, s]));
const [before, after] = [read(beforeFile), read(afterFile)];
const changed = [...after.values()]
  .map((a) => ({ a, b: before.get(a.id) }))
  .filter((x): x is { a: Scored; b: Scored } => x.b !== undefined && x.b.ndcg !== x.a.ndcg)
  .sort((x, y) => Math.abs(y.a.ndcg - y.b.ndcg) - Math.abs(x.a.ndcg - x.b.ndcg));
for (const { a, b } of changed) {
  console.log(`${(a.ndcg - b.ndcg >= 0 ? "+" : "") + (a.ndcg - b.ndcg).toFixed(3)} ${a.stratum} ${a.id} "${a.q}"`);
  console.log(`    before ${b.ndcg.toFixed(2)}: ${b.names.join(", ")}`);
  console.log(`    after  ${a.ndcg.toFixed(2)}: ${a.names.join(", ")}`);
}
const gained = changed.filter((x) => x.a.ndcg > x.b.ndcg).length;
console.log(`${changed.length} of ${after.size} queries changed: ${gained} up, ${changed.length - gained} down`);
