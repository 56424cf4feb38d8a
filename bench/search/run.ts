// Search relevance and latency on a generated corpus, against baselines.
//   npx tsx bench/search/run.ts                 100k domains
//   BENCH_SIZE=1000000 npx tsx bench/search/run.ts
// Needs a PostgreSQL server (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres):
// creates the scratch database search_bench_<size>, drops it at the end (BENCH_KEEP=1 keeps it;
// BENCH_REUSE=1 then measures a kept database again, after migrating it, without reloading).
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { createPool } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { parseSearchQuery, searchDomains } from "@/server/services/discovery";
import { describeCorpus, generateCorpus, loadCorpus } from "./corpus";
import { buildEvalSet, grade, type EvalQuery, type Stratum } from "./queries";

const size = Number(process.env.BENCH_SIZE ?? 100_000);
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbName = `search_bench_${size}`;
const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
const reuse = process.env.BENCH_REUSE === "1" && (await admin`select 1 from pg_database where datname = ${dbName}`).length > 0;
if (!reuse) {
  await admin.unsafe(`drop database if exists ${dbName}`);
  await admin.unsafe(`create database ${dbName}`);
}
await migrateDatabase(dbUrl);
const { db, sql: client } = createPool(dbUrl, 5);
// The baselines as they come out of the box: pg_trgm's default similarity threshold.
const { db: plain, sql: plainClient } = createPool(dbUrl, 1);

const tGen = performance.now();
const corpus = generateCorpus(size);
const genMs = performance.now() - tGen;
const build = reuse ? await describeCorpus(db) : await loadCorpus(db, corpus);
const truth = new Map(corpus.map((d) => [d.name, { name: d.name, tld: d.tld, words: new Set(d.tokens.split(" ")) }]));
const evalSet = buildEvalSet(corpus);

/** Ideal DCG@5 and the best grade reachable, from the whole corpus. */
function ideal(q: EvalQuery): { idcg: number; best: number } {
  const counts = [0, 0, 0, 0];
  for (const doc of truth.values()) counts[grade(doc, q.intent)]!++;
  const grades: number[] = [];
  for (let g = 3; g >= 1 && grades.length < 5; g--) for (let i = 0; i < counts[g]! && grades.length < 5; i++) grades.push(g);
  return { idcg: dcg(grades), best: grades[0] ?? 0 };
}
const dcg = (grades: number[]) => grades.slice(0, 5).reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);
const ideals = evalSet.map(ideal);

type System = (q: string) => Promise<string[]>;
const env = "sandbox" as const;
const systems: Record<string, System> = {
  hybrid: async (q) => (await searchDomains(db, { environment: env, partnerId: "ptn_bench", q, limit: 5 })).hits.map((h) => h.name),
  "trigram-only": async (q) => {
    const { compact } = parseSearchQuery(q);
    if (!compact) return [];
    const rows = await plain.execute<{ name: string }>(sql`select name from domains
      where environment = ${env} and status = 'listed' and label % ${compact}::text
      order by similarity(label, ${compact}::text) desc, name limit 5`);
    return rows.map((r) => r.name);
  },
  "fts-only": async (q) => {
    const { words } = parseSearchQuery(q);
    if (words.length === 0) return [];
    const tsq = words.join(" | ");
    const rows = await plain.execute<{ name: string }>(sql`select name from domains
      where environment = ${env} and status = 'listed' and to_tsvector('simple', tokens) @@ to_tsquery('simple', ${tsq}::text)
      order by ts_rank(to_tsvector('simple', tokens), to_tsquery('simple', ${tsq}::text)) desc, length(label), name limit 5`);
    return rows.map((r) => r.name);
  },
};

const strata: (Stratum | "all")[] = ["exact", "typo", "run-together", "semantic", "tld", "hand", "all"];
const quality: Record<string, Record<string, string>> = {};
const failures: string[] = [];
await systems.hybrid!("warm up"); // loads the encoder
for (const [systemName, run] of Object.entries(systems)) {
  const per = new Map<string, { ndcg: number; s1: number; zero: number; n: number }>();
  for (const [i, q] of evalSet.entries()) {
    const names = await run(q.q);
    const grades = names.map((n) => { const d = truth.get(n); return d ? grade(d, q.intent) : 0; });
    const { idcg, best } = ideals[i]!;
    const ndcg = idcg > 0 ? dcg(grades) / idcg : names.length === 0 ? 1 : 0;
    const s1 = (grades[0] ?? 0) >= best && best > 0 ? 1 : 0;
    for (const key of [q.stratum, "all"]) {
      const m = per.get(key) ?? { ndcg: 0, s1: 0, zero: 0, n: 0 };
      m.ndcg += ndcg; m.s1 += s1; m.zero += names.length === 0 ? 1 : 0; m.n++;
      per.set(key, m);
    }
    if (systemName === "hybrid" && ndcg < 0.6 && process.env.BENCH_VERBOSE) failures.push(`${q.stratum} "${q.q}" ndcg=${ndcg.toFixed(2)} -> ${names.join(", ")} [${grades.join("")}]`);
  }
  quality[systemName] = Object.fromEntries(
    strata.map((s) => { const m = per.get(s)!; return [s, `${(m.ndcg / m.n).toFixed(3)} / ${(m.s1 / m.n).toFixed(2)} / ${(m.zero / m.n).toFixed(2)}`]; }),
  );
}

/** Per query text, its times in the one-client run: the slowest are printed with BENCH_VERBOSE. */
const perQuery = new Map<string, number[]>();
async function latency(concurrency: number, rounds: number) {
  const times: number[] = [];
  let next = 0;
  const total = evalSet.length * rounds;
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < total) {
      const q = evalSet[next++ % evalSet.length]!;
      const t = performance.now();
      await systems.hybrid!(q.q);
      const ms = performance.now() - t;
      times.push(ms);
      if (concurrency === 1) perQuery.set(q.q, [...(perQuery.get(q.q) ?? []), ms]);
    }
  }));
  const wall = performance.now() - started;
  times.sort((a, b) => a - b);
  const p = (x: number) => times[Math.min(times.length - 1, Math.floor(x * times.length))]!.toFixed(1);
  return { p50: p(0.5), p95: p(0.95), p99: p(0.99), qps: (times.length / (wall / 1000)).toFixed(0) };
}
const one = await latency(1, 3);
const four = await latency(4, 3);

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
console.log(`\n# search benchmark: ${size.toLocaleString("en")} domains, ${evalSet.length} queries (${Object.entries(evalSet.reduce<Record<string, number>>((a, q) => ({ ...a, [q.stratum]: (a[q.stratum] ?? 0) + 1 }), {})).map(([k, v]) => `${k} ${v}`).join(", ")})`);
console.log(`build: generate ${genMs.toFixed(0)} ms, load+segment+index ${(build.loadMs / 1000).toFixed(1)} s, vocabulary ${build.vocabularyWords} words embedded in ${(build.vocabularyMs / 1000).toFixed(1)} s, analyze ${build.analyzeMs.toFixed(0)} ms`);
console.log(`disk: domains table ${mb(build.tableBytes)}, its indexes ${mb(build.indexBytes)}, postings ${mb(build.postingsBytes)}, vocabulary ${mb(build.vocabularyBytes)}; node rss ${mb(process.memoryUsage().rss)}${reuse ? " (reused database: no load)" : ""}`);
console.log(`\nnDCG@5 / success@1 / zero-result rate`);
console.table(quality);
console.log(`hybrid latency (ms, in-process incl. round trips): 1 client p50 ${one.p50} p95 ${one.p95} p99 ${one.p99} (${one.qps} q/s); 4 concurrent p50 ${four.p50} p95 ${four.p95} p99 ${four.p99} (${four.qps} q/s)`);
if (failures.length) console.log(`\nweak hybrid answers:\n${failures.join("\n")}`);
if (process.env.BENCH_VERBOSE) {
  const slow = [...perQuery].map(([q, ts]) => [q, ts.reduce((a, b) => a + b, 0) / ts.length] as const).sort((a, b) => b[1] - a[1]);
  console.log(`\nslowest queries (mean ms, one client): ${slow.slice(0, 8).map(([q, ms]) => `"${q}" ${ms.toFixed(1)}`).join(", ")}`);
}

await client.end();
await plainClient.end();
if (!process.env.BENCH_KEEP && !reuse) await admin.unsafe(`drop database ${dbName}`);
await admin.end();
