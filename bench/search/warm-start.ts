// A new process's first search, with and without the start-up load a web process
// runs once it listens (server/search/warm.ts), on a kept benchmark database:
//   DEV_DB=search_bench_100000 npx tsx bench/search/warm-start.ts          cold: the first search loads the mirrors
//   WARM=1 DEV_DB=search_bench_100000 npx tsx bench/search/warm-start.ts   the load first, then the first search
import { performance } from "node:perf_hooks";
import { createPool } from "@/db/client";
import { startSearchWarmUp } from "@/server/search/warm";
import { searchDomains } from "@/server/services/discovery";

const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const { db, sql: client } = createPool(adminUrl.replace(/\/[^/]*$/, `/${process.env.DEV_DB ?? "search_bench_100000"}`), 4);
const rss0 = process.memoryUsage().rss;
if (process.env.WARM === "1") {
  const state = await startSearchWarmUp(db);
  console.log(`start-up load: ${((state.ms ?? 0) / 1000).toFixed(1)} s, ${state.words} words, ${state.phrases} phrases${state.error ? `, failed: ${state.error}` : ""}`);
}
for (const q of ["somewhere to book a dog groomer", "fresh fish market"]) {
  const t = performance.now();
  await searchDomains(db, { environment: "sandbox", partnerId: "ptn_bench", q, limit: 5 });
  console.log(`"${q}": ${(performance.now() - t).toFixed(0)} ms`);
}
console.log(`rss +${((process.memoryUsage().rss - rss0) / 1024 / 1024).toFixed(0)} MB`);
await client.end();
