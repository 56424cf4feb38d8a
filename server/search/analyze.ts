import { dot, embedWordsInContext, getEmbedder, vectorModel, type Embedder } from "./embedder";
import { isKnownWord, normalizeText, oneEditVariants, segmentWord, wordCost } from "./text";
import { correctWord, correctWords, editDistance, inflectionsOf, nearestWords, wordsWithPrefix, type getVocabulary } from "./vocabulary";
import { FRAMING_WORDS } from "./framing";
import { meaningOf, meaningWords } from "./meanings";
import { tune } from "./tune";
import { antonyms, baseForms, hasLemma, partsOfSpeech, RELATION_WEIGHT, type PartsOfSpeech, relatedWords, synonymsInEverySense } from "./wordnet";
import { logError } from "@/server/log";

// Query understanding beyond parsing: each query word becomes a concept with
// weighted alternatives (its segments, a spelling correction against the
// vocabulary, plural/singular, and the vocabulary words nearest in meaning).

type Mirror = Awaited<ReturnType<typeof getVocabulary>>;

export interface Concept {
  /** The word as typed (normalised). */
  word: string;
  /** term -> weight in (0, 1]; the word itself, when in the vocabulary or typed, weighs 1. */
  terms: Map<string, number>;
  /** Semantic neighbours only: term -> weight (also inside `terms`). */
  semantic: Map<string, number>;
  /** The vocabulary word a misspelt word was corrected to. */
  corrected: string | null;
  /** Longer vocabulary words this one starts ("garden" -> gardens, gardener): partial matches. */
  prefixed: string[];
  /**
   * Whether a longer word this one starts means something like it (prefixMeans): "eco" starts
   * ecology, not economic. Absent (a brand, a slip, no encoder): every such word counts.
   */
  prefixOf?: (word: string) => boolean;
  /**
   * How much the concept says about the wanted name, in (0, 1]: low for a word
   * of the searcher's framing ("somewhere", "need", "app", "online": see
   * FRAMING_WORDS), lower for a common word than a rare one. Weighs the
   * concept in the rerank's coverage and decides which concepts the keyword
   * legs require. Absent: 1.
   */
  importance?: number;
  /** How near the word is to the subject as a whole (1 the nearest word; see CENTRALITY): scales importance in the rerank. */
  centrality?: number;
  /** Words nearest the subject as a whole phrase (on the first subject concept only; also in each subject concept's semantic terms). */
  phrase?: Map<string, number>;
}

/** A framing word's importance next to subject words. */
export const FRAMING_IMPORTANCE = 0.2;
/** A common subject word counts this much at least; a rare one (cost 12 and over) 1. */
const COMMON_IMPORTANCE = 0.6;

/**
 * A word describing a quality ("cheap", "playful", "quiet": see partsOfSpeech)
 * next to a word naming the subject ("car insurance", "toy store") counts this
 * much less, in proportion to how much it is used that way: a name holding only
 * the quality does not answer the query ("cozy.com" for "cozy reading nook"),
 * one holding only the subject partly does.
 */
const QUALITY_DISCOUNT = 0.5;

/** The share of an adjective's use relating to a noun (WordNet's pertainyms) from which it names a subject. */
const TOPICAL_SHARE = 0.25;

/**
 * The head of a noun compound names the kind of business ("parlor", "broker",
 * "practice", "clinic"), the noun before it what the business is about: a name
 * could drop the head without losing the meaning, not the other ("tattoo.com"
 * answers "tattoo parlor", "parlor.com" hardly), so the head counts this much.
 */
const HEAD_DISCOUNT = 0.8;
/**
 * Heads that name only the kind of outlet, provider or format ("tattoo parlour", "scaffolding
 * contractors", "martial arts classes", "insurance broker"): a name answers the query without them,
 * and one holding only the head answers nothing (contractorster.com for scaffolding), so as the head
 * they count GENERIC_HEAD_DISCOUNT, not HEAD_DISCOUNT; alone they are the subject. Written as a list of
 * business kinds, not from any query; tried on the development sets at 0.5 and 0.3 (alike), held out
 * once (bench/search/eval/HOW-MADE.md, twentieth session). TUNE_GENERIC_HEAD_DISCOUNT=0.8: the before.
 */
const GENERIC_HEADS = new Set([
  "clinic", "clinics", "practice", "practise", "parlour", "parlours", "parlor", "parlors", "salon", "salons", "saloon",
  "workshop", "workshops", "school", "schools", "academy", "institute", "club", "clubs", "society", "association",
  "class", "classes", "lesson", "lessons", "course", "courses", "tuition", "tutorial", "tutorials", "tips", "guide", "guides", "advice",
  "broker", "brokers", "agent", "agents", "dealer", "dealers", "merchant", "merchants", "supplier", "suppliers", "supplies",
  "distributor", "distributors", "retailer", "retailers", "outlet", "outlets", "wholesaler", "wholesalers",
  "contractor", "contractors", "installer", "installers", "fitter", "fitters", "specialist", "specialists", "expert", "experts",
  "consultant", "consultants", "consultancy", "consulting", "solutions", "systems", "products", "hire", "rental", "rentals", "repairs",
  "directory", "marketplace", "portal",
]);
const GENERIC_HEAD_DISCOUNT = tune("GENERIC_HEAD_DISCOUNT", 0.5);
/**
 * A verb typed before its object ("rent a boat", "fix my computer", "trace their ancestors") says what
 * is done with the subject, which is the object: it counts this much, and is no noun before a head.
 */
const VERB_DISCOUNT = tune("VERB_DISCOUNT", 0.7);
/**
 * Which word carries the subject, decided by the encoder rather than by position: each word's
 * cosine (in context) to the subject phrase as a whole, against the nearest word's. A word 0.1
 * further from the phrase than the nearest counts 0.2 less in the rerank's coverage, down to
 * half: "family doctor" -> doctor 0.875, family 0.719 (family.com no longer ties doctor.com);
 * "tattoo parlor" -> tattoo 0.866, parlor 0.688. Tuned on the development sets only
 * (bench/search/eval/HOW-MADE.md, fourteenth session).
 */
const CENTRALITY = tune("CENTRALITY", 2);
const CENTRALITY_FLOOR = tune("CENTRALITY_FLOOR", 0.5);

/**
 * How common a word is (wordCost), a plural counted as its singular: "reviews" and
 * "gifts" are rarer than review and gift in the frequency list, not rarer in meaning.
 */
function typedCost(word: string): number | undefined {
  const own = wordCost(word);
  if (!word.endsWith("s") || hasLemma(word)) return own;
  const singular = baseForms(word).flatMap((b) => (b.agent ? [] : [wordCost(b.lemma)])).filter((c): c is number => c !== undefined);
  return singular.length > 0 ? Math.min(own ?? Infinity, ...singular) : own;
}

/**
 * Framing words that frame as verbs ("somewhere to book a groomer", "order a pizza", "track my
 * spending") and name the subject as nouns: last in the query after a subject word ("second hand
 * book", "mail order", "race track") they are the head noun.
 */
const NOUNS_TOO = new Set(["book", "order", "track"]);
/** TUNE_NOUN_AT_END=0: those words frame wherever they stand (the benchmark's before). */
const NOUN_AT_END = tune("NOUN_AT_END", 1) === 1;
/** words[i] is one of NOUNS_TOO ending the query after a subject word. */
const nounAtEnd = (words: string[], i: number) => NOUN_AT_END && NOUNS_TOO.has(words[i] ?? "") && i > 0 && i === words.length - 1 && !FRAMING_WORDS.has(words[i - 1] ?? "");
/** TUNE_LONE_LETTER_FRAMES=0: a lone letter weighs by rarity, as a word (the benchmark's before). */
const LONE_LETTER_FRAMES = tune("LONE_LETTER_FRAMES", 1) === 1;
/** TUNE_CORRECTED_VERBS=0: a misspelt verb before its object is read by the word typed, not the word meant (the twentieth session's). */
const CORRECTED_VERBS = tune("CORRECTED_VERBS", 1) === 1;
/**
 * Verbs that link a subject to what is said of it ("feel", "are", "get" before "lonely", "anxious",
 * "bored"). The word after one is no quality of the name's subject but the subject itself, and the
 * verb frames. TUNE_PREDICATES=0: such a word is weighed as any quality (the benchmark's before).
 */
const LINKING_VERBS = new Set(["feel", "feels", "feeling", "felt", "is", "are", "am", "was", "were", "be", "being", "been", "get", "gets", "getting", "got", "become", "becomes", "becoming", "seem", "seems", "stay", "stays"]);
const PREDICATES = tune("PREDICATES", 1) === 1;
/**
 * A word before the last that can be a noun at all (not only mostly) makes the last the compound's head:
 * "escape rooms" (escape is mostly a verb in WordNet's counts), "veterinary clinic". It must not be a
 * quality or a verb before its object. TUNE_MODIFIER_NOUN_SHARE=0.5: only a mostly-noun word does (the before).
 */
const MODIFIER_NOUN_SHARE = tune("MODIFIER_NOUN_SHARE", 0);
/** Importance of each concept (see Concept.importance): framing low unless all are framing, then by rarity, qualities below subjects. */
export function conceptImportance(words: string[], beforeObject: ReadonlySet<string> = new Set()): number[] {
  // Each word's parts of speech, read once and only where asked for.
  const read: (PartsOfSpeech | undefined)[] = [];
  const speech = (i: number) => (read[i] ??= partsOfSpeech(words[i] ?? ""));
  // A linking verb before a word that describes ("people who feel lonely", "kids who get bored") frames it.
  const linking = words.map((w, i) => PREDICATES && LINKING_VERBS.has(w) && i + 1 < words.length && speech(i + 1).quality > 0);
  const framing = words.map((w, i) => (FRAMING_WORDS.has(w) && !nounAtEnd(words, i)) || (linking[i] ?? false));
  const allFraming = framing.every(Boolean);
  const parts = words.map((_, i) => (framing[i] ? null : speech(i)));
  // A word typed before an object that can be a verb is its verb ("rent a boat"): no noun before a head, and discounted.
  const verb = words.map((w, i) => beforeObject.has(w) && (parts[i]?.verb ?? 0) > 0);
  // An adjective with a sense in regular use that relates to a noun ("legal" -> law, "mental" -> mind) can name
  // the subject ("legal advice", "mental health"): it is no mere quality.
  // ...and so does one said of the people the name is for, after a linking verb: what they feel is the subject.
  const quality = parts.map((p, i) => (p && (p.adjective - p.quality >= TOPICAL_SHARE || (i > 0 && linking[i - 1])) ? 0 : (p?.quality ?? 0)));
  const subjectNamed = quality.some((q, i) => !framing[i] && q < 0.5);
  // The subject's nouns as typed; the last is the head of the compound ("tattoo parlor", "insurance broker").
  const nouns = parts.map((p, i) => ((p?.noun ?? 0) >= 0.5 && !verb[i] ? i : -1)).filter((i) => i >= 0);
  // The last subject word after a word that can be a noun (see MODIFIER_NOUN_SHARE) is the head whenever it can
  // be a noun itself ("restaurant reviews", "health support": mostly verbs in WordNet's counts, nouns in that place).
  const last = framing.lastIndexOf(false);
  const modifier = (i: number) => nouns.includes(i) || ((parts[i]?.noun ?? 0) > MODIFIER_NOUN_SHARE && !verb[i] && (quality[i] ?? 0) < 0.5 && !framing[i]);
  const head = last >= 0 && (parts[last]?.noun ?? 0) > 0 && words.some((_, i) => i < last && modifier(i)) ? last : nouns.length >= 2 ? (nouns[nouns.length - 1] ?? -1) : -1;
  return words.map((w, i) => {
    if (framing[i] && !allFraming) return FRAMING_IMPORTANCE;
    // A lone letter beside words ("3d printing" -> 3 d printing, "b2b saas") qualifies them; it names no subject.
    if (LONE_LETTER_FRAMES && /^\p{L}$/u.test(w) && words.some((o) => o.length > 1 && /\p{L}/u.test(o))) return FRAMING_IMPORTANCE;
    const cost = typedCost(w);
    // One of the commonest words ("like", "all", "get": see carriesMeaning) frames too.
    if (cost !== undefined && cost < FUNCTION_WORD_COST && !allFraming && words.some((o, j) => j !== i && !framing[j] && (wordCost(o) ?? Infinity) >= FUNCTION_WORD_COST)) return FRAMING_IMPORTANCE;
    const rarity = cost === undefined ? 1 : COMMON_IMPORTANCE + (1 - COMMON_IMPORTANCE) * Math.min(1, Math.max(0, (cost - 7) / 5));
    const asHead = i === head ? (GENERIC_HEADS.has(w) ? GENERIC_HEAD_DISCOUNT : HEAD_DISCOUNT) : 1;
    return (subjectNamed ? rarity * (1 - QUALITY_DISCOUNT * (quality[i] ?? 0)) : rarity) * asHead * (verb[i] ? VERB_DISCOUNT : 1);
  });
}

/**
 * A neighbour must stand this many standard deviations above the query word's
 * mean similarity to the vocabulary (see nearestWords): "software" -> code 2.7,
 * tech 2.6 pass; "online" -> "in" 2.4 and "zebra" -> "la" 2.2 do not.
 */
export const SEMANTIC_MIN_Z = 2.5;
/**
 * A word the inventory holds is wanted as itself; only a close synonym joins it
 * ("lawyer" -> attorney 5.9, law 4.3), not a sibling ("miami" -> chicago 2.8).
 */
const KNOWN_WORD_MIN_Z = 3.5;
const SEMANTIC_NEIGHBOURS = 6;
/** At most this many words in meaning per concept, the encoder's and WordNet's together (each is a branch of the meaning leg). */
const MEANING_TERMS = 8;
/** At most this many WordNet relatives per concept, the strongest. */
const WORDNET_TERMS = 6;
/** A word both the encoder and WordNet relate gains this much (they rarely agree on junk). */
const AGREEMENT_BONUS = 0.1;
/** An encoder neighbour WordNet does not relate to a word it knows counts this much of its weight. */
const ENCODER_ONLY_FACTOR = 0.8;
/**
 * Neighbours of the whole subject phrase, and their weight next to the words' own (1). The
 * encoder's nearest words to a phrase are often its look-alikes ("habit tracker" -> tracked,
 * trusty, cache; "sturdy waterproof hiking boots" -> shoeless, barefoot), so they only fill in.
 * At 0.5 rather than 0.7, nDCG@5 on the six development sets: 0.872 -> 0.874, 0.846 -> 0.855,
 * 0.830 -> 0.839, 0.801 -> 0.803, 0.745 -> 0.748, 0.672 -> 0.682 (0.3 and 0.4 gained too; with
 * no phrase neighbours dev-6 fell to 0.666). Held out at 100k, hand strata nDCG@5: WordNet corpus
 * 0.548 -> 0.556, SCOWL 0.693 -> 0.694 (bench/search/eval/run-*phraseweight-sbs.txt).
 */
const PHRASE_NEIGHBOURS = 4;
const PHRASE_WEIGHT = tune("PHRASE_WEIGHT", 0.5);
/** An agent noun's verb ("groomer" -> groom) when the inventory lacks the noun. */
const AGENT_WEIGHT = 0.85;
/**
 * Words commoner than this (-log p under 6.5: "the", "just", "well", "get", "our",
 * the 102 most frequent of the word list) carry no subject; the encoder puts them near every
 * word ("real" -> just), so they are never a neighbour in meaning.
 */
const FUNCTION_WORD_COST = 6.5;
const carriesMeaning = (word: string) => (wordCost(word) ?? Infinity) >= FUNCTION_WORD_COST;
/** The nearest meaning counts a little less than the word itself... */
const SEMANTIC_WEIGHT = 0.95;
/** ...and each standard deviation below the nearest costs this much, so the best sense leads. */
const SEMANTIC_Z_STEP = 0.12;
const SEMANTIC_MIN_WEIGHT = 0.5;
const KNOWN_WORD_SEMANTIC_WEIGHT = 0.5;
const CORRECTION_WEIGHT = 0.9;
const REAL_WORD_SLIP_WEIGHT = 0.6;
const INFLECTION_WEIGHT = 0.95;
/**
 * The -ing form of a word typed in its base form names its activity or trade
 * (roofing, booking, landscaping) and counts, below the word and its plural. An
 * -ed form does not: it is too often another word ("mortgaged", "dogged",
 * "watched"); on the development set it cost more than it found. At 0.7 rather
 * than 0.8 the development sets lost less where an -ing form is another thing
 * ("planning" for "plan": WordNet corpus nDCG@5 0.754 -> 0.757, SCOWL 0.672 -> 0.677).
 */
const ING_FORM_WEIGHT = 0.7;
/** Partial-word matches looked up per query word (the typed word as a prefix). */
const PREFIXED_WORDS = 4;
/**
 * How close in meaning (the encoder's cosine, both words in context) a longer word must be to the
 * word it starts with to count as a partial match of it. Measured pairs: eco/ecology 0.75, fit/fitness
 * 0.70, pro/professional 0.70, home/homemade 0.72, plumb/plumber 0.72, photo/photographer 0.77, against
 * box/boxer 0.67, cook/cookie 0.64, dent/dental 0.65, gym/gymnastics 0.63, sun/sunday 0.60,
 * eco/economic 0.55, hot/hotel 0.53, spa/space 0.51.
 */
export const PREFIX_MEANING = 0.68;
const SAFE_TERM = /^[\p{L}\p{N}]{1,63}$/u;

/**
 * The query words' vectors and the per-word memos below, once per process: on globalThis, since
 * the web server's own bundle and Next's route bundles each have a copy of this module: a word
 * looked up anywhere (the start-up load, partner search, public search, the MCP tool) is then
 * known everywhere.
 */
const shared = globalThis as unknown as {
  __pdmQueryVectors?: Map<string, Float32Array>;
  __pdmSearchMemos?: WeakMap<Mirror, { version: string; byKey: Map<string, unknown> }>;
};
const queryVectors = (shared.__pdmQueryVectors ??= new Map());
const QUERY_CACHE = 20_000;
let warned = false;

async function embedWords(words: string[], embedder: Embedder): Promise<Map<string, Float32Array>> {
  const key = (w: string) => `${vectorModel(embedder)}:${w}`;
  const missing = words.filter((w) => !queryVectors.has(key(w)));
  if (missing.length > 0) {
    const vectors = await embedWordsInContext(embedder, missing);
    if (queryVectors.size + missing.length > QUERY_CACHE) queryVectors.clear();
    missing.forEach((w, i) => queryVectors.set(key(w), vectors[i] as Float32Array));
  }
  return new Map(words.map((w) => [w, queryVectors.get(key(w)) as Float32Array]));
}

/**
 * Per-word results as of a version of the vocabulary (neighbours in meaning,
 * spelling corrections): a scan of every vector or every word of a length costs
 * milliseconds at tens of thousands of words, and the words of queries repeat.
 * A word listed or re-embedded (a new mirror version) empties it.
 */
const memos = (shared.__pdmSearchMemos ??= new WeakMap());
const MEMO_SIZE = 20_000;

function memo<T>(mirror: Mirror, key: string, compute: () => T): T {
  const version = `${mirror.lastId}:${mirror.words.size}`;
  let cache = memos.get(mirror);
  if (!cache || cache.version !== version || cache.byKey.size >= MEMO_SIZE) {
    cache = { version, byKey: new Map() };
    memos.set(mirror, cache);
  }
  if (cache.byKey.has(key)) return cache.byKey.get(key) as T;
  const value = compute();
  cache.byKey.set(key, value);
  return value;
}

const correct = (mirror: Mirror, word: string) => memo(mirror, `correct:${word}`, () => correctWord(mirror, word));

/**
 * Segments an unknown query word, unless real words would cover under half of
 * its letters: "zqixnywdgo" is a brand or noise, not "go" with a prefix, and
 * matching it on "go" would answer nonsense with unrelated names.
 */
function segmentQueryWord(mirror: Mirror, word: string): string[] {
  const pieces = segmentWord(word);
  const known = pieces.filter((p) => p.length >= 2 && (isKnownWord(p) || mirror.words.has(p))).join("").length;
  return known * 2 >= word.length ? pieces : [word];
}

/** TUNE_UNPREFIXED=0: a word WordNet lacks is not read through a prefix (the benchmark's before). */
const UNPREFIXED = tune("UNPREFIXED", 1) === 1;
/** Prefixes that make a verb of a verb ("re-", "de-", "un-", "dis-", "mis-", "pre-"). */
const VERB_PREFIX = /^(re|de|un|dis|mis|pre)([a-z]{5,})$/;
/** The verb a word WordNet lacks is made from with a prefix ("reupholster" -> upholster), or null. */
function unprefixed(word: string): string | null {
  const stem = VERB_PREFIX.exec(word)?.[2];
  return stem && baseForms(stem).some((b) => !b.agent && partsOfSpeech(b.lemma).verb > 0) ? stem : null;
}

/** Runs of two words with one slip are read as the words (slippedRun); TUNE_SLIPPED_RUNS=0 leaves them as typed (the benchmark's before). */
const SLIPPED_RUNS = tune("SLIPPED_RUNS", 1);
/** A run this long may be two words typed together with one slip. */
const SLIPPED_RUN_MIN = 9;
/** Each word of such a run has at least this many letters: short pieces fit too many slips. */
const SLIPPED_PIECE_MIN = 4;

/**
 * The two words a run with one slip was meant as ("cyberseucrity" -> cyber security): among the
 * strings one edit away, those that split into exactly two real words of SLIPPED_PIECE_MIN letters
 * or more, the commonest pair; null when none does.
 */
function slippedRun(mirror: Mirror, word: string): string[] | null {
  if (word.length < SLIPPED_RUN_MIN || !/^[a-z]+$/.test(word)) return null;
  let best: { pieces: string[]; cost: number } | null = null;
  for (const variant of oneEditVariants(word)) {
    if (variant.includes("-")) continue;
    const pieces = segmentWord(variant);
    if (pieces.length !== 2 || !pieces.every((p) => p.length >= SLIPPED_PIECE_MIN && (isKnownWord(p) || mirror.words.has(p)))) continue;
    const cost = pieces.reduce((sum, p) => sum + (wordCost(p) ?? 20), 0);
    if (!best || cost < best.cost) best = { pieces, cost };
  }
  return best?.pieces ?? null;
}

/** A word spelt another way counts as the word (otherSpellings); TUNE_OTHER_SPELLINGS=0 leaves it out (the benchmark's before). */
const OTHER_SPELLINGS = tune("OTHER_SPELLINGS", 1);

/** From this many letters, another spelling may be two edits away. */
const OTHER_SPELLING_LONG = 7;
/**
 * The same word spelt another way ("neighbourhood" -> neighborhood, "pyjamas" -> pajamas, "colours" -> colors):
 * a lemma WordNet puts beside the word in every sense, one edit away (two from OTHER_SPELLING_LONG letters:
 * jewellery, catalogue), with the same first letter. A short word two edits away is another word (pond, pool).
 */
function otherSpellings(word: string): string[] {
  if (OTHER_SPELLINGS === 0 || word.length < 4) return [];
  const max = word.length >= OTHER_SPELLING_LONG ? 2 : 1;
  return synonymsInEverySense(word).filter((v) => v[0] === word[0] && editDistance(word, v, max) <= max);
}

function add(terms: Map<string, number>, term: string, weight: number) {
  if (!SAFE_TERM.test(term)) return;
  terms.set(term, Math.max(terms.get(term) ?? 0, weight));
}

/** Concepts of the query words; `words` are parseSearchQuery's (already split, stop words dropped). */
export async function analyzeWords(
  mirror: Mirror,
  words: string[],
  embedder: Embedder = getEmbedder(),
  /**
   * relatives: WordNet's words in meaning (off with the meaning leg); base forms are always looked up.
   * subject: the subject phrase (subjectPhrase) is embedded in the same encoder call as the words, for the phrase leg.
   * pieceSlips: the query is words, not a name typed: an unexplained piece of a split word is corrected on its own.
   * beforeObject: words typed before an object (see conceptImportance).
   */
  options: { relatives?: boolean; subject?: boolean; pieceSlips?: boolean; beforeObject?: string[] } = {},
): Promise<Concept[]> {
  // A word of the vocabulary stays whole; a misspelt one is corrected; only an
  // unknown, uncorrectable run is segmented ("bestpizza" -> best pizza).
  const concepts: Concept[] = [];
  const slips = new Map<Concept, string>();
  const seen = new Set<string>();
  const push = (word: string, corrected: string | null, slip: string | null = null, alternative: string | null = null) => {
    if (seen.has(word)) return;
    seen.add(word);
    const terms = new Map<string, number>();
    add(terms, word, 1);
    if (corrected) add(terms, corrected, CORRECTION_WEIGHT);
    if (alternative) add(terms, alternative, CORRECTION_WEIGHT);
    if (word.length >= 4 && word.endsWith("s")) {
      // A plural's singular; not when WordNet has the word and no such base form ("news" is not new, "paris" not pari).
      const singular = word.slice(0, -1);
      if (!word.endsWith("ss") && (!hasLemma(word) || baseForms(word).some((b) => b.lemma === singular))) add(terms, singular, INFLECTION_WEIGHT);
    } else if (word.length >= 3) add(terms, `${word}s`, INFLECTION_WEIGHT);
    for (const other of memo(mirror, `spellings:${word}`, () => otherSpellings(word))) if (mirror.words.has(other)) add(terms, other, INFLECTION_WEIGHT);
    const prefixed = word.length >= 3 ? wordsWithPrefix(mirror, word, PREFIXED_WORDS).filter((w) => !terms.has(w)) : [];
    const concept: Concept = { word, terms, semantic: new Map(), corrected, prefixed };
    if (slip) slips.set(concept, slip);
    concepts.push(concept);
  };
  for (const typed of words.map(normalizeText)) {
    // A possessive typed without its apostrophe ("childrens", "mens") is the word it belongs to, unless a
    // commoner word is one slip away ("painings" is paintings, not paining's).
    const word = possessiveOf(mirror, typed) ?? typed;
    if (mirror.words.has(word)) {
      push(word, null);
      continue;
    }
    // The same word spelt another way, held by names, is searched as if typed that way: its meaning is
    // then the listed word's ("neighbourhood" finds neighborhood names, not vicinity ones).
    const spelt = memo(mirror, `spellings:${word}`, () => otherSpellings(word)).find((other) => mirror.words.has(other));
    if (spelt) {
      push(spelt, null);
      continue;
    }
    if (MEANINGS && meaningOf(word)) {
      // A trade word or abbreviation with a listed meaning ("hvac", "kombucha") is meant as typed, never a slip.
      push(word, null);
      continue;
    }
    if (isKnownWord(word)) {
      // A real word no name holds may still be a slip for one that does ("sore" for
      // store): that word joins at a low weight, below the word's own meanings.
      const slip = correct(mirror, word);
      push(word, null, slip && isKnownWord(slip) ? slip : null);
      continue;
    }
    if (inWordNet(word) && !agentSlip(mirror, word)) {
      // A word the frequency list lacks but WordNet knows, or whose verb it knows
      // ("installer" -> install) is a word, not a run to cut ("in staller").
      push(word, null);
      continue;
    }
    // A word made with a prefix English adds freely to a verb WordNet knows ("reupholster", "declutter") is that
    // verb done again or undone: searched as the verb, not cut into pieces (reup holster) or stretched to another word.
    const stem = UNPREFIXED ? unprefixed(word) : null;
    if (stem) {
      push(stem, null);
      continue;
    }
    // A one-letter slip is corrected; a run that splits wholly into real words
    // ("defispot") is split rather than stretched two edits to another word (despot).
    const split = segmentQueryWord(mirror, word);
    const wholly = split.length > 1 && split.every((p) => p.length >= 2 && (isKnownWord(p) || mirror.words.has(p)));
    let [corrected = null, alternative = null] = memo(mirror, `corrections:${word}`, () => correctWords(mirror, word));
    if (corrected && wholly && editDistance(word, corrected, 1) > 1) [corrected, alternative] = [null, null];
    if (corrected && !mirror.words.has(corrected)) {
      // A common word no name holds ("jewlery" -> jewelry, "vegeterian" -> vegetarian) is searched as if
      // typed right: through its forms and meanings, which names do hold (jewel, vegan).
      push(corrected, null, null, alternative && mirror.words.has(alternative) ? alternative : null);
      continue;
    }
    // Two words run together with one slip ("cyberseucrity", "telheealth"), when nothing else explains the run
    // (in a query of words, a run that splits is corrected piece by piece below).
    const piecewise = options.pieceSlips === true && split.length > 1;
    const slipped = corrected || wholly || piecewise || SLIPPED_RUNS === 0 ? null : memo(mirror, `slipped:${word}`, () => slippedRun(mirror, word));
    if (slipped) {
      for (const piece of slipped) push(piece, null);
      continue;
    }
    const pieces = corrected ? [word] : split;
    if (pieces.length === 1) {
      push(word, corrected, null, alternative);
      continue;
    }
    for (const piece of pieces) {
      // A piece no word explains is a slip of its own ("physioterapy" -> physio terapy -> therapy), searched as
      // meant; not in a name typed ("placesysetm.com", "littlebeltcae"), which the label leg matches as a whole.
      const unknown = options.pieceSlips === true && piece.length >= PIECE_SLIP_MIN && !isKnownWord(piece) && !mirror.words.has(piece);
      const [meantPiece = null] = unknown ? memo(mirror, `corrections:${piece}`, () => correctWords(mirror, piece)) : [];
      if (meantPiece && !mirror.words.has(meantPiece)) push(meantPiece, null);
      else push(piece, meantPiece);
    }
  }
  // The searcher's framing ("somewhere", "need") next to a subject is neither
  // stretched to a slip nor expanded in meaning: it would only bring noise.
  // A corrected word counts as the word meant ("busness" is as common as business).
  // A word marked before its object is marked as meant too ("rnet a boat": rent is the verb).
  const typedBefore = new Set(options.beforeObject);
  const beforeObject = new Set(concepts.filter((c) => typedBefore.has(c.word)).map((c) => (CORRECTED_VERBS ? (c.corrected ?? c.word) : c.word)));
  const importance = conceptImportance(concepts.map((c) => c.corrected ?? c.word), beforeObject);
  concepts.forEach((c, i) => {
    c.importance = importance[i] ?? 1;
    const slip = slips.get(c);
    if (slip && c.importance >= FRAMING_IMPORTANCE * 2) add(c.terms, slip, REAL_WORD_SLIP_WEIGHT);
    // A framing word's synonyms that frame too ("shop" -> store) count as the word: "surf shop" -> surfstore.
    if (c.importance <= FRAMING_IMPORTANCE && (options.relatives ?? true)) {
      for (const r of relatedWords(c.word)) {
        const listed = r.relation === "synonym" && FRAMING_WORDS.has(r.word) ? inInventory(mirror, r.word) : null;
        if (listed && !c.terms.has(listed)) add(c.terms, listed, r.weight);
      }
    }
  });
  // Meaning only for real words: a brand or a typo has no meaning to expand, and
  // expanding gibberish would turn nonsense queries into results.
  const meaningful = concepts.filter(
    (c) =>
      /^[a-z]{2,}$/.test(meant(c)) &&
      (isKnownWord(meant(c)) || mirror.words.has(meant(c)) || inWordNet(meant(c)) || sense(c) !== meant(c)) &&
      carriesMeaning(meant(c)) &&
      (c.importance ?? 1) > FRAMING_IMPORTANCE,
  );
  // Two or more subject words are also embedded as one phrase ("solar panel installer").
  // Only for a paraphrase: framing words typed, or a subject word no name holds. The words of a
  // name ("nyc lawyer") are wanted as themselves (on the old strata, exact and TLD queries lost 0.01-0.02 nDCG@5 otherwise).
  const paraphrase = concepts.some((c) => (c.importance ?? 1) <= FRAMING_IMPORTANCE) || meaningful.some((c) => !mirror.words.has(meant(c)));
  const phrase = meaningful.length >= 2 && paraphrase ? meaningful.map(sense).join(" ") : null;
  const subject = options.subject ? subjectPhrase(concepts) : null;
  if (meaningful.length > 0 && mirror.words.size > 0) {
    const texts = [...new Set([...meaningful.map(sense), ...(phrase ? [phrase] : []), ...(subject ? [subject] : [])])];
    const vectors = await embedOrNothing(texts, embedder);
    const subjectVector = subject ? vectors.get(subject) : undefined;
    // Only between words typed apart: the pieces of one run typed together ("bestpizza") are a name, not a phrase.
    if (CENTRALITY > 0 && subjectVector && meaningful.length >= 2 && words.length >= 2) {
      const sims = meaningful.map((c) => {
        const v = vectors.get(sense(c));
        return v ? dot(v, subjectVector) : null;
      });
      const top = Math.max(...sims.map((x) => x ?? -1));
      meaningful.forEach((c, i) => {
        const x = sims[i];
        if (x != null) c.centrality = Math.min(1, Math.max(CENTRALITY_FLOOR, 1 - CENTRALITY * (top - x)));
      });
    }
    for (const concept of meaningful) {
      const vector = vectors.get(sense(concept));
      if (!vector) continue;
      if (meant(concept) === concept.word) {
        concept.prefixOf = prefixMeans(mirror, vector);
        concept.prefixed = concept.prefixed.filter(concept.prefixOf);
      }
      const known = mirror.words.has(meant(concept));
      const minZ = known ? KNOWN_WORD_MIN_Z : SEMANTIC_MIN_Z;
      const neighbours = memo(mirror, `near:${vectorModel(embedder)}:${sense(concept)}`, () =>
        nearestWords(mirror, vector, SEMANTIC_NEIGHBOURS, minZ, meant(concept), carriesMeaning),
      );
      const topZ = neighbours[0]?.z ?? 0;
      // The encoder puts opposites close ("cheap" -> expensive, pricey): they are no meaning of the word.
      const opposite = antonyms(meant(concept));
      for (const { word, z } of neighbours) {
        if (concept.terms.has(word) || opposite.has(word) || opposite.has(word.replace(/s$/, ""))) continue;
        const closeness = Math.max(SEMANTIC_MIN_WEIGHT, SEMANTIC_WEIGHT - SEMANTIC_Z_STEP * (topZ - z));
        // A word of the inventory is mostly wanted as itself: its neighbours only fill in.
        const weight = known ? KNOWN_WORD_SEMANTIC_WEIGHT * closeness : closeness;
        concept.semantic.set(word, weight);
      }
    }
    const phraseVector = phrase ? vectors.get(phrase) : undefined;
    if (phrase && phraseVector) {
      // The words nearest the whole phrase answer its subject as a whole, a little below the words' own meanings.
      const typed = new Set(concepts.map((c) => meant(c)));
      const near = memo(mirror, `near:${vectorModel(embedder)}:${phrase}`, () =>
        nearestWords(mirror, phraseVector, PHRASE_NEIGHBOURS, SEMANTIC_MIN_Z, phrase, carriesMeaning),
      ).filter((n) => !typed.has(n.word));
      const topZ = near[0]?.z ?? 0;
      const terms = new Map(near.map((n) => [n.word, PHRASE_WEIGHT * Math.max(SEMANTIC_MIN_WEIGHT, 1 - SEMANTIC_Z_STEP * (topZ - n.z))]));
      // One concept holds them (the first of the subject): counted in every concept, a word near
      // the phrase would outrank the typed words themselves ("solar panel installer" -> bulbs).
      const holder = meaningful[0] as Concept;
      if (terms.size > 0) holder.phrase = terms;
      for (const [term, weight] of terms) if (!holder.terms.has(term)) holder.semantic.set(term, Math.max(holder.semantic.get(term) ?? 0, weight));
    }
  }
  for (const concept of meaningful) expandWithWordNet(mirror, concept, options.relatives ?? true);
  concepts.forEach((c) => {
    // The strongest meanings only: each is a branch of the meaning leg.
    const kept = [...c.semantic].filter(([t]) => !c.terms.has(t)).sort((a, b) => b[1] - a[1]).slice(0, MEANING_TERMS);
    c.semantic = new Map(kept);
    for (const [term, weight] of kept) add(c.terms, term, weight);
  });
  return concepts;
}

/** The word an unknown word ending in s is the possessive of, typed without its apostrophe, or null (see analyzeWords). */
function possessiveOf(mirror: Mirror, typed: string): string | null {
  const stem = typed.slice(0, -1);
  if (mirror.words.has(typed) || isKnownWord(typed) || !/[^s]s$/.test(typed) || !isKnownWord(stem)) return null;
  const [fix] = memo(mirror, `corrections:${typed}`, () => correctWords(mirror, typed));
  return fix && fix !== stem && (wordCost(fix) ?? Infinity) < (wordCost(stem) ?? Infinity) ? null : stem;
}

/** The word a concept stands for: the correction of a misspelt word ("resturant" -> restaurant), else the word. */
const meant = (c: Concept) => c.corrected ?? c.word;

/** TUNE_MEANINGS=0: a listed word's meaning (meanings.ts) is not read (the benchmark's before). */
const MEANINGS = tune("MEANINGS", 1) === 1;
/**
 * Each word of a meaning of several words is a part of it, not a synonym of the word ("glamping" is
 * luxury camping, not luxury; "podcast" an audio show, not a show): it counts this much of a synonym.
 * TUNE_MEANING_PART=1: as a synonym (the benchmark's before).
 */
const MEANING_PART = tune("MEANING_PART", 0.75);

/**
 * What the encoder reads for a concept: the plain meaning of a listed trade word or abbreviation
 * ("hvac" -> heating and cooling: see meanings.ts), which the encoder knows and the word it does not;
 * else the word meant.
 */
const sense = (c: Concept) => (MEANINGS ? meaningOf(meant(c)) : undefined) ?? meant(c);

/**
 * Whether a vocabulary word starting with a query word means something like it (PREFIX_MEANING), by
 * the two words' vectors in context. A word without a vector (not yet embedded) counts, as before.
 */
function prefixMeans(mirror: Mirror, vector: Float32Array): (word: string) => boolean {
  const seen = new Map<string, boolean>();
  return (word) => {
    let means = seen.get(word);
    if (means === undefined) {
      const other = mirror.words.get(word)?.vector;
      means = !other || dot(vector, other) >= PREFIX_MEANING;
      seen.set(word, means);
    }
    return means;
  };
}

/** A word WordNet holds, as typed or through a base form (6 letters at least: short runs are likelier typos). */
const inWordNet = (word: string) => word.length >= 6 && /^[a-z]+$/.test(word) && baseForms(word).length > 0;

/**
 * A word WordNet knows only through the agent-noun rule, one edit from a real
 * word, is that word misspelt when no verb it could come from is in common use
 * beside it: "plumer" is plumber (plum is no verb, to plume is rare), while
 * "installer" is one who installs, not a slip for installed.
 */
function agentSlip(mirror: Mirror, word: string): boolean {
  const bases = baseForms(word);
  if (!bases.every((b) => b.agent)) return false;
  const [slip] = memo(mirror, `corrections:${word}`, () => correctWords(mirror, word));
  const cost = slip === undefined ? undefined : wordCost(slip);
  if (cost === undefined || editDistance(word, slip as string, 1) > 1) return false;
  // The agent noun spelt without the consonant English doubles before -er ("beginers" for beginners, "swimer"):
  // the verb is common, but the word meant is the one with the letter doubled.
  if (AGENT_DOUBLING && slip === word.replace(/([b-df-hj-np-tv-z])(ers?)$/, "$1$1$2")) return true;
  return bases.every((b) => partsOfSpeech(b.lemma).verb === 0 || (wordCost(b.lemma) ?? Infinity) - cost >= RARER_VERB);
}
/** TUNE_AGENT_DOUBLING=0: an agent noun missing its doubled consonant stands when its verb is common (the benchmark's before). */
const AGENT_DOUBLING = tune("AGENT_DOUBLING", 1) === 1;
/** A piece of a split word this long or longer, that no word explains, is corrected on its own. */
const PIECE_SLIP_MIN = 5;
/** How much rarer (in -log p) than the word one edit away a verb must be to make a typed agent noun a slip. */
const RARER_VERB = 1.5;

/** The inventory's spelling of a word: itself, else its plural ("shoe" -> shoes when only that is listed). */
function inInventory(mirror: Mirror, word: string): string | null {
  if (mirror.words.has(word)) return word;
  if (mirror.words.has(`${word}s`)) return `${word}s`;
  return null;
}

/**
 * WordNet's view of a concept, restricted to words some name holds: its base
 * forms as the word itself ("plumbing" -> plumb, "paintings" -> painting, the
 * verb of an agent noun "groomer" -> groom), the forms names hold of a word typed
 * in its base form ("bakery" -> bakeries, "roof" -> roofing), and its relatives (synonyms,
 * derived forms, hypernyms, hyponyms: see wordnet.ts) as meanings, below the
 * word and, for a word the inventory holds, below it by as much as the
 * encoder's neighbours. A relative the encoder also found gains a little.
 */
export function expandWithWordNet(mirror: Mirror, concept: Concept, relatives = true): void {
  const word = meant(concept);
  for (const { lemma, agent } of baseForms(word)) {
    const weight = agent ? AGENT_WEIGHT : INFLECTION_WEIGHT;
    const listed = lemma === word ? null : inInventory(mirror, lemma);
    if (listed) add(concept.terms, listed, weight);
    if (lemma !== word) continue;
    // The forms names hold of the word typed in its base form ("bakery" -> bakeries, "roof" -> roofing);
    // never sideways from one form to another ("shipping" -> shipped, "watches" -> watched).
    for (const form of inflectionsOf(mirror, word)) {
      if (concept.terms.has(form) || form.endsWith("ed")) continue;
      add(concept.terms, form, form.endsWith("ing") ? ING_FORM_WEIGHT : INFLECTION_WEIGHT);
    }
  }
  if (!relatives) return;
  const known = mirror.words.has(word);
  // A listed word's meaning stands in for WordNet, which lacks the word or reads it in a sense nobody means ("ai": agency).
  const meaning = MEANINGS ? meaningWords(word) : [];
  const wordnetRelatives = meaning.length > 0 ? meaning.map((w) => ({ word: w, weight: RELATION_WEIGHT.synonym * (meaning.length > 1 ? MEANING_PART : 1), relation: "synonym" as const })) : relatedWords(word);
  if (wordnetRelatives.length > 0) {
    // WordNet knows the word: an encoder neighbour it does not relate is likelier a look-alike ("veterinary" -> labs).
    const related = new Set(wordnetRelatives.flatMap((r) => [r.word, `${r.word}s`]));
    for (const [term, weight] of concept.semantic) if (!related.has(term)) concept.semantic.set(term, weight * ENCODER_ONLY_FACTOR);
  }
  let taken = 0;
  for (const related of wordnetRelatives) {
    if (taken >= WORDNET_TERMS) break;
    const listed = inInventory(mirror, related.word);
    if (!listed || concept.terms.has(listed) || !isKnownWord(related.word) || !carriesMeaning(related.word)) continue;
    // A word of the definition confirms an encoder neighbour ("archery" -> arrow, not sword); alone it adds nothing.
    if (related.relation === "definition" && !concept.semantic.has(listed)) continue;
    const weight = known ? KNOWN_WORD_SEMANTIC_WEIGHT * related.weight : related.weight;
    const encoder = concept.semantic.get(listed);
    concept.semantic.set(listed, encoder === undefined ? weight : Math.min(SEMANTIC_WEIGHT, Math.max(encoder, weight) + AGREEMENT_BONUS));
    taken++;
  }
}

/**
 * The query's subject as one phrase, as a name would hold it: the words that
 * carry its meaning (real words, not the framing, not function words), each as
 * meant ("resturant" -> restaurant), in the order typed. Null when none does
 * (a brand, a slip, a framing word alone).
 */
export function subjectPhrase(concepts: Concept[]): string | null {
  const words = concepts
    .filter(
      (c) =>
        (c.importance ?? 1) > FRAMING_IMPORTANCE &&
        /^[a-z]{2,}$/.test(meant(c)) &&
        (isKnownWord(meant(c)) || inWordNet(meant(c)) || sense(c) !== meant(c)) &&
        carriesMeaning(meant(c)),
    )
    .map(sense);
  return words.length > 0 ? words.join(" ") : null;
}

/** A text's vector in the vocabulary's context (cached like the query words'), or null when the encoder failed. */
export async function embedInContext(text: string, embedder: Embedder = getEmbedder()): Promise<Float32Array | null> {
  return (await embedOrNothing([text], embedder)).get(text) ?? null;
}

/** embedWords, or no vectors when the encoder fails: search degrades to its keyword legs rather than failing (logged once). */
function embedOrNothing(texts: string[], embedder: Embedder): Promise<Map<string, Float32Array>> {
  return embedWords(texts, embedder).catch((error: unknown) => {
    if (!warned) logError("search: the encoder failed, semantic leg off", error);
    warned = true;
    return new Map<string, Float32Array>();
  });
}
