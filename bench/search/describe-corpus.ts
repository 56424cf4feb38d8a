// Figures of the benchmark corpus, for eval/CORPUS.md: strata and TLD shares,
// distinct words, how often words repeat, examples. No database needed.
//   npx tsx bench/search/describe-corpus.ts [size=100000]
//   BENCH_VOCAB=scowl npx tsx bench/search/describe-corpus.ts   the SCOWL corpus
import { corpusVocabulary, generateCorpus, summarizeCorpus } from "./corpus";
import { loadScowlLexicon } from "./scowl";
import { loadLexicon } from "./wordnet";

const size = Number(process.argv[2] ?? 100_000);
const corpus = generateCorpus(size);
const vocabulary = corpusVocabulary();
const lex = vocabulary === "scowl" ? loadScowlLexicon() : loadLexicon();
const wordnet = loadLexicon();
const s = summarizeCorpus(corpus);
const pct = (n: number) => `${((100 * n) / size).toFixed(1)}%`;
const sorted = (r: Record<string, number>) => Object.entries(r).sort((a, b) => b[1] - a[1]);

console.log(`corpus of ${size.toLocaleString("en")} names`);
console.log(vocabulary === "scowl"
  ? `lexicon: SCOWL levels 10-50, ${lex.kept.size} words (no parts of speech)`
  : `lexicon: ${lex.noun.words.length} nouns, ${lex.adj.words.length} adjectives, ${lex.verb.words.length} verbs (${lex.kept.size} distinct lemmas)`);
console.log(`strata: ${sorted(s.strata).map(([k, v]) => `${k} ${pct(v)}`).join(", ")}`);
console.log(`tlds: ${sorted(s.tlds).map(([k, v]) => `${k} ${pct(v)}`).join(", ")}`);
const wordnetWords = [...s.words.keys()].filter((w) => wordnet.kept.has(w));
console.log(`distinct truth tokens ${s.distinctWords}; of them WordNet lemmas ${wordnetWords.length}`);
const plurals = corpus.filter((d) => d.vertical !== "demo" && d.tokens.split(" ").some((w) => !wordnet.kept.has(w) && (wordnet.kept.has(w.replace(/s$/, "")) || wordnet.kept.has(w.replace(/es$/, ""))))).length;
console.log(`names holding a plural (-s/-es) of a lemma that is not a lemma itself: ${pct(plurals)}`);
const buckets = [1, 2, 5, 10, 50, 100, 1000];
console.log(`tokens by how many names hold them: ${buckets.map((b, i) => {
  const hi = buckets[i + 1] ?? Infinity;
  return `${b}${hi === Infinity ? "+" : hi - 1 > b ? `-${hi - 1}` : ""}: ${[...s.words.values()].filter((n) => n >= b && n < hi).length}`;
}).join(", ")}`);
console.log(`commonest tokens: ${[...s.words].sort((a, b) => b[1] - a[1]).slice(0, 60).map(([w, n]) => `${w} ${n}`).join(", ")}`);
const lengths = corpus.map((d) => d.label.length).sort((a, b) => a - b);
console.log(`label length p10/p50/p90: ${lengths[Math.floor(size * 0.1)]}/${lengths[Math.floor(size * 0.5)]}/${lengths[Math.floor(size * 0.9)]}`);
const prices = corpus.map((d) => d.priceCents / 100).sort((a, b) => a - b);
console.log(`price $ p10/p50/p90/p99: ${[0.1, 0.5, 0.9, 0.99].map((p) => prices[Math.floor(size * p)]).join("/")}`);
for (const stratum of Object.keys(s.strata).sort()) {
  console.log(`  ${stratum}: ${corpus.filter((d) => d.vertical === stratum).slice(0, 10).map((d) => `${d.name} [${d.tokens}]`).join(", ")}`);
}
