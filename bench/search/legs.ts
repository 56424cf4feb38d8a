// Mean time of each leg alone and of the whole engine on a few queries, against a
// database the benchmark kept: BENCH_KEEP=1 npx tsx bench/search/run.ts, then
//   URL=postgres://postgres@127.0.0.1:5432/search_bench_100000 npx tsx bench/search/legs.ts [query ...]
import { performance } from "node:perf_hooks";
import { createPool } from "@/db/client";
import { parseSearchQuery } from "@/server/services/discovery";
import { runSearch, type Leg } from "@/server/search/engine";
const { db, sql } = createPool(process.env.URL!, 2);
const defaults = ["best pizza", "lawyer miami", "pizza .io", "real estate austin", "coffee shop .net", "bestpizzashop.com", "physician", "piza", "smart vacation", "chciago", "nycdogshop", "lawyer"];
const qs = process.argv.slice(2).length ? process.argv.slice(2) : defaults;
await runSearch(db, parseSearchQuery("warm"), { environment: "sandbox", limit: 5 });
for (const legs of [["keyword"], ["label"], ["typo"], ["meaning"], ["keyword", "label", "typo", "meaning"]] as Leg[][]) {
  const out: string[] = [];
  for (const q of qs) {
    await runSearch(db, parseSearchQuery(q), { environment: "sandbox", limit: 5, legs });
    const t = performance.now();
    for (let i = 0; i < 5; i++) await runSearch(db, parseSearchQuery(q), { environment: "sandbox", limit: 5, legs });
    out.push(`${q}=${((performance.now() - t) / 5).toFixed(1)}`);
  }
  console.log(legs.join("+"), out.join("  "));
}
await sql.end();
