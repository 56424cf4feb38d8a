// The meaning work's development set (bench/search/dev-queries.json, paraphrased
// intent written for development; never the held-out bench/search/eval set) on a
// generated corpus in a scratch database, kept between runs:
//   npx tsx bench/search/dev.ts                  50k names of bench/search/corpus.ts, search_dev_v2_50000 (loaded once, then reused)
//   DEV_SIZE=100000 DEV_VERBOSE=1 npx tsx bench/search/dev.ts
//   DEV_FRESH=1 ...                              drop and reload the scratch database
//   BENCH_VOCAB=scowl DEV_SEED=777 ...           the SCOWL corpus of another seed (search_dev_v2_scowl_s777_<size>)
//   DEV_LEGS=phrase ...                          only these legs of the engine (comma-separated; default: the service, every leg)
// Prints success@5 (a name covering every concept of the query in the top five),
// nDCG@5 (grade 3: every concept, 1: some) and per-query latency.
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { createPool } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { ALL_LEGS, type Leg } from "@/server/search/engine";
import { runQuery, searchDomains } from "@/server/services/discovery";
import { loadCorpus } from "./corpus";
import { devCorpus } from "./dev-corpus";
import type { DevQuery } from "./dev-sets";
import { coversSet } from "./eval";


// DEV_DB=search_bench_100000 reads the benchmark's kept database (same corpus) instead.
// DEV_SEED: a corpus of another seed than the benchmark's (BENCH_VOCAB=scowl picks the SCOWL vocabulary).
const { size, adminUrl, dbName, dbUrl, corpus, truth } = devCorpus(50_000);
// DEV_QUERIES=bench/search/dev-queries-2.json: the second development set (two-concept intent, strata);
// dev-queries-3.json and dev-queries-4.json (the fourth, written before the engine ran on it: a check that a change generalises).
// dev-queries-slips.json: their queries with one slip each (make-slip-queries.ts); dev-queries-framed.json: in the
// words people wrap around a request (make-framed-queries.ts); dev-queries-spelling.json, -number.json and -wording.json:
// in the other British/American spelling, with the last noun in the other number, with a word said another way
// (make-spelling-, make-number-, make-wording-queries.ts); dev-queries-order.json: "a groomer for dogs" for "a dog groomer"
// (make-order-queries.ts). A query that holds `clean`, as written, runs both
// ways in the same run, as two strata (the varied one named by its `stratum`), and the variation's cost is printed
// as a ratio.
const AS_WRITTEN = "as written";
const queries = (JSON.parse(readFileSync(process.env.DEV_QUERIES ?? new URL("./dev-queries.json", import.meta.url), "utf8")) as (DevQuery & { clean?: string })[]).flatMap((q) =>
  q.clean ? [{ ...q, q: q.clean, stratum: AS_WRITTEN }, { ...q, stratum: q.stratum ?? "varied" }] : [q],
);

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
const exists = (await admin`select 1 from pg_database where datname = ${dbName}`).length > 0;
if (exists && process.env.DEV_FRESH === "1") await admin.unsafe(`drop database ${dbName}`);
const load = !exists || process.env.DEV_FRESH === "1";
if (load) await admin.unsafe(`create database ${dbName}`);
await migrateDatabase(dbUrl);
const { db, sql: client } = createPool(dbUrl, 4);
if (load) {
  const stats = await loadCorpus(db, corpus);
  console.log(`loaded ${size} names in ${(stats.loadMs / 1000).toFixed(1)} s, ${stats.vocabularyWords} words embedded in ${(stats.vocabularyMs / 1000).toFixed(1)} s`);
}

const legs = process.env.DEV_LEGS?.split(",").filter(Boolean) as Leg[] | undefined;
for (const leg of legs ?? []) if (!ALL_LEGS.includes(leg)) throw new Error(`DEV_LEGS: no leg ${leg} (${ALL_LEGS.join(", ")})`);
/** The names found for q: the search service (every leg), or the engine with only DEV_LEGS. */
async function search(q: string): Promise<{ name: string }[]> {
  if (!legs) return (await searchDomains(db, { environment: "sandbox", partnerId: "ptn_dev", q, limit: 5 })).hits;
  return (await runQuery(db, q, { environment: "sandbox", limit: 5, legs })).hits;
}

const grade = (words: string[] | undefined, sets: string[][]) => {
  if (!words) return 0;
  // The benchmark's rule: a set word counts with a plain -s/-es added or taken away.
  const covered = sets.filter((set) => coversSet(words, set)).length;
  return covered === sets.length ? 3 : covered > 0 ? 1 : 0;
};
const dcg = (grades: number[]) => grades.slice(0, 5).reduce((s, g, i) => s + (2 ** g - 1) / Math.log2(i + 2), 0);

await searchDomains(db, { environment: "sandbox", partnerId: "ptn_dev", q: "warm up", limit: 5 });
let success = 0;
let ndcgSum = 0;
let reachable = 0;
const times: number[] = [];
const lines: string[] = [];
const strata = new Map<string, { n: number; ok: number; ndcg: number }>();
for (const { q, sets, stratum = "all" } of queries) {
  const counts = [0, 0, 0, 0];
  for (const words of truth.values()) counts[grade(words, sets)]!++;
  const ideal: number[] = [];
  for (let g = 3; g >= 1 && ideal.length < 5; g--) for (let i = 0; i < counts[g]! && ideal.length < 5; i++) ideal.push(g);
  const t = performance.now();
  const hits = await search(q);
  const ms = performance.now() - t;
  times.push(ms);
  const grades = hits.map((h) => grade(truth.get(h.name), sets));
  const ndcg = dcg(ideal) > 0 ? dcg(grades) / dcg(ideal) : hits.length === 0 ? 1 : 0;
  const ok = grades.includes(3);
  if (counts[3]! > 0) reachable++;
  success += ok ? 1 : 0;
  ndcgSum += ndcg;
  const s = strata.get(stratum) ?? { n: 0, ok: 0, ndcg: 0 };
  s.n++;
  s.ok += ok ? 1 : 0;
  s.ndcg += ndcg;
  strata.set(stratum, s);
  lines.push(`${ok ? "ok  " : counts[3] ? "MISS" : "n/a "} ${ndcg.toFixed(2)} ${ms.toFixed(0).padStart(4)}ms "${q}" -> ${hits.map((h) => h.name).join(", ")} [${grades.join("")}] (${counts[3]} answer)`);
}
// Again, warm: the query words' vectors, neighbours and corrections cached, as for words searched before.
const warm: number[] = [];
for (const { q } of queries) {
  const t = performance.now();
  await search(q);
  warm.push(performance.now() - t);
}
const pct = (list: number[], x: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(x * list.length))]!.toFixed(1);
const p = (x: number) => pct(times, x);
if (process.env.DEV_VERBOSE) console.log(lines.join("\n"));
if (strata.size > 1) for (const [name, s] of strata) console.log(`  ${name.padEnd(16)} ${String(s.n).padStart(3)}  success@5 ${(s.ok / s.n).toFixed(2)}  nDCG@5 ${(s.ndcg / s.n).toFixed(3)}`);
const written = strata.get(AS_WRITTEN);
for (const [name, varied] of written ? strata : []) {
  if (name === AS_WRITTEN || !written) continue;
  console.log(`  ${name} / as written: nDCG@5 ${(varied.ndcg / written.ndcg).toFixed(3)}, success@5 ${(varied.ok / written.ok).toFixed(3)}`);
}
console.log(`${queries.length} dev queries on ${size} names (${reachable} with an answer in the corpus): success@5 ${(success / queries.length).toFixed(3)} (${success}), nDCG@5 ${(ndcgSum / queries.length).toFixed(3)}; latency first time p50 ${p(0.5)} p95 ${p(0.95)} max ${p(1)} ms, again p50 ${pct(warm, 0.5)} p95 ${pct(warm, 0.95)} max ${pct(warm, 1)} ms`);
await client.end();
await admin.end();
