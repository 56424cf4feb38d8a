// Embedding throughput by thread count (SEARCH_EMBED_THREADS, server/search/embed-threads.ts):
// the phrases of the benchmark corpus's labels, in the ingest path's batches of 256.
//   npx tsx bench/search/embed-threads.ts            1, 2 threads; 2,048 labels each
//   EMBED_THREADS=1,2,3 EMBED_LABELS=4096 npx tsx bench/search/embed-threads.ts
// Each round runs every thread count once, in turn, and prints each one's ratio to the
// first count's in that round (the machine is shared: compare within a round). The first
// round also loads the model in each thread.
import { performance } from "node:perf_hooks";
import { stopEmbedThreads } from "@/server/search/embed-threads";
import { setEmbedThreads, useLiteEmbedder } from "@/server/search/embedder";
import { phraseOf } from "@/server/search/phrases";
import { generateCorpus } from "./corpus";

const counts = (process.env.EMBED_THREADS ?? "1,2").split(",").map(Number);
const size = Number(process.env.EMBED_LABELS ?? 2048);
const rounds = Number(process.env.EMBED_ROUNDS ?? 3);
const BATCH = 256; // as registerPhrases and registerVocabulary

// Distinct labels from the middle of the corpus (its start is what the search benchmark's queries name).
const labels = [...new Set(generateCorpus(size * 4).slice(size).map((d) => d.label))].slice(0, size);
const phrases = labels.map(phraseOf);
console.log(`embedding ${phrases.length} label phrases in batches of ${BATCH}; threads ${counts.join(", ")}; ${rounds} rounds`);
for (let round = 1; round <= rounds; round++) {
  const row: string[] = [];
  let first = 0;
  for (const threads of counts) {
    setEmbedThreads(threads);
    const started = performance.now();
    for (let i = 0; i < phrases.length; i += BATCH) await useLiteEmbedder.embed(phrases.slice(i, i + BATCH));
    const perSecond = phrases.length / ((performance.now() - started) / 1000);
    first ||= perSecond;
    row.push(`${threads} thread(s) ${perSecond.toFixed(0)} labels/s (${(perSecond / first).toFixed(2)}x)`);
  }
  console.log(`round ${round}: ${row.join("; ")}`);
}
await stopEmbedThreads();
