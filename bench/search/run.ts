// Search relevance and latency on the WordNet corpus (corpus.ts), against single
// engine legs and two baselines. Queries: eval/intent-queries.json (written by hand)
// and eval/corpus-queries.json (make-corpus-queries.ts); grades: eval.ts, with the
// hand judgements of eval/judgements.json overriding the rule. See eval/README.md.
//   npx tsx bench/search/run.ts                 100k domains
//   BENCH_SIZE=1000000 npx tsx bench/search/run.ts
//   BENCH_QUERIES=a.json,b.json                 other query files instead
//   BENCH_VERBOSE=1                             weak hybrid answers, slowest queries
//   BENCH_SCORES=a.jsonl                        hybrid's nDCG@5 and names per query, to compare two runs
// Needs a PostgreSQL server (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres):
// creates the scratch database search_bench_<size>, drops it at the end (BENCH_KEEP=1 keeps it;
// BENCH_REUSE=1 then measures a kept database again, after migrating it, without reloading).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { loadJudgements, loadQueries, scoreAnswer, type EvalQuery, type QueryScore } from "./eval";
import { openBench, Truth } from "./harness";

const { queries, files, missing } = loadQueries();
if (queries.length === 0) throw new Error(`no queries (looked for ${[...files, ...missing].join(", ")})`);
const judgements = loadJudgements();
const bench = await openBench();
const truth = new Truth(bench.corpus);
const ideals = new Map(queries.map((q) => [q.id, truth.ideal(q, judgements)]));
const scorable = queries.filter((q) => (ideals.get(q.id)?.length ?? 0) > 0);
const unscorable = queries.filter((q) => (ideals.get(q.id)?.length ?? 0) === 0);

const intentStrata = ["intent", "category", "descriptive", "brand-style", "misspelt-intent"];
const corpusStrata = ["exact", "typo", "run-together", "tld"];
const seen = [...new Set(queries.map((q) => q.stratum))];
const strata = [...intentStrata.filter((s) => seen.includes(s)), ...corpusStrata.filter((s) => seen.includes(s)), ...seen.filter((s) => !intentStrata.includes(s) && !corpusStrata.includes(s))];
const groupOf = (q: EvalQuery) => (corpusStrata.includes(q.stratum) ? "corpus-all" : "hand-all");
const columns = [...strata, ...(seen.some((s) => corpusStrata.includes(s)) && seen.some((s) => !corpusStrata.includes(s)) ? ["hand-all", "corpus-all"] : []), "all"];

// Warm up: the encoder, the vocabulary mirror, the connections, the planner.
const memBefore = process.memoryUsage();
for (const run of Object.values(bench.methods)) await run("warm up");
const warmed = new Set(queries.slice(0, 20).map((q) => q.q));
for (const q of warmed) await bench.methods.hybrid!(q);
const memWarm = process.memoryUsage();
/** Hybrid's time on each query the first time this process sees it (no per-word memo, no cached query vector). */
const firstSeen: number[] = [];

type Sums = { ndcg: number; success1: number; success5: number; zero: number; n: number };
const results: Record<string, Map<string, Sums>> = {};
const answeredUnscorable: Record<string, number> = {};
const weak: string[] = [];
/** BENCH_SCORES=file.jsonl: hybrid's score and names for every query, one JSON line each, to compare two runs query by query. */
const scores: string[] = [];
for (const [method, run] of Object.entries(bench.methods)) {
  const per = new Map<string, Sums>();
  for (const q of queries) {
    const t = performance.now();
    const names = await run(q.q);
    if (method === "hybrid" && !warmed.has(q.q)) firstSeen.push(performance.now() - t);
    const ideal = ideals.get(q.id)!;
    const score: QueryScore | null = scoreAnswer(truth.grades(q, names, judgements), ideal);
    if (!score) {
      if (names.length > 0) answeredUnscorable[method] = (answeredUnscorable[method] ?? 0) + 1;
      continue;
    }
    for (const key of [q.stratum, groupOf(q), "all"]) {
      const m = per.get(key) ?? { ndcg: 0, success1: 0, success5: 0, zero: 0, n: 0 };
      m.ndcg += score.ndcg; m.success1 += score.success1; m.success5 += score.success5; m.zero += score.zero; m.n++;
      per.set(key, m);
    }
    if (method === "hybrid") scores.push(JSON.stringify({ id: q.id, stratum: q.stratum, q: q.q, ndcg: Number(score.ndcg.toFixed(3)), names }));
    if (method === "hybrid" && score.ndcg < 0.5 && process.env.BENCH_VERBOSE) {
      const shown = names.map((n) => `${n}(${truth.grades(q, [n], judgements)[0]})`).join(", ") || "(nothing)";
      weak.push(`  ${q.id} ${q.stratum} "${q.q}" nDCG ${score.ndcg.toFixed(2)} ideal [${ideal.join("")}] -> ${shown}`);
    }
  }
  results[method] = per;
}
if (process.env.BENCH_SCORES) writeFileSync(process.env.BENCH_SCORES, `${scores.join("\n")}\n`);

/** Per query text, its times in the one-client run: the slowest are printed with BENCH_VERBOSE. */
const perQuery = new Map<string, number[]>();
async function latency(concurrency: number, rounds: number) {
  const times: number[] = [];
  let next = 0;
  const total = queries.length * rounds;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const q = queries[next++ % queries.length]!;
      const t = performance.now();
      await bench.methods.hybrid!(q.q);
      const ms = performance.now() - t;
      times.push(ms);
      if (concurrency === 1) perQuery.set(q.q, [...(perQuery.get(q.q) ?? []), ms]);
    }
  }));
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  const p = (x: number) => times[Math.min(times.length - 1, Math.floor(x * times.length))]!.toFixed(1);
  return { n: times.length, p50: p(0.5), p95: p(0.95), p99: p(0.99), qps: (times.length / (wall / 1000)).toFixed(0) };
}
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const one = await latency(1, rounds);
const four = await latency(4, rounds);
const memAfter = process.memoryUsage();

// --- report ----------------------------------------------------------------------

function table(head: string[], rows: string[][]): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ").trimEnd();
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const counts = (qs: EvalQuery[]) => strata.map((s) => `${s} ${qs.filter((q) => q.stratum === s).length}`).join(", ");
const build = bench.build;

console.log(`\n# search benchmark: ${bench.size.toLocaleString("en")} domains (${bench.vocabulary === "scowl" ? "SCOWL" : "WordNet"} corpus, seed fixed), ${queries.length} queries`);
console.log(`query files: ${files.map((f) => path.relative(process.cwd(), f)).join(", ")}${missing.length ? ` (missing: ${missing.map((f) => path.relative(process.cwd(), f)).join(", ")})` : ""}`);
console.log(`queries by stratum: ${counts(queries)}; judgements for ${Object.keys(judgements).length} queries`);
console.log(`scored: ${scorable.length}; not scored (nothing relevant in the corpus): ${unscorable.length}`);
console.log(`\n## build`);
console.log(`generate ${bench.genMs.toFixed(0)} ms; load+segment+index ${(build.loadMs / 1000).toFixed(1)} s; vocabulary ${build.vocabularyWords} words embedded in ${(build.vocabularyMs / 1000).toFixed(1)} s; ${build.phrases ?? 0} labels embedded as phrases in ${((build.phrasesMs ?? 0) / 1000).toFixed(1)} s; analyze ${(build.analyzeMs / 1000).toFixed(1)} s${bench.reuse ? " (reused database: nothing loaded)" : ""}`);
console.log(`disk: domains table ${mb(build.tableBytes)}, its indexes ${mb(build.indexBytes)}, postings (domain_terms) ${mb(build.postingsBytes)}, vocabulary ${mb(build.vocabularyBytes)}, phrases ${mb(build.phrasesBytes ?? 0)}`);
console.log(`memory (this process; it also holds the corpus and the truth index): before warm-up rss ${mb(memBefore.rss)} heap ${mb(memBefore.heapUsed)}; after warm-up rss ${mb(memWarm.rss)} heap ${mb(memWarm.heapUsed)} (engine: +${mb(memWarm.rss - memBefore.rss)} rss, +${mb(memWarm.heapUsed - memBefore.heapUsed)} heap); after the runs rss ${mb(memAfter.rss)} heap ${mb(memAfter.heapUsed)}`);

const nOf = (col: string) => results.hybrid?.get(col)?.n ?? 0;
const head = ["method", ...columns.map((c) => `${c} (${nOf(c)})`)];
for (const [title, key] of [["nDCG@5", "ndcg"], ["success@1", "success1"], ["success@5", "success5"], ["zero-result rate", "zero"]] as const) {
  console.log(`\n## ${title}`);
  console.log(table(head, Object.entries(results).map(([method, per]) => [method, ...columns.map((c) => {
    const m = per.get(c);
    return m && m.n > 0 ? (m[key] / m.n).toFixed(key === "ndcg" ? 3 : 2) : "-";
  })])));
}

if (unscorable.length) {
  console.log(`\n## not scored: no name in the corpus is relevant (ideal DCG 0)`);
  for (const q of unscorable) console.log(`  ${q.id} ${q.stratum} "${q.q}"`);
  console.log(`answered anyway (a result returned where nothing is relevant): ${Object.keys(bench.methods).map((m) => `${m} ${answeredUnscorable[m] ?? 0}`).join(", ")} of ${unscorable.length}`);
}

firstSeen.sort((a, b) => a - b);
const fp = (x: number) => (firstSeen[Math.min(firstSeen.length - 1, Math.floor(x * firstSeen.length))] ?? 0).toFixed(1);
console.log(`\n## hybrid latency (ms, in-process incl. round trips): each query the first time it is seen, then ${rounds} passes over the queries`);
console.log(table(["clients", "searches", "p50", "p95", "p99", "q/s"], [
  ["1, first time", String(firstSeen.length), fp(0.5), fp(0.95), fp(0.99), "-"],
  ["1", String(one.n), one.p50, one.p95, one.p99, one.qps],
  ["4", String(four.n), four.p50, four.p95, four.p99, four.qps],
]));

if (weak.length) console.log(`\n## weak hybrid answers (nDCG@5 < 0.5; name(grade))\n${weak.join("\n")}`);
if (process.env.BENCH_VERBOSE) {
  const slow = [...perQuery].map(([q, ts]) => [q, ts.reduce((a, b) => a + b, 0) / ts.length] as const).sort((a, b) => b[1] - a[1]);
  console.log(`\nslowest queries (mean ms, one client): ${slow.slice(0, 8).map(([q, ms]) => `"${q}" ${ms.toFixed(1)}`).join(", ")}`);
}

await bench.close();
