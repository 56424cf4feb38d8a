// Where a query's first full answer ranks in the engine's whole candidate set, not only
// its top five: how much a better rerank could gain (answers ranked 6th and below) and how
// much only better retrieval could (answers no leg returned). On the development sets and
// the kept development database of dev.ts (never the held-out bench/search/eval set):
//   TUNE_SCORE_FLOOR=0 DEV_SIZE=100000 npx tsx bench/search/headroom.ts
//   DEV_FILES=dev-queries-5.json HEADROOM_VERBOSE=1 ...   one set; each query answered below the top five
// Without TUNE_SCORE_FLOOR=0 the candidates under the engine's score floor are not seen.
import { readFileSync } from "node:fs";
import { createPool } from "@/db/client";
import { searchDomains } from "@/server/services/discovery";
import { devCorpus } from "./dev-corpus";
import { coversSet } from "./eval";

interface DevQuery {
  q: string;
  sets: string[][];
}

const { dbUrl, truth } = devCorpus(100_000);
const { db, sql: client } = createPool(dbUrl, 4);
const files = (process.env.DEV_FILES ?? "dev-queries.json,dev-queries-2.json,dev-queries-3.json,dev-queries-4.json,dev-queries-5.json").split(",");
const covers = (words: string[] | undefined, sets: string[][]) => !!words && sets.every((set) => coversSet(words, set));
const BUCKETS = ["1", "2-5", "6-10", "11-30", "31-100", "101+", "not returned"] as const;
const bucketOf = (rank: number) =>
  rank < 0 ? "not returned" : rank < 1 ? "1" : rank < 5 ? "2-5" : rank < 10 ? "6-10" : rank < 30 ? "11-30" : rank < 100 ? "31-100" : "101+";

for (const file of files) {
  const queries = JSON.parse(readFileSync(new URL(`./${file}`, import.meta.url), "utf8")) as DevQuery[];
  const counts = new Map<string, number>(BUCKETS.map((b) => [b, 0]));
  let reachable = 0;
  for (const { q, sets } of queries) {
    // A query no name answers in full cannot be ranked for; dev.ts scores it on partial grades.
    if (![...truth.values()].some((words) => covers(words, sets))) continue;
    reachable++;
    const { hits } = await searchDomains(db, { environment: "sandbox", partnerId: "ptn_dev", q, limit: 5_000 });
    const rank = hits.findIndex((h) => covers(truth.get(h.name), sets));
    counts.set(bucketOf(rank), counts.get(bucketOf(rank))! + 1);
    if (process.env.HEADROOM_VERBOSE && rank !== 0 && (rank < 0 || rank >= 5)) {
      console.log(`  ${rank < 0 ? "not returned" : `rank ${rank + 1}`} of ${hits.length}: "${q}" (first: ${hits[0]?.name ?? "-"})`);
    }
  }
  console.log(`${file}: ${reachable} queries with a full answer in the corpus; first full answer at rank ${BUCKETS.map((b) => `${b}: ${counts.get(b)}`).join(", ")}`);
}
await client.end();
