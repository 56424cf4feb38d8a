// How the ingest segmenter cuts the corpus's labels, against the words each name was made of (the corpus
// generator's record), the segmenter before SEGMENTER_VERSION 2 (WordNet's words not kept whole) and the
// current one side by side in one run, on both corpora:
//   - cut as made: the label's tokens are exactly the words it was made of;
//   - a word lost: a word of four letters or more it was made of is not among its tokens (cut into pieces,
//     or run into its neighbour).
// The SCOWL corpus is the independent check: its words come from a list the engine never reads. The WordNet
// corpus draws its words from WordNet, which the current segmenter reads, so its gain is partly by construction.
//   npx tsx bench/search/segmentation.ts            100k names of each corpus (DEV_SIZE, DEV_SEED as dev.ts)
//   SEGMENT_EXAMPLES=20 npx tsx bench/search/segmentation.ts   and the first names each cut changes
import { labelTokens, type SegmentOptions } from "@/server/search/text";
import { generateCorpus, type CorpusVocabulary } from "./corpus";

const size = Number(process.env.DEV_SIZE ?? 100_000);
const seed = process.env.DEV_SEED ? Number(process.env.DEV_SEED) : undefined;
const examples = Number(process.env.SEGMENT_EXAMPLES ?? 0);
const cuts: [string, SegmentOptions][] = [
  ["before (version 1)", { lemmas: false }],
  ["current", {}],
];

for (const vocabulary of ["scowl", "wordnet"] as CorpusVocabulary[]) {
  const corpus = generateCorpus(size, seed, vocabulary);
  const made = corpus.map((d) => ({ name: d.name, label: d.name.slice(0, d.name.indexOf(".")), words: d.tokens.split(" ") }));
  console.log(`\n${vocabulary} corpus, ${corpus.length} names`);
  const counts: { asMade: number; lost: number }[] = [];
  const tokensOf: string[][] = [];
  for (const [name, options] of cuts) {
    const started = performance.now();
    let asMade = 0;
    let lost = 0;
    const all: string[] = [];
    for (const d of made) {
      const tokens = labelTokens(d.label, options);
      all.push(tokens.join(" "));
      if (tokens.join(" ") === d.words.join(" ")) asMade++;
      if (d.words.some((w) => w.length >= 4 && /^[a-z]+$/.test(w) && !tokens.includes(w))) lost++;
    }
    counts.push({ asMade, lost });
    tokensOf.push(all);
    console.log(`  ${name.padEnd(20)} cut as made ${asMade}, a word lost ${lost}; ${Math.round(performance.now() - started)} ms`);
  }
  const [before, after] = counts as [{ asMade: number; lost: number }, { asMade: number; lost: number }];
  console.log(`  current / before: cut as made ${(after.asMade / before.asMade).toFixed(3)}x, a word lost ${(after.lost / before.lost).toFixed(3)}x`);
  let shown = 0;
  for (let i = 0; i < made.length && shown < examples; i++) {
    if (tokensOf[0]?.[i] === tokensOf[1]?.[i]) continue;
    const d = made[i] as { name: string; words: string[] };
    console.log(`    ${d.name} [${d.words.join(" ")}]: ${tokensOf[0]?.[i]} -> ${tokensOf[1]?.[i]}`);
    shown++;
  }
}
