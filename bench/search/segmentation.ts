// How the ingest segmenter cuts the corpus's labels against the words each name was made of (the corpus
// generator's truth): how many names are cut otherwise, and how many have a WordNet word of four letters or
// more cut into pieces; the first examples of each. Diagnostic only, no figure of the benchmark comes from it.
//   npx tsx bench/search/segmentation.ts                      the 100k development corpus (WordNet vocabulary)
//   TUNE_SEGMENT_LEMMA_COST=0 npx tsx bench/search/segmentation.ts   the segmenter before WordNet's words
//   BENCH_VOCAB=scowl DEV_SIZE=... for another corpus (as dev.ts)
import { labelTokens } from "@/server/search/text";
import { hasLemma } from "@/server/search/wordnet";
import { generateCorpus } from "./corpus";

const size = Number(process.env.DEV_SIZE ?? 100_000);
const corpus = generateCorpus(size, process.env.DEV_SEED ? Number(process.env.DEV_SEED) : undefined);
const examples = Number(process.env.SEGMENT_EXAMPLES ?? 20);
let otherwise = 0;
let inPieces = 0;
const shown: string[] = [];
const started = performance.now();
for (const d of corpus) {
  const label = d.name.slice(0, d.name.indexOf("."));
  const tokens = labelTokens(label);
  const truth = d.tokens.split(" ");
  if (tokens.join(" ") !== truth.join(" ")) otherwise++;
  const cut = truth.filter((w) => w.length >= 4 && /^[a-z]+$/.test(w) && !tokens.includes(w) && hasLemma(w));
  if (cut.length > 0) {
    inPieces++;
    if (shown.length < examples) shown.push(`${d.name} [${d.tokens}] -> ${tokens.join(" ")}`);
  }
}
console.log(`${corpus.length} names: ${otherwise} cut otherwise than made, ${inPieces} with a WordNet word in pieces; ${Math.round(performance.now() - started)} ms (WordNet's load included)`);
console.log(shown.join("\n"));
