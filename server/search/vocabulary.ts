import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { advisoryLocks } from "@/db/locks";
import { searchVocabulary } from "@/db/schema";
import { embedWordsInContext, getEmbedder, vectorModel, type Embedder } from "./embedder";
import { fromBytes, mirrorPerPool, toBytes } from "./mirror";
import { commonWordsOfLength, isKnownWord, wordCost } from "./text";
import { baseForms } from "./wordnet";
import { tune } from "./tune";

// The vocabulary of the inventory, embedded one word at a time at ingest, and
// its in-process mirror for the query path (spelling correction and semantic
// expansion need every word at hand). The mirror catches up on each query with
// one indexed read of the rows added since (usually none), so a word listed a
// moment ago is already known.
//
// Catch-up reads ids above the highest it has seen, which is safe only if no
// smaller id can still commit after a larger one is visible. Ids come from a
// sequence when a row is written, so two writers could commit out of order (a
// slow transaction's word, lower id, committed after a faster one's was read:
// missed for ever). Writers therefore take one transaction-scoped advisory lock
// before they write (writeVocabulary): the next writer takes its ids only after
// the previous one committed, so ids become visible in order. Writes are rare
// (ingest); readers never wait.

const EMBED_BATCH = 256;


/**
 * Adds the words not yet in the vocabulary, each embedded once; a word stored
 * under another model or phrasing is embedded again. Safe to call with known words.
 */
export async function registerVocabulary(db: Db, words: Iterable<string>, embedder: Embedder = getEmbedder()): Promise<number> {
  const model = vectorModel(embedder);
  const distinct = [...new Set(words)].filter((w) => w.length > 0 && w.length <= 63);
  if (distinct.length === 0) return 0;
  const known = new Set<string>();
  for (let i = 0; i < distinct.length; i += 5000) {
    const rows = await db
      .select({ word: searchVocabulary.word })
      .from(searchVocabulary)
      .where(and(inArray(searchVocabulary.word, distinct.slice(i, i + 5000)), eq(searchVocabulary.model, model)));
    for (const r of rows) known.add(r.word);
  }
  const missing = distinct.filter((w) => !known.has(w)).sort();
  for (let i = 0; i < missing.length; i += EMBED_BATCH) {
    const batch = missing.slice(i, i + EMBED_BATCH);
    const vectors = await embedWordsInContext(embedder, batch);
    await writeVocabulary(db, batch.map((word, j) => ({ word, model, vector: toBytes(vectors[j] as Float32Array) })));
  }
  return missing.length;
}

/**
 * Writes embedded words under the vocabulary lock (see the top of this file), in
 * a transaction of its own or a savepoint of the caller's, whose commit releases it.
 */
export async function writeVocabulary(db: Db, rows: { word: string; model: string; vector: Buffer }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${advisoryLocks.vocabulary})`);
    await tx
      .insert(searchVocabulary)
      .values(rows)
      .onConflictDoUpdate({
        target: searchVocabulary.word,
        // A new id, so every process's mirror (which reads ids above its last) sees the new vector.
        set: { model: sql`excluded.model`, vector: sql`excluded.vector`, id: sql`nextval(pg_get_serial_sequence('search_vocabulary', 'id'))` },
      });
  });
}

/** Registers every word of the listed inventory not yet embedded under the current model (after a bulk load, at start). */
export async function registerInventoryVocabulary(db: Db, embedder: Embedder = getEmbedder()): Promise<number> {
  const rows = await db.execute<{ word: string }>(
    sql`select distinct t.term as word from domain_terms t
      where not exists (select 1 from search_vocabulary v where v.word = t.term and v.model = ${vectorModel(embedder)})`,
  );
  return registerVocabulary(db, rows.map((r) => r.word), embedder);
}

export interface VocabularyEntry {
  word: string;
  vector: Float32Array | null;
}

interface Mirror {
  lastId: number;
  model: string;
  words: Map<string, VocabularyEntry>;
  /** Words bucketed by length, for edit-distance lookups. */
  byLength: Map<number, string[]>;
  /** Every word in code-point order, for prefix lookups; rebuilt after new words arrive. */
  sorted: string[] | null;
  /** Base form -> the vocabulary's inflections of it ("bakery" -> bakeries, "bake" -> baked, baking). */
  inflections: Map<string, string[]>;
  /** Words arrived since `inflections` was last brought up to date (it is, lazily, on the next lookup). */
  uninflected: string[];
  /**
   * The vectors as one matrix (matrixOf), built on first use; on the mirror, not in a map of
   * this module, so every route bundle and the start-up load (warm.ts) share it.
   */
  matrix?: VectorMatrix;
}

const emptyMirror = (model: string): Mirror => ({ lastId: 0, model, words: new Map(), byLength: new Map(), sorted: null, inflections: new Map(), uninflected: [] });

function addWord(mirror: Mirror, entry: VocabularyEntry): void {
  if (!mirror.words.has(entry.word)) {
    const bucket = mirror.byLength.get(entry.word.length) ?? [];
    bucket.push(entry.word);
    mirror.byLength.set(entry.word.length, bucket);
    mirror.uninflected.push(entry.word);
    mirror.sorted = null;
  }
  mirror.words.set(entry.word, entry);
}

/**
 * The vocabulary's inflected forms of a base form, through WordNet's base-form
 * rules run on each vocabulary word once ("bakeries" -> bakery, "baking" -> bake):
 * names hold words as people write them, plural or in -ed/-ing forms, while a
 * query names the thing. Agent nouns are not inflections ("baker" is not "bake").
 */
export function inflectionsOf(mirror: Mirror, base: string): readonly string[] {
  if (mirror.uninflected.length > 0) {
    for (const word of mirror.uninflected) {
      for (const { lemma, agent } of baseForms(word)) {
        if (agent || lemma === word) continue;
        const forms = mirror.inflections.get(lemma);
        if (forms) forms.push(word);
        else mirror.inflections.set(lemma, [word]);
      }
    }
    mirror.uninflected = [];
  }
  return mirror.inflections.get(base) ?? [];
}

/**
 * New rows are read this many at a time: at a million names the vocabulary is
 * about 150k words (300 MB of vectors), which one statement could not read
 * within the statement timeout on a busy server.
 */
let CATCH_UP_PAGE = 10_000;
/** Tests read in small pages to see the paging at work. */
export function setCatchUpPageForTests(rows: number): void {
  CATCH_UP_PAGE = rows;
}
const readVocabulary = mirrorPerPool("vocabulary", emptyMirror, catchUp);

/** The vocabulary as of now (the new rows read in id order, in pages). Keyed by the pool so test databases don't mix. */
export function getVocabulary(db: Db, embedder: Embedder = getEmbedder()): Promise<Mirror> {
  return readVocabulary(db, vectorModel(embedder));
}

async function catchUp(db: Db, mirror: Mirror): Promise<void> {
  for (;;) {
    const rows = await db
      .select({ id: searchVocabulary.id, word: searchVocabulary.word, model: searchVocabulary.model, vector: searchVocabulary.vector })
      .from(searchVocabulary)
      .where(gt(searchVocabulary.id, mirror.lastId))
      .orderBy(searchVocabulary.id)
      .limit(CATCH_UP_PAGE);
    for (const row of rows) {
      mirror.lastId = Math.max(mirror.lastId, row.id);
      // An out-of-lexicon token (a brand, "zqxkw") has no meaning to compare: the
      // encoder maps such strings close to each other, which would make them hubs.
      const meaningful = row.model === mirror.model && isKnownWord(row.word);
      addWord(mirror, { word: row.word, vector: meaningful ? fromBytes(row.vector) : null });
    }
    if (rows.length < CATCH_UP_PAGE) return;
  }
}

/** Rows of the distance table, reused between calls (the correction scan makes tens of thousands). */
let rowA = new Int32Array(64);
let rowB = new Int32Array(64);
let rowC = new Int32Array(64);

/** Damerau-Levenshtein (optimal string alignment) distance capped at `max` (returns max + 1 beyond it). */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rowA.length <= n) [rowA, rowB, rowC] = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  // two rows up, one row up, this row
  let [twoUp, up, row] = [rowA, rowB, rowC];
  for (let j = 0; j <= n; j++) up[j] = j;
  for (let i = 1; i <= a.length; i++) {
    row[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let v = Math.min(up[j]! + 1, row[j - 1]! + 1, up[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj) v = Math.min(v, twoUp[j - 2]! + 1);
      row[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    [twoUp, up, row] = [up, row, twoUp];
  }
  return up[n]!;
}

/** Letter counts of a word (a-z), for the cheap bound before the distance table. */
function letterCounts(word: string, into: Int32Array): Int32Array {
  into.fill(0);
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i) - 97;
    if (c >= 0 && c < 26) into[c]!++;
  }
  return into;
}
const candidateCounts = new Int32Array(26);

/**
 * How far apart the letters of `candidate` and of the word whose letter counts
 * are `counts` are, ignoring order: each edit changes the counts by at most 2 in
 * total (a substitution), so above 2 * max edits rules a candidate out before
 * the distance table; a transposition changes nothing, a dropped letter 1.
 */
function letterDifference(counts: Int32Array, candidate: string): number {
  let diff = 0;
  const seen = letterCounts(candidate, candidateCounts);
  for (let c = 0; c < 26; c++) diff += Math.abs(seen[c]! - counts[c]!);
  return diff;
}

/**
 * From this many letters, a word with exactly the letters typed, two edits away,
 * is a slip too: letters swapped over a distance ("bycicle" -> bicycle), which a
 * one-edit limit misses. It ranks behind every one-edit candidate.
 */
const SWAPPED_MIN = 5;

/**
 * What a misspelt word most likely meant: the closest word of the vocabulary or
 * of the frequency list (used often enough: see commonWordsOfLength), within
 * distance 1 from 4 letters and 2 from 8 (and the very letters typed two edits
 * away from SWAPPED_MIN). A changed first letter counts half an edit more (people
 * rarely miss the first letter: "acounting" is accounting, not counting; the
 * common words looked at are those with the typed first letter); ties go to the
 * word nearer the letters typed ("resturaunt": restaurant, not restraint; a
 * transposition before a letter dropped or added, before a wrong letter), then
 * to one that puts a dropped letter back (see RESTORE_LETTER), then to a word some name holds, then to the commoner. Up to two answers when the
 * best two are equally close both ways ("photograpy": photograph, photography),
 * best first; none for a known word. A dropped leading e is the e- prefix ("esports" is sports).
 */
export function correctWords(mirror: Mirror, word: string, { common = true }: { common?: boolean } = {}): string[] {
  if (word.length < 4 || mirror.words.has(word)) return [];
  const max = word.length >= 8 ? 2 : 1;
  const swapped = word.length >= SWAPPED_MIN ? 2 : max;
  const found: { word: string; distance: number; letters: number; restores: boolean; listed: boolean; cost: number }[] = [];
  const counts = letterCounts(word, new Int32Array(26));
  const consider = (candidate: string, listed: boolean) => {
    const letters = letterDifference(counts, candidate);
    const allowed = letters === 0 ? swapped : max;
    if (letters > 2 * allowed) return;
    const d = editDistance(word, candidate, allowed);
    if (d > allowed) return;
    // The e- prefix ("esports", "elearning", "ewaste") is the word after it, ahead of any other one-edit word ("escorts").
    const ePrefix = E_PREFIX && word[0] === "e" && candidate === word.slice(1);
    const restores = RESTORE_LETTER && d === 1 && candidate.length === word.length + 1;
    found.push({ word: candidate, distance: ePrefix ? 0.5 : d + (candidate[0] === word[0] ? 0 : 0.5), letters, restores, listed, cost: wordCost(candidate) ?? 99 });
  };
  for (let len = word.length - max; len <= word.length + max; len++) {
    for (const candidate of mirror.byLength.get(len) ?? []) consider(candidate, true);
    // A short word looks among the common words only for the letter it dropped ("sking": skiing).
    const amongCommon = word.length >= CORRECT_TO_COMMON_MIN || (RESTORE_LETTER && word.length >= RESTORE_MIN && len === word.length + 1);
    if (!common || !amongCommon) continue;
    for (const candidate of commonWordsOfLength(len, word[0] as string)) {
      if (!mirror.words.has(candidate)) consider(candidate, false);
    }
  }
  found.sort((a, b) => a.distance - b.distance || a.letters - b.letters || Number(b.restores) - Number(a.restores) || Number(b.listed) - Number(a.listed) || a.cost - b.cost);
  const [best, second] = found;
  if (!best) return [];
  return second && second.distance === best.distance && second.letters === best.letters && second.restores === best.restores && second.word !== best.word ? [best.word, second.word] : [best.word];
}

/**
 * A letter left out is the commonest slip: among words equally near, the one that puts a typed word's
 * missing letter back ("sking": skiing, not sing or skin; "alergy": allergy) comes first, and a word of
 * RESTORE_MIN letters looks for it among the common words too. TUNE_RESTORE_LETTER=0: the twentieth session's order.
 */
const RESTORE_LETTER = tune("RESTORE_LETTER", 1) === 1;
const RESTORE_MIN = 5;

/** TUNE_E_PREFIX=0: a dropped leading e is a changed first letter like any other (the benchmark's before). */
const E_PREFIX = tune("E_PREFIX", 1) === 1;

/** Words shorter than this are corrected to the vocabulary only: a short brand is too often one edit from some word. */
const CORRECT_TO_COMMON_MIN = 6;

/** The vocabulary word closest to a misspelt one (see correctWords; only words some name holds), or null. */
export function correctWord(mirror: Mirror, word: string): string | null {
  return correctWords(mirror, word, { common: false })[0] ?? null;
}

/** Up to `k` real words (not brand fragments) of the vocabulary that start with `prefix` and are longer, commonest first. */
export function wordsWithPrefix(mirror: Mirror, prefix: string, k: number): string[] {
  mirror.sorted ??= [...mirror.words.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sorted = mirror.sorted;
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as string) <= prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: string[] = [];
  for (let i = lo; i < sorted.length && (sorted[i] as string).startsWith(prefix); i++) {
    if (isKnownWord(sorted[i] as string)) out.push(sorted[i] as string);
  }
  return out.sort((a, b) => (wordCost(a) ?? 99) - (wordCost(b) ?? 99) || a.length - b.length).slice(0, k);
}

export interface Neighbour {
  word: string;
  similarity: number;
  /** How far above this query's typical similarity to the vocabulary, in standard deviations. */
  z: number;
}

/**
 * Nearest vocabulary words to a vector, best first, at least `minZ` standard
 * deviations above the mean similarity of the vector to the whole vocabulary.
 * A relative bar, because raw cosines of words in context sit high for every
 * pair (0.5 on average) and differ from word to word: "doctor" stands 4.9 sigma
 * above the rest for "physician", while nonsense's best match stands near 2.
 */
export function nearestWords(
  mirror: Mirror,
  vector: Float32Array,
  k: number,
  minZ: number,
  exclude: string,
  accept: (word: string) => boolean = () => true,
): Neighbour[] {
  return withMatrix(mirror, vector, (matrix) =>
    (matrix.words.length < SKETCH_FROM ? exactNeighbours : sketchedNeighbours)(matrix, vector, k, minZ, exclude, accept));
}

/** nearestWords by a scan of every vector: the reference the sketched search is measured against. */
export function nearestWordsExact(
  mirror: Mirror,
  vector: Float32Array,
  k: number,
  minZ: number,
  exclude: string,
  accept: (word: string) => boolean = () => true,
): Neighbour[] {
  return withMatrix(mirror, vector, (matrix) => exactNeighbours(matrix, vector, k, minZ, exclude, accept));
}

/** The search over the vocabulary's matrix, or nothing when the vector is of another model or the vocabulary has none. */
function withMatrix(mirror: Mirror, vector: Float32Array, search: (matrix: VectorMatrix) => Neighbour[]): Neighbour[] {
  const matrix = matrixOf(mirror);
  return vector.length !== matrix.dim || matrix.words.length === 0 ? [] : search(matrix);
}

/** Cosine of `vector` and row `row` of the matrix (4 accumulators: faster than one). */
function rowDot(data: Float32Array, dim: number, row: number, vector: Float32Array): number {
  const base = row * dim;
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let j = 0;
  for (; j + 3 < dim; j += 4) {
    s0 += (vector[j] as number) * (data[base + j] as number);
    s1 += (vector[j + 1] as number) * (data[base + j + 1] as number);
    s2 += (vector[j + 2] as number) * (data[base + j + 2] as number);
    s3 += (vector[j + 3] as number) * (data[base + j + 3] as number);
  }
  for (; j < dim; j++) s0 += (vector[j] as number) * (data[base + j] as number);
  return s0 + s1 + s2 + s3;
}

function exactNeighbours(
  { words, data, dim }: VectorMatrix,
  vector: Float32Array,
  k: number,
  minZ: number,
  exclude: string,
  accept: (word: string) => boolean,
): Neighbour[] {
  // One pass over the rows for the similarities and their mean and spread, a second for those above the bar.
  const sims = new Float32Array(words.length);
  let sum = 0;
  let squares = 0;
  let counted = 0;
  for (let row = 0; row < words.length; row++) {
    const similarity = rowDot(data, dim, row, vector);
    sims[row] = similarity;
    if (words[row] === exclude) continue;
    sum += similarity;
    squares += similarity * similarity;
    counted++;
  }
  if (counted < 2) return [];
  const mean = sum / counted;
  const sd = Math.sqrt(Math.max(squares / counted - mean * mean, 1e-9));
  const rows: number[] = [];
  for (let row = 0; row < words.length; row++) rows.push(row);
  return above(words, sims, rows, mean, sd, k, minZ, exclude, accept);
}

function above(
  words: string[],
  sims: Float32Array,
  rows: number[],
  mean: number,
  sd: number,
  k: number,
  minZ: number,
  exclude: string,
  accept: (word: string) => boolean,
): Neighbour[] {
  const bar = mean + minZ * sd;
  const out: Neighbour[] = [];
  for (const row of rows) {
    const similarity = sims[row] as number;
    const word = words[row] as string;
    if (similarity < bar || word === exclude || !accept(word)) continue;
    out.push({ word, similarity, z: (similarity - mean) / sd });
  }
  return out.sort((a, b) => b.similarity - a.similarity).slice(0, k);
}

/**
 * From this many words on, neighbours are searched through sign sketches: each
 * vector's signs about the vocabulary's mean as bits, compared by Hamming
 * distance (popcount of 16 words for 512 dimensions), then the CANDIDATES
 * closest rows scored exactly. The mean similarity is exact (the query times
 * the mean vector); the spread comes from a fixed sample of rows. Measured with
 * bench/search/nn-time.ts on the development words against a 23k-word
 * vocabulary: all 772 neighbours of the exact scan found, 5 ms a word instead
 * of 18 (100k random vectors: 10 ms instead of 80), on two busy cores.
 */
const SKETCH_FROM = 8_192;
const CANDIDATES = 1_024;
const SAMPLE = 1_024;
/**
 * From twice COARSE_KEEP words on, a first pass compares only the sketches'
 * first COARSE_WORDS words (128 of 512 bits) and keeps the COARSE_KEEP closest
 * rows for the whole comparison: most of the popcounts skipped. Measured with
 * bench/search/nn-time.ts against the exact scan in the same process (two busy
 * cores): 150k random vectors 0.090 -> 0.063 of the scan's time; the 30k-word
 * SCOWL development vocabulary 0.205 -> 0.180, the same 745 of 754 exact
 * neighbours found.
 */
const COARSE_WORDS = 4;
const COARSE_KEEP = 8_192;

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

function signSketch(vector: Float32Array, offset: number, mean: Float32Array, out: Int32Array, at: number, words: number): void {
  for (let w = 0; w < words; w++) out[at + w] = 0;
  for (let j = 0; j < mean.length; j++) {
    if ((vector[offset + j] as number) > (mean[j] as number)) out[at + (j >> 5)] = (out[at + (j >> 5)] as number) | (1 << (j & 31));
  }
}

function sketchedNeighbours(
  matrix: VectorMatrix,
  vector: Float32Array,
  k: number,
  minZ: number,
  exclude: string,
  accept: (word: string) => boolean,
): Neighbour[] {
  const { words, data, dim } = matrix;
  const { mean, sketches, sample, width } = sketchesOf(matrix);
  const n = words.length;
  const query = new Int32Array(width);
  signSketch(vector, 0, mean, query, 0, width);
  // A coarse pass over every row on the sketches' first COARSE_WORDS words keeps the COARSE_KEEP
  // closest; the whole sketch then ranks those. Each pass cuts by a histogram of distances, no sort.
  const coarseWords = n >= 2 * COARSE_KEEP ? Math.min(COARSE_WORDS, width) : width;
  const distance = new Uint16Array(n);
  const coarse = new Uint32Array(coarseWords * 32 + 1);
  for (let row = 0, at = 0; row < n; row++, at += width) {
    let h = 0;
    for (let w = 0; w < coarseWords; w++) h += popcount((query[w] as number) ^ (sketches[at + w] as number));
    distance[row] = h;
    coarse[h] = (coarse[h] as number) + 1;
  }
  const cut = (histogram: Uint32Array, keep: number) => {
    let limit = 0;
    for (let seen = 0; limit < histogram.length && seen < keep; limit++) seen += histogram[limit] as number;
    return limit;
  };
  const kept: number[] = [];
  const histogram = new Uint32Array(dim + 1);
  const coarseLimit = cut(coarse, coarseWords < width ? COARSE_KEEP : CANDIDATES);
  for (let row = 0; row < n; row++) {
    if ((distance[row] as number) >= coarseLimit) continue;
    let h = distance[row] as number;
    for (let w = coarseWords, at = row * width; w < width; w++) h += popcount((query[w] as number) ^ (sketches[at + w] as number));
    distance[row] = h;
    histogram[h] = (histogram[h] as number) + 1;
    kept.push(row);
  }
  const limit = cut(histogram, CANDIDATES);
  const sims = new Float32Array(n);
  const rows: number[] = [];
  for (const row of kept) {
    if ((distance[row] as number) >= limit) continue;
    sims[row] = rowDot(data, dim, row, vector);
    rows.push(row);
  }
  let meanSimilarity = 0;
  for (let j = 0; j < dim; j++) meanSimilarity += (vector[j] as number) * (mean[j] as number);
  // The spread about the sample's own mean: E[s^2] - mean^2 would cancel catastrophically (cosines sit near 0.5, spread near 0.05).
  const sampled = sample.map((row) => rowDot(data, dim, row, vector));
  const sampleMean = sampled.reduce((a, b) => a + b, 0) / sampled.length;
  const variance = sampled.reduce((a, b) => a + (b - sampleMean) * (b - sampleMean), 0) / Math.max(1, sampled.length - 1);
  const sd = Math.sqrt(Math.max(variance, 1e-9));
  return above(words, sims, rows, meanSimilarity, sd, k, minZ, exclude, accept);
}

interface Sketches {
  mean: Float32Array;
  sketches: Int32Array;
  sample: number[];
  width: number;
}
function sketchesOf(matrix: VectorMatrix): Sketches {
  if (matrix.sketches) return matrix.sketches;
  const { words, data, dim } = matrix;
  const n = words.length;
  const mean = new Float32Array(dim);
  for (let row = 0; row < n; row++) for (let j = 0; j < dim; j++) mean[j] = (mean[j] as number) + (data[row * dim + j] as number) / n;
  const width = Math.ceil(dim / 32);
  const sketches = new Int32Array(n * width);
  for (let row = 0; row < n; row++) signSketch(data, row * dim, mean, sketches, row * width, width);
  const step = Math.max(1, n / SAMPLE);
  const sample: number[] = [];
  for (let x = 0; x < n; x += step) sample.push(Math.floor(x));
  matrix.sketches = { mean, sketches, sample, width };
  return matrix.sketches;
}

/**
 * The mirror's vectors as one row-major matrix (a scan of contiguous memory is
 * several times faster than of a vector per word: 50k words of 512 floats in
 * tens of ms rather than over a hundred). Built on first use and again after the
 * vocabulary changed; each entry's vector then becomes a view of its row, so the
 * matrix costs no memory beyond the vectors themselves.
 */
interface VectorMatrix {
  version: string;
  words: string[];
  data: Float32Array;
  dim: number;
  /** Built on first use (sketchesOf). */
  sketches?: Sketches;
}

function matrixOf(mirror: Mirror): VectorMatrix {
  const version = `${mirror.lastId}:${mirror.words.size}`;
  if (mirror.matrix?.version === version) return mirror.matrix;
  const entries = [...mirror.words.values()].filter((e): e is VocabularyEntry & { vector: Float32Array } => (e.vector?.length ?? 0) > 0);
  // One model's vectors share a length; a stray of another length (none in practice) is left out.
  const dim = entries[0]?.vector.length ?? 0;
  const rows = entries.filter((e) => e.vector.length === dim);
  const data = new Float32Array(rows.length * dim);
  rows.forEach((entry, i) => {
    data.set(entry.vector, i * dim);
    entry.vector = data.subarray(i * dim, (i + 1) * dim);
  });
  mirror.matrix = { version, words: rows.map((e) => e.word), data, dim };
  return mirror.matrix;
}

/** A mirror holding just these words (vectors optional): unit tests of correction and neighbours. */
export function getVocabularyMirrorForTests(words: string[], vectors: Float32Array[] = []): Mirror {
  const mirror = emptyMirror("test");
  words.forEach((word, i) => addWord(mirror, { word, vector: vectors[i] ?? null }));
  return mirror;
}
