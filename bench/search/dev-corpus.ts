// The development corpus that bench/search/dev.ts loads and the scripts beside it read: its
// size, seed and vocabulary from the environment, the scratch database it lives in, and each
// name's truth words.
//   DEV_SIZE (default per script), DEV_SEED (the benchmark's seed when unset), BENCH_VOCAB
//   (wordnet | scowl), DEV_DB (another database holding the same corpus), BENCH_PG_URL.
import { corpusVocabulary, generateCorpus } from "./corpus";

export function devCorpus(defaultSize: number) {
  const size = Number(process.env.DEV_SIZE ?? defaultSize);
  const seed = process.env.DEV_SEED ? Number(process.env.DEV_SEED) : undefined;
  const vocabulary = corpusVocabulary();
  const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const dbName = process.env.DEV_DB ?? `search_dev_v2_${vocabulary === "wordnet" ? "" : `${vocabulary}_`}${seed === undefined ? "" : `s${seed}_`}${size}`;
  const corpus = generateCorpus(size, seed, vocabulary);
  return {
    size,
    adminUrl,
    dbName,
    dbUrl: adminUrl.replace(/\/[^/]*$/, `/${dbName}`),
    corpus,
    /** name -> its truth words (CORPUS.md). */
    truth: new Map(corpus.map((d) => [d.name, d.tokens.split(" ")])),
  };
}
