import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { domains } from "@/db/schema";
import { generateDomains, MAX_PRICE_CENTS, MIN_PRICE_CENTS, mulberry32, normal, pick, weighted, type GeneratedDomain, type Rng } from "@/db/seed-data";
import { newId } from "@/server/ids";
import { tokenizeLabel } from "@/server/services/inventory";
import { registerInventoryPhrases } from "@/server/search/phrases";
import { registerInventoryVocabulary } from "@/server/search/vocabulary";
import { loadScowlLexicon } from "./scowl";
import { drawWord, loadLexicon, type Lexicon, type WordList } from "./wordnet";

// The benchmark corpus: a synthetic aftermarket drawn from WordNet 3.1 (see
// bench/search/eval/CORPUS.md for the description a query writer works from).
//
// Words: single-word WordNet lemmas (nouns, adjectives, verbs; base form),
// lowercase a-z, 2-15 letters, no proper nouns WordNet never tagged, no offensive
// words (see wordnet.ts), drawn by frequency (index.sense tag counts, weight
// (min(tags,150)+0.25)^0.9, less for long words) so common words are frequent and
// the long tail still appears: about 25k distinct lemmas at 100k names. Nouns in
// compounds are sometimes plural, only with a plain -s/-es ending. Strata (drawn
// per name, so the corpus of size n is the first n names of any larger one):
//   single 15%     one word, bare or with an affix (getX, myX, Xhub, Xhq, Xly ...)
//   two-word 35%   adjective+noun, noun+noun, verb+noun, run together
//   three-word 10% three words run together (adj+noun+noun, adj+adj+noun, verb+adj+noun, ...)
//   brandable 12%  pronounceable non-words built from syllables (zorvia), some with a word (zorvialabs)
//   digits 6%      words with numbers (24, 360, 365, 4u, 2go)
//   hyphenated 12% two or three words joined with hyphens
//   demo 10%       the old demo generator (db/seed-data.ts generateDomains), one minor stratum
// TLDs: com 45%, net 8, io 7, org 6, co 6, ai 6, xyz 4, app 4, dev 3, tech 3, shop 3,
// store 2, online 2 (demo stratum: the demo generator's own mix). Prices: lognormal,
// .com dearest, short and common-word names dearer. No name twice.
//
// A domain's `tokens` are its truth words: the words it was built from, space
// separated; a brandable non-word is one token; a number is its own token
// ("pizza4u" -> "pizza 4 u"); an affix is a token ("gethelp" -> "get help").
// The database gets tokens computed by the ingest segmentation from the label
// alone, as a real listing would.

export const CORPUS_SEED = 424242;

/**
 * The corpus's vocabulary: "wordnet" (the corpus above, the default) or "scowl" (scowl.ts:
 * a word list the engine never reads, with inflected forms and no parts of speech; the demo
 * stratum's share goes to two-word names, since its word tables are not independent of the
 * project). BENCH_VOCAB picks it for every bench script.
 */
export type CorpusVocabulary = "wordnet" | "scowl";
export function corpusVocabulary(value = process.env.BENCH_VOCAB): CorpusVocabulary {
  if (value === undefined || value === "" || value === "wordnet") return "wordnet";
  if (value === "scowl") return "scowl";
  throw new Error(`BENCH_VOCAB must be wordnet or scowl, not "${value}"`);
}

export type CorpusStratum = "single" | "two-word" | "three-word" | "brandable" | "digits" | "hyphenated" | "demo";
export const STRATUM_SHARES: Record<CorpusStratum, number> = {
  single: 0.15, "two-word": 0.35, "three-word": 0.1, brandable: 0.12, digits: 0.06, hyphenated: 0.12, demo: 0.1,
};

/** TLD weight (percent) and price factor. */
export const CORPUS_TLDS: Record<string, { weight: number; priceFactor: number }> = {
  com: { weight: 45, priceFactor: 1.8 },
  net: { weight: 8, priceFactor: 0.7 },
  io: { weight: 7, priceFactor: 1.1 },
  org: { weight: 6, priceFactor: 0.7 },
  co: { weight: 6, priceFactor: 0.8 },
  ai: { weight: 6, priceFactor: 1.3 },
  xyz: { weight: 4, priceFactor: 0.3 },
  app: { weight: 4, priceFactor: 0.7 },
  dev: { weight: 3, priceFactor: 0.6 },
  tech: { weight: 3, priceFactor: 0.45 },
  shop: { weight: 3, priceFactor: 0.5 },
  store: { weight: 2, priceFactor: 0.45 },
  online: { weight: 2, priceFactor: 0.35 },
};
const tldEntries = Object.entries(CORPUS_TLDS).map(([t, v]) => [t, v.weight] as const);

/** Affixes: prefixes and suffixes that are words (own token), and letter endings glued on (own token too). */
export const PREFIXES = ["get", "my", "go", "the", "try", "use", "join", "hey", "your", "meet", "just", "all", "one", "best", "top"] as const;
export const SUFFIXES = ["hub", "hq", "app", "now", "online", "pro", "zone", "lab", "labs", "shop", "store", "co", "base", "box", "spot", "world", "direct", "works", "group", "central"] as const;
export const ENDINGS = ["ly", "ify", "ster", "io"] as const;
const DIGIT_TAILS: readonly (readonly [string, string[]])[] = [
  ["24", ["24"]], ["247", ["247"]], ["365", ["365"]], ["360", ["360"]], ["1", ["1"]], ["101", ["101"]], ["123", ["123"]],
  ["2020", ["2020"]], ["99", ["99"]], ["7", ["7"]], ["4u", ["4", "u"]], ["2go", ["2", "go"]], ["4all", ["4", "all"]], ["4me", ["4", "me"]],
];
const DIGIT_HEADS: readonly (readonly [string, string[]])[] = [["1", ["1"]], ["24", ["24"]], ["360", ["360"]], ["4", ["4"]], ["123", ["123"]], ["3d", ["3", "d"]]];

const ONSETS = ["b", "c", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "cr", "dr", "fl", "gr", "pr", "st", "tr", "qu", "sh", "ch", "th", "x", "j", "h", "w", "y", "bl", "cl", "pl", "sk", "sp", "vr", "zy"];
const VOWELS = ["a", "e", "i", "o", "u", "a", "e", "i", "o", "a", "o", "ai", "ea", "y"];
const CODAS = ["", "", "", "", "n", "r", "l", "x", "s", "m", "v", "k"];
const BRAND_ENDINGS = ["a", "ia", "o", "io", "ora", "ex", "on", "us", "ix", "ify", "ly", "eo", "ara", "ino", "era", "um", "iva", "ova", "ent", "is", "", ""];
const BRAND_WORDS = ["labs", "hq", "app", "ai", "tech", "hub", "studio", "health", "pay", "cloud", "works", "home", "group", "data"];

interface Built {
  words: string[];
  label: string;
  premium: number;
}

/** Plain -s/-es plurals only (never -ies or irregular), so "a word with s/es added or removed" always links the two. */
function plural(noun: string): string | null {
  if (/[^aeiou]y$/.test(noun) || /[^s]s$/.test(noun)) return null;
  return /(?:ss|x|z|ch|sh)$/.test(noun) ? `${noun}es` : `${noun}s`;
}

/** `pluralize`: add -s/-es to some nouns (WordNet lemmas are base forms; SCOWL already lists plurals as words). */
function makeBuilders(lex: Lexicon, rng: Rng, pluralize: boolean) {
  const noun = () => drawWord(rng, lex.noun);
  const adj = () => drawWord(rng, lex.adj);
  const verb = () => drawWord(rng, lex.verb);
  const maybePlural = (w: string, p: number) => (pluralize && rng() < p ? plural(w) ?? w : w);
  const tagsOf = (w: string) => Math.max(lexTag(lex.noun, w), lexTag(lex.adj, w), lexTag(lex.verb, w));
  const commonness = (ws: string[]) => 1 + 0.25 * Math.log10(1 + Math.min(...ws.map(tagsOf)));
  const twoWords = (): string[] => {
    switch (weighted(rng, [["an", 40], ["nn", 40], ["vn", 20]] as const)) {
      case "an": return [adj(), maybePlural(noun(), 0.1)];
      case "nn": return [noun(), maybePlural(noun(), 0.1)];
      case "vn": return [verb(), maybePlural(noun(), 0.15)];
    }
  };
  const threeWords = (): string[] => {
    switch (weighted(rng, [["ann", 35], ["aan", 15], ["van", 15], ["nnn", 15], ["ans", 20]] as const)) {
      case "ann": return [adj(), noun(), maybePlural(noun(), 0.1)];
      case "aan": return [adj(), adj(), maybePlural(noun(), 0.1)];
      case "van": return [verb(), adj(), maybePlural(noun(), 0.1)];
      case "nnn": return [noun(), noun(), maybePlural(noun(), 0.1)];
      case "ans": return [adj(), noun(), pick(rng, SUFFIXES)];
    }
  };
  const brand = (): string => {
    for (;;) {
      const syllables = 1 + Math.floor(rng() * 2) + (rng() < 0.2 ? 1 : 0);
      let s = "";
      for (let i = 0; i < syllables; i++) s += pick(rng, ONSETS) + pick(rng, VOWELS) + (i < syllables - 1 ? pick(rng, CODAS) : "");
      s += pick(rng, BRAND_ENDINGS);
      if (s.length < 4 || s.length > 10 || /[^aeiouy]{3}|[aeiouy]{3}|ii|uu|aa|yy|iy|yi|uo|ui|ao|oa|ae|[^aeiouy]y[^aeiouy]/.test(s) || /([a-z])\1\1/.test(s) || lex.anyWord.has(s)) continue;
      return s;
    }
  };
  const build = (stratum: Exclude<CorpusStratum, "demo">): Built => {
    switch (stratum) {
      case "single": {
        const w = weighted(rng, [[noun, 70], [adj, 20], [verb, 10]] as const)();
        const form = weighted(rng, [["bare", 35], ["prefix", 30], ["suffix", 27], ["ending", 8]] as const);
        if (form === "bare") return { words: [w], label: w, premium: 4 * commonness([w]) };
        if (form === "prefix") { const p = pick(rng, PREFIXES); return { words: [p, w], label: p + w, premium: 1.3 * commonness([w]) }; }
        if (form === "suffix") { const x = pick(rng, SUFFIXES); return { words: [w, x], label: w + x, premium: 1.2 * commonness([w]) }; }
        const e = pick(rng, ENDINGS);
        return { words: [w, e], label: w + e, premium: 1.1 * commonness([w]) };
      }
      case "two-word": { const ws = twoWords(); return { words: ws, label: ws.join(""), premium: commonness(ws) }; }
      case "three-word": { const ws = threeWords(); return { words: ws, label: ws.join(""), premium: 0.6 * commonness(ws) }; }
      case "hyphenated": { const ws = rng() < 0.8 ? twoWords() : threeWords(); return { words: ws, label: ws.join("-"), premium: 0.4 * commonness(ws) }; }
      case "brandable": {
        const b = brand();
        if (rng() < 0.7) return { words: [b], label: b, premium: 1.5 };
        const w = pick(rng, BRAND_WORDS);
        return { words: [b, w], label: b + w, premium: 1 };
      }
      case "digits": {
        const form = weighted(rng, [["word", 50], ["pair", 35], ["head", 15]] as const);
        if (form === "head") {
          const [d, dt] = pick(rng, DIGIT_HEADS);
          const w = noun();
          return { words: [...dt, w], label: d + w, premium: 0.5 };
        }
        const ws = form === "word" ? [weighted(rng, [[noun, 75], [adj, 10], [verb, 15]] as const)()] : twoWords();
        const [d, dt] = pick(rng, DIGIT_TAILS);
        return { words: [...ws, ...dt], label: ws.join("") + d, premium: 0.5 * commonness(ws) };
      }
    }
  };
  return build;
}

function lexTag(list: WordList, w: string): number {
  let lo = 0;
  let hi = list.words.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const m = list.words[mid]!;
    if (m === w) return list.tags[mid]!;
    if (m < w) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

/** Lognormal around ~$1,200, scaled by the stratum's premium, TLD and length; shop-like rounding. */
function priceFor(rng: Rng, premium: number, label: string, tld: string): number {
  let dollars = Math.exp(Math.log(1200) + 1.3 * normal(rng)) * premium;
  dollars *= CORPUS_TLDS[tld]?.priceFactor ?? 0.5;
  const len = label.replace(/-/g, "").length;
  dollars *= len <= 4 ? 5 : len <= 6 ? 2.5 : len <= 9 ? 1.4 : len <= 14 ? 1 : 0.6;
  const clamped = Math.min(Math.max(dollars, MIN_PRICE_CENTS / 100), MAX_PRICE_CENTS / 100);
  const rounded =
    clamped < 1000 ? Math.max(99, Math.round(clamped / 10) * 10 - 1)
      : clamped < 10_000 ? Math.round(clamped / 50) * 50
        : Math.round(clamped / 500) * 500;
  return Math.min(rounded, MAX_PRICE_CENTS / 100) * 100;
}

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * `size` distinct names, deterministic for the seed. Strata are drawn per name
 * (shares as STRATUM_SHARES), so the corpus of size n is the first n names of
 * any larger one: a query aimed at a name of the 100k corpus finds it at 1M too.
 */
export function generateCorpus(size: number, seed = CORPUS_SEED, vocabulary = corpusVocabulary()): GeneratedDomain[] {
  const lex = vocabulary === "scowl" ? loadScowlLexicon() : loadLexicon();
  const rng = mulberry32(seed);
  // The demo stream is a prefix-stable list too; names another stratum took first are skipped.
  const demo = generateDomains(seed ^ 0x5eed, Math.ceil(size * STRATUM_SHARES.demo * 1.3) + 100);
  let nextDemo = 0;
  const seen = new Set<string>();
  const build = makeBuilders(lex, rng, vocabulary === "wordnet");
  const shares = (Object.entries(STRATUM_SHARES) as [CorpusStratum, number][]).map(([stratum, share]): [CorpusStratum, number] =>
    vocabulary === "scowl" && stratum === "demo" ? ["demo", 0] : vocabulary === "scowl" && stratum === "two-word" ? [stratum, share + STRATUM_SHARES.demo] : [stratum, share]).filter(([, share]) => share > 0);
  const out: GeneratedDomain[] = [];
  for (let attempts = 0; out.length < size; attempts++) {
    if (attempts > size * 50 + 1000) throw new Error(`could not generate ${size} distinct names`);
    // Stratum and TLD are drawn once per name and kept through retries, so a
    // crowded stratum (bare words) or TLD (.com) keeps its share at any size.
    const stratum = weighted(rng, shares);
    if (stratum === "demo") {
      let d = demo[nextDemo++];
      while (d && seen.has(d.name)) d = demo[nextDemo++];
      if (!d) throw new Error("demo stream exhausted");
      seen.add(d.name);
      out.push({ ...d, vertical: "demo" });
      continue;
    }
    const tld = weighted(rng, tldEntries);
    let built: Built | null = null;
    for (let tries = 0; tries < 100 && !built; tries++) {
      const b = build(stratum);
      if (b.label.length <= 30 && LABEL.test(b.label) && new Set(b.words).size === b.words.length && !seen.has(`${b.label}.${tld}`)) built = b;
    }
    if (!built) continue;
    const { words, label, premium } = built;
    const name = `${label}.${tld}`;
    seen.add(name);
    const priceCents = priceFor(rng, premium, label, tld);
    out.push({
      name,
      label,
      tld,
      tokens: words.join(" "),
      vertical: stratum,
      priceCents,
      floorPriceCents: Math.floor((priceCents * (0.5 + 0.4 * rng())) / 100) * 100,
      description: `${words.join(" ")} (.${tld})`,
      registeredYear: 2024 - Math.min(28, Math.floor(Math.abs(normal(rng)) * 8 + (label.length <= 6 ? 10 : 0))),
    });
  }
  return out;
}

/** Counts for the corpus description: strata, TLDs, distinct truth words. */
export function summarizeCorpus(corpus: GeneratedDomain[]) {
  const strata: Record<string, number> = {};
  const tlds: Record<string, number> = {};
  const words = new Map<string, number>();
  for (const d of corpus) {
    strata[d.vertical] = (strata[d.vertical] ?? 0) + 1;
    tlds[d.tld] = (tlds[d.tld] ?? 0) + 1;
    for (const w of d.tokens.split(" ")) words.set(w, (words.get(w) ?? 0) + 1);
  }
  return { size: corpus.length, strata, tlds, distinctWords: words.size, words };
}

export interface BuildStats {
  loadMs: number;
  vocabularyMs: number;
  vocabularyWords: number;
  /** Labels embedded as phrases (server/search/phrases.ts) and the time it took. */
  phrasesMs: number;
  phrases: number;
  analyzeMs: number;
  tableBytes: number;
  indexBytes: number;
  postingsBytes: number;
  vocabularyBytes: number;
  phrasesBytes: number;
}

/** Loads the corpus into an empty `domains` (sandbox), registers the vocabulary, analyzes. */
export async function loadCorpus(db: Database, corpus: GeneratedDomain[]): Promise<BuildStats> {
  const t0 = performance.now();
  const now = new Date();
  for (let i = 0; i < corpus.length; i += 2000) {
    await db.insert(domains).values(
      corpus.slice(i, i + 2000).map((d) => ({
        id: newId("domain", now.getTime()),
        environment: "sandbox" as const,
        name: d.name,
        label: d.label,
        tld: d.tld,
        priceCents: d.priceCents,
        floorPriceCents: d.floorPriceCents,
        vertical: d.vertical,
        tokens: tokenizeLabel(d.label),
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  const t1 = performance.now();
  const vocabularyWords = await registerInventoryVocabulary(db);
  const t2 = performance.now();
  const phrases = await registerInventoryPhrases(db);
  const phrasesMs = performance.now() - t2;
  await db.execute(sql`vacuum analyze domains`);
  await db.execute(sql`analyze search_vocabulary`);
  await db.execute(sql`vacuum analyze domain_terms`);
  const t3 = performance.now();
  return { loadMs: t1 - t0, vocabularyMs: t2 - t1, vocabularyWords, phrasesMs, phrases, analyzeMs: t3 - t2 - phrasesMs, ...(await sizes(db)) };
}

async function sizes(db: Database) {
  const [row] = await db.execute<{ t: string; i: string; p: string; v: string; ph: string }>(
    sql`select pg_table_size('domains') as t, pg_indexes_size('domains') as i,
      pg_total_relation_size('domain_terms') as p, pg_total_relation_size('search_vocabulary') as v,
      pg_total_relation_size('search_phrases') as ph`,
  );
  return { tableBytes: Number(row?.t), indexBytes: Number(row?.i), postingsBytes: Number(row?.p), vocabularyBytes: Number(row?.v), phrasesBytes: Number(row?.ph) };
}

/** A kept database measured again (BENCH_REUSE): words new to this model embedded, nothing reloaded. */
export async function describeCorpus(db: Database): Promise<BuildStats> {
  const t0 = performance.now();
  const vocabularyWords = await registerInventoryVocabulary(db);
  const t1 = performance.now();
  const phrases = await registerInventoryPhrases(db);
  const t2 = performance.now();
  // As a full load ends (a kept database whose load was stopped before that has no statistics,
  // and its first query ran into the statement timeout at 1M).
  await db.execute(sql`vacuum analyze domains`);
  await db.execute(sql`analyze search_vocabulary`);
  await db.execute(sql`vacuum analyze domain_terms`);
  return { loadMs: 0, vocabularyMs: t1 - t0, vocabularyWords, phrasesMs: t2 - t1, phrases, analyzeMs: 0, ...(await sizes(db)) };
}
