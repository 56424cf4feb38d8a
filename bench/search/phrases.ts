// Names as phrases (server/search/phrases.ts): embeds every listed label of a kept
// database not yet embedded, then prints the time it took, the mirror's memory,
// the sketch scan's time and its recall against the exact int8 scan, and the
// nearest names of any query given. The scan's parameters (coarse pass, widths)
// were chosen on the development queries, so its recall and speed are measured on
// the hand-written held-out queries (bench/search/eval/intent-queries.json), which
// nothing in the engine or this scan was tuned to; both scans run on the same
// subjects in one run, and the speed is reported as their ratio.
//   URL=postgres://postgres@127.0.0.1:5432/search_bench_100000 npx tsx bench/search/phrases.ts ["dog groomer" ...]
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { createPool } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { embedWordsInContext, getEmbedder } from "@/server/search/embedder";
import { getPhrases, nearestLabels, nearestLabelsExact, phraseMirrorBytes, similarityStats, registerInventoryPhrases } from "@/server/search/phrases";
import { parseSearchQuery } from "@/server/services/discovery";

const url = process.env.URL ?? "postgres://postgres@127.0.0.1:5432/search_bench_100000";
await migrateDatabase(url);
const { db, sql: client } = createPool(url, 2);
const t0 = performance.now();
// PHRASES_EMBED=0 only reads what is embedded (another process may be embedding).
const embedded = process.env.PHRASES_EMBED === "0" ? 0 : await registerInventoryPhrases(db);
const embedMs = performance.now() - t0;
const rss0 = process.memoryUsage().rss;
const t1 = performance.now();
const mirror = await getPhrases(db);
const loadMs = performance.now() - t1;
const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
console.log(`embedded ${embedded} labels in ${(embedMs / 1000).toFixed(1)} s (${(embedded / (embedMs / 1000)).toFixed(0)}/s); mirror ${mirror.size} labels read in ${(loadMs / 1000).toFixed(1)} s, ${mb(phraseMirrorBytes(mirror))} of vectors and sketches, rss +${mb(process.memoryUsage().rss - rss0)}`);

const heldOut = new URL("./eval/intent-queries.json", import.meta.url);
const texts = (JSON.parse(readFileSync(heldOut, "utf8")) as { q: string }[]).map((q) => q.q);
const subjects = [...new Set(texts.map((q) => parseSearchQuery(q).words.join(" ")))].filter(Boolean);
const vectors = await embedWordsInContext(getEmbedder(), subjects);
const K = 30;
let found = 0;
let total = 0;
const times: number[] = [];
const exactTimes: number[] = [];
vectors.forEach((v) => {
  let t = performance.now();
  const approx = nearestLabels(mirror, v, K);
  times.push(performance.now() - t);
  t = performance.now();
  const exact = nearestLabelsExact(mirror, v, K);
  exactTimes.push(performance.now() - t);
  const got = new Set(approx.map((n) => n.label));
  found += exact.filter((n) => got.has(n.label)).length;
  total += exact.length;
});
const pct = (list: number[], x: number) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(x * list.length))]!.toFixed(1);
const sum = (list: number[]) => list.reduce((a, b) => a + b, 0);
console.log(
  `${subjects.length} held-out subjects, top ${K}: sketch scan p50 ${pct(times, 0.5)} p95 ${pct(times, 0.95)} ms, exact int8 scan p50 ${pct(exactTimes, 0.5)} p95 ${pct(exactTimes, 0.95)} ms ` +
    `(exact / sketch, total time over the same subjects: ${(sum(exactTimes) / sum(times)).toFixed(1)}x); recall of the exact top ${K} ${(found / total).toFixed(3)}`,
);

const asked = process.argv.slice(2);
if (asked.length) {
  // Typed as the engine's subject (framing words left out by hand).
  const vs = await embedWordsInContext(getEmbedder(), asked);
  asked.forEach((q, i) => {
    const stats = similarityStats(mirror, vs[i]!)!;
    const z = (s: number) => ((s - stats.mean) / stats.sd).toFixed(1);
    console.log(`"${q}" (mean ${stats.mean.toFixed(3)} sd ${stats.sd.toFixed(3)}): ${nearestLabels(mirror, vs[i]!, 12).map((n) => `${n.label} ${n.similarity.toFixed(3)} z${z(n.similarity)}`).join(", ")}`);
  });
}
await client.end();
