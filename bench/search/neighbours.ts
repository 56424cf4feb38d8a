// Nearest vocabulary words in meaning for some query words (default: the benchmark's
// paraphrases, accepted answers starred), against a database the benchmark kept:
//   BENCH_KEEP=1 npx tsx bench/search/run.ts, then
//   URL=postgres://postgres@127.0.0.1:5432/search_bench_100000 npx tsx bench/search/neighbours.ts [word ...]
import { createPool } from "@/db/client";
import { SEMANTIC_MIN_Z } from "@/server/search/analyze";
import { embedWordsInContext, getEmbedder } from "@/server/search/embedder";
import { getVocabulary, nearestWords } from "@/server/search/vocabulary";
import { paraphrases } from "./queries";

const { db, sql } = createPool(process.env.URL!, 1);
const embedder = getEmbedder();
const mirror = await getVocabulary(db, embedder);
const words = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(paraphrases);
const vectors = await embedWordsInContext(embedder, words);
let first = 0;
words.forEach((w, i) => {
  const near = nearestWords(mirror, vectors[i]!, 8, 1.5, w);
  const accepted = new Set(paraphrases[w] ?? []);
  if (accepted.has(near[0]?.word ?? "")) first++;
  const shown = near.map((n) => `${accepted.has(n.word) ? "*" : ""}${n.word} ${n.z.toFixed(1)}${n.z < SEMANTIC_MIN_Z ? "-" : ""}`);
  console.log(`${w}: ${shown.join(", ")}`);
});
console.log(`\nz-scores; '-' marks neighbours under the bar (${SEMANTIC_MIN_Z}). Accepted word first: ${first} of ${words.length}`);
await sql.end();
