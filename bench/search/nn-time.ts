// Neighbours in meaning: time per query word of the sketched search against the
// exact scan, and their agreement on the development set's words.
//   npx tsx bench/search/nn-time.ts                      timing on 50k random vectors
//   URL=postgres://postgres@127.0.0.1:5432/search_dev_v2_50000 npx tsx bench/search/nn-time.ts
//                                                        timing and agreement on a kept dev database (bench/search/dev.ts)
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createPool } from "@/db/client";
import { SEMANTIC_MIN_Z } from "@/server/search/analyze";
import { embedWordsInContext, getEmbedder, unit } from "@/server/search/embedder";
import { getVocabulary, getVocabularyMirrorForTests, nearestWords, nearestWordsExact } from "@/server/search/vocabulary";

const url = process.env.URL;
const pool = url ? createPool(url, 1) : null;
let mirror;
let vectors: Float32Array[];
if (pool) {
  mirror = await getVocabulary(pool.db);
  const queries = JSON.parse(readFileSync(new URL("./dev-queries.json", import.meta.url), "utf8")) as { q: string }[];
  const words = [...new Set(queries.flatMap((q) => q.q.split(/\W+/)).filter((w) => w.length > 3))];
  vectors = await embedWordsInContext(getEmbedder(), words);
} else {
  const n = Number(process.env.N ?? 50_000);
  const random = () => unit(Float32Array.from({ length: 512 }, () => Math.random() - 0.5));
  const words = Array.from({ length: n }, (_, i) => `w${i}`);
  mirror = getVocabularyMirrorForTests(words, words.map(random));
  vectors = Array.from({ length: 100 }, random);
}
nearestWords(mirror, vectors[0]!, 6, SEMANTIC_MIN_Z, ""); // builds the matrix and sketches
nearestWordsExact(mirror, vectors[0]!, 6, SEMANTIC_MIN_Z, "");
let same = 0;
let total = 0;
const timed = { sketched: 0, exact: 0 };
for (const v of vectors) {
  let t = performance.now();
  const fast = nearestWords(mirror, v, 6, SEMANTIC_MIN_Z, "").map((x) => x.word);
  timed.sketched += performance.now() - t;
  t = performance.now();
  const exact = nearestWordsExact(mirror, v, 6, SEMANTIC_MIN_Z, "").map((x) => x.word);
  timed.exact += performance.now() - t;
  total += exact.length;
  same += exact.filter((w) => fast.includes(w)).length;
}
console.log(
  `${mirror.words.size} words, ${vectors.length} queries: sketched ${(timed.sketched / vectors.length).toFixed(2)} ms/word, exact ${(timed.exact / vectors.length).toFixed(2)} ms/word;` +
    (pool ? ` exact neighbours (z >= ${SEMANTIC_MIN_Z}, top 6) also found: ${same} of ${total}` : ""),
);
await pool?.sql.end();
