import { embedWordsInContext, getEmbedder, vectorModel, type Embedder } from "./embedder";
import { isKnownWord, normalizeText, segmentWord, wordCost } from "./text";
import { correctWord, editDistance, nearestWords, wordsWithPrefix, type getVocabulary } from "./vocabulary";
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
/** Partial-word matches looked up per query word (the typed word as a prefix). */
const PREFIXED_WORDS = 4;
const SAFE_TERM = /^[\p{L}\p{N}]{1,63}$/u;

const queryVectors = new Map<string, Float32Array>();
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
 * Segments an unknown query word, unless real words would cover under half of
 * its letters: "zqixnywdgo" is a brand or noise, not "go" with a prefix, and
 * matching it on "go" would answer nonsense with unrelated names.
 */
function segmentQueryWord(mirror: Mirror, word: string): string[] {
  const pieces = segmentWord(word);
  const known = pieces.filter((p) => p.length >= 2 && (isKnownWord(p) || mirror.words.has(p))).join("").length;
  return known * 2 >= word.length ? pieces : [word];
}

function add(terms: Map<string, number>, term: string, weight: number) {
  if (!SAFE_TERM.test(term)) return;
  terms.set(term, Math.max(terms.get(term) ?? 0, weight));
}

/** Concepts of the query words; `words` are parseSearchQuery's (already split, stop words dropped). */
export async function analyzeWords(mirror: Mirror, words: string[], embedder: Embedder = getEmbedder()): Promise<Concept[]> {
  // A word of the vocabulary stays whole; a misspelt one is corrected; only an
  // unknown, uncorrectable run is segmented ("bestpizza" -> best pizza).
  const concepts: Concept[] = [];
  const seen = new Set<string>();
  const push = (word: string, corrected: string | null, slip: string | null = null) => {
    if (seen.has(word)) return;
    seen.add(word);
    const terms = new Map<string, number>();
    add(terms, word, 1);
    if (corrected) add(terms, corrected, CORRECTION_WEIGHT);
    if (word.length >= 4 && word.endsWith("s")) add(terms, word.slice(0, -1), INFLECTION_WEIGHT);
    else if (word.length >= 3) add(terms, `${word}s`, INFLECTION_WEIGHT);
    const prefixed = word.length >= 3 ? wordsWithPrefix(mirror, word, PREFIXED_WORDS).filter((w) => !terms.has(w)) : [];
    if (slip) add(terms, slip, REAL_WORD_SLIP_WEIGHT);
    concepts.push({ word, terms, semantic: new Map(), corrected, prefixed });
  };
  for (const word of words.map(normalizeText)) {
    if (mirror.words.has(word)) {
      push(word, null);
      continue;
    }
    if (isKnownWord(word)) {
      // A real word no name holds may still be a slip for one that does ("sore" for
      // store): that word joins at a low weight, below the word's own meanings.
      const slip = correctWord(mirror, word);
      push(word, null, slip && isKnownWord(slip) ? slip : null);
      continue;
    }
    // A one-letter slip is corrected; a run that splits wholly into real words
    // ("defispot") is split rather than stretched two edits to another word (despot).
    let corrected = correctWord(mirror, word);
    const split = segmentQueryWord(mirror, word);
    const wholly = split.length > 1 && split.every((p) => p.length >= 2 && (isKnownWord(p) || mirror.words.has(p)));
    if (corrected && wholly && editDistance(word, corrected, 1) > 1) corrected = null;
    const pieces = corrected ? [word] : split;
    for (const piece of pieces) push(piece, pieces.length === 1 ? corrected : null);
  }
  // Meaning only for real words: a brand or a typo has no meaning to expand, and
  // expanding gibberish would turn nonsense queries into results.
  const meaningful = concepts.filter(
    (c) => /^[a-z]{2,}$/.test(c.word) && (isKnownWord(c.word) || mirror.words.has(c.word)) && carriesMeaning(c.word),
  );
  if (meaningful.length > 0 && mirror.words.size > 0) {
    const vectors = await embedWords(meaningful.map((c) => c.word), embedder).catch((error: unknown) => {
      // Search degrades to its keyword legs rather than failing when the encoder cannot load.
      if (!warned) logError("search: the encoder failed, semantic leg off", error);
      warned = true;
      return new Map<string, Float32Array>();
    });
    for (const concept of meaningful) {
      const vector = vectors.get(concept.word);
      if (!vector) continue;
      const known = mirror.words.has(concept.word);
      const minZ = known ? KNOWN_WORD_MIN_Z : SEMANTIC_MIN_Z;
      const neighbours = nearestWords(mirror, vector, SEMANTIC_NEIGHBOURS, minZ, concept.word, carriesMeaning);
      const topZ = neighbours[0]?.z ?? 0;
      for (const { word, z } of neighbours) {
        if (concept.terms.has(word)) continue;
        const closeness = Math.max(SEMANTIC_MIN_WEIGHT, SEMANTIC_WEIGHT - SEMANTIC_Z_STEP * (topZ - z));
        // A word of the inventory is mostly wanted as itself: its neighbours only fill in.
        const weight = known ? KNOWN_WORD_SEMANTIC_WEIGHT * closeness : closeness;
        concept.semantic.set(word, weight);
        add(concept.terms, word, weight);
      }
    }
  }
  return concepts;
}
