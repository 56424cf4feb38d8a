// Where a first-seen query's time goes, for development: runs each query of a
// development set once (never the held-out eval set) through searchDomains on a kept
// benchmark database and prints the latency spread; run it under `node --cpu-prof`
// to see which functions take the time.
//   DEV_DB=search_bench_100000 npx tsx bench/search/first-seen.ts [bench/search/dev-queries-2.json]
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createPool } from "@/db/client";
import { searchDomains } from "@/server/services/discovery";

const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${process.env.DEV_DB ?? "search_bench_100000"}`);
const file = process.argv[2] ?? "bench/search/dev-queries-2.json";
const queries = (JSON.parse(readFileSync(file, "utf8")) as { q: string }[]).map((q) => q.q);
const { db, sql: client } = createPool(dbUrl, 4);
const search = (q: string) => searchDomains(db, { environment: "sandbox", partnerId: "ptn_bench", q, limit: 5 });

const t0 = performance.now();
await search("warm up");
console.log(`warm-up (encoder, vocabulary mirror, connections): ${(performance.now() - t0).toFixed(0)} ms`);
const times: number[] = [];
for (const q of queries) {
  const t = performance.now();
  await search(q);
  times.push(performance.now() - t);
}
const sorted = [...times].sort((a, b) => a - b);
const p = (x: number) => sorted[Math.min(sorted.length - 1, Math.floor(x * sorted.length))]!.toFixed(1);
console.log(`${queries.length} first-seen queries: p50 ${p(0.5)} ms, p95 ${p(0.95)} ms, max ${p(1)} ms`);
const slow = queries.map((q, i) => [q, times[i]!] as const).sort((a, b) => b[1] - a[1]).slice(0, 6);
console.log(`slowest: ${slow.map(([q, ms]) => `"${q}" ${ms.toFixed(0)}`).join(", ")}`);
await client.end();
