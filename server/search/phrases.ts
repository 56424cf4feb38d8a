import { and, eq, gt, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { advisoryLocks } from "@/db/locks";
import { searchPhrases, searchVocabulary } from "@/db/schema";
import { getEmbedder, inContext, vectorModel, type Embedder } from "./embedder";
import { fromBytes, mirrorPerPool, toBytes } from "./mirror";
import { isKnownWord, labelTokens } from "./text";

// Whole names in meaning: each listed label's words embedded as one phrase
// ("best pizza shop", in the vocabulary's context "a website about ..."), once
// per label when it is first listed, and an in-process mirror the query path
// searches by nearest neighbour: the query's subject as one phrase against every
// name, so "somewhere to get my dog groomed" reaches pawspa.com without a word
// in common, and a rerank feature for every candidate (how near the name is to
// what was asked as a whole).
//
// The mirror holds each vector as int8 (a scale per row: 512 bytes instead of
// 2 KB) and a 512-bit sign sketch about a fixed mean; a query scans the sketches
// by Hamming distance and scores the closest CANDIDATES rows on the int8 vectors.
// Catch-up is the vocabulary's (vocabulary.ts): ids in commit order under an
// advisory lock, new rows read in pages on each query.

const EMBED_BATCH = 256;
const CATCH_UP_PAGE = 10_000;
/** Rows scored exactly after the sketch scan. */
const CANDIDATES = 512;
/** From twice COARSE_KEEP rows on, a first pass compares the sketches' first COARSE_WORDS words (128 of 512 bits) and keeps COARSE_KEEP rows. */
const COARSE_WORDS = 4;
const COARSE_KEEP = 8_192;


/** The phrase a label is embedded as: its search tokens, in the vocabulary's context. */
export const phraseOf = (label: string) => inContext(labelTokens(label).join(" "));

/**
 * A label worth embedding: at least one of its words is a real word. A brand
 * ("zqxkw") has no meaning to compare, and the encoder puts such strings near
 * each other (hubs).
 */
export const meaningfulLabel = (label: string) => labelTokens(label).some((t) => t.length >= 2 && isKnownWord(t));

/**
 * Embeds the labels not yet embedded under the current model (a one-word label
 * takes its word's vector from the vocabulary, so register the words first);
 * safe to call with known labels. `again`: embeds them even if known (their
 * words were cut anew: retokenize.ts); the rows are replaced, so the mirror
 * reads the new vectors. Returns how many were added or replaced.
 */
export async function registerPhrases(db: Db, labels: Iterable<string>, embedder: Embedder = getEmbedder(), { again = false } = {}): Promise<number> {
  const model = vectorModel(embedder);
  const distinct = [...new Set(labels)].filter((l) => l.length > 0 && l.length <= 63 && meaningfulLabel(l));
  if (distinct.length === 0) return 0;
  const known = new Set<string>();
  for (let i = 0; i < distinct.length && !again; i += 5000) {
    const rows = await db
      .select({ label: searchPhrases.label })
      .from(searchPhrases)
      .where(and(inArray(searchPhrases.label, distinct.slice(i, i + 5000)), eq(searchPhrases.model, model)));
    for (const r of rows) known.add(r.label);
  }
  let missing = distinct.filter((l) => !known.has(l)).sort();
  const added = missing.length;
  // A one-word label's phrase is the word in context, embedded already as the vocabulary's (a tenth of the labels).
  const single = new Map<string, string>();
  for (const label of missing) {
    const tokens = labelTokens(label);
    if (tokens.length === 1) single.set(tokens[0] as string, label);
  }
  const words = [...single.keys()];
  for (let i = 0; i < words.length; i += 5000) {
    const rows = await db
      .select({ word: searchVocabulary.word, vector: searchVocabulary.vector })
      .from(searchVocabulary)
      .where(and(inArray(searchVocabulary.word, words.slice(i, i + 5000)), eq(searchVocabulary.model, model)));
    const reused = rows.map((r) => ({ label: single.get(r.word) as string, model, vector: r.vector }));
    await writePhrases(db, reused);
    for (const r of reused) known.add(r.label);
  }
  missing = missing.filter((l) => !known.has(l));
  for (let i = 0; i < missing.length; i += EMBED_BATCH) {
    const batch = missing.slice(i, i + EMBED_BATCH);
    const vectors = await embedder.embed(batch.map(phraseOf));
    await writePhrases(db, batch.map((label, j) => ({ label, model, vector: toBytes(vectors[j] as Float32Array) })));
  }
  return added;
}

/** Writes embedded labels under the phrases lock, so ids become visible in order (see vocabulary.ts). */
async function writePhrases(db: Db, rows: { label: string; model: string; vector: Buffer }[]): Promise<void> {
  if (rows.length === 0) return;
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${advisoryLocks.phrases})`);
    await tx
      .insert(searchPhrases)
      .values(rows)
      .onConflictDoUpdate({
        target: searchPhrases.label,
        set: { model: sql`excluded.model`, vector: sql`excluded.vector`, id: sql`nextval(pg_get_serial_sequence('search_phrases', 'id'))` },
      });
  });
}

/** Embeds every listed label not yet embedded under the current model (after a bulk load, at start). */
export async function registerInventoryPhrases(db: Db, embedder: Embedder = getEmbedder()): Promise<number> {
  const rows = await db.execute<{ label: string }>(
    sql`select distinct d.label from domains d
      where d.status = 'listed' and not exists (select 1 from search_phrases p where p.label = d.label and p.model = ${vectorModel(embedder)})`,
  );
  return registerPhrases(db, rows.map((r) => r.label), embedder);
}

/** The labels of names ("pizza.com", "pizza.io" -> pizza), for the ingest paths. */
export const labelsOfNames = (names: Iterable<string>) => [...names].map((n) => (n.includes(".") ? n.slice(0, n.indexOf(".")) : n));

export interface PhraseMirror {
  lastId: number;
  model: string;
  size: number;
  dim: number;
  labels: string[];
  rowOf: Map<string, number>;
  /** int8 vectors, row-major, and each row's scale (value = int8 * scale). */
  codes: Int8Array;
  scales: Float32Array;
  /** Sign sketches about `mean`, `width` 32-bit words a row. */
  sketches: Int32Array;
  mean: Float32Array | null;
  width: number;
}

const emptyMirror = (model: string): PhraseMirror => ({
  lastId: 0, model, size: 0, dim: 0, labels: [], rowOf: new Map(), codes: new Int8Array(0), scales: new Float32Array(0), sketches: new Int32Array(0), mean: null, width: 0,
});

const readPhrases = mirrorPerPool("phrases", emptyMirror, catchUp);

/** The phrase mirror as of now (new rows read in id order, in pages), keyed by the pool. */
export function getPhrases(db: Db, embedder: Embedder = getEmbedder()): Promise<PhraseMirror> {
  return readPhrases(db, vectorModel(embedder));
}

async function catchUp(db: Db, mirror: PhraseMirror): Promise<void> {
  for (;;) {
    const rows = await db
      .select({ id: searchPhrases.id, label: searchPhrases.label, model: searchPhrases.model, vector: searchPhrases.vector })
      .from(searchPhrases)
      .where(gt(searchPhrases.id, mirror.lastId))
      .orderBy(searchPhrases.id)
      .limit(CATCH_UP_PAGE);
    const vectors: { label: string; vector: Float32Array }[] = [];
    for (const row of rows) {
      mirror.lastId = Math.max(mirror.lastId, row.id);
      if (row.model === mirror.model) vectors.push({ label: row.label, vector: fromBytes(row.vector) });
    }
    addRows(mirror, vectors);
    if (rows.length < CATCH_UP_PAGE) return;
  }
}

/** Rows fixing the sketches' mean: below this many, the sketches are rebuilt as rows arrive. */
const MEAN_FROM = 2_000;

function addRows(mirror: PhraseMirror, rows: { label: string; vector: Float32Array }[]): void {
  if (rows.length === 0) return;
  const dim = mirror.dim || (rows[0] as { vector: Float32Array }).vector.length;
  mirror.dim = dim;
  mirror.width = Math.ceil(dim / 32);
  const fresh = rows.filter((r) => r.vector.length === dim);
  const needed = mirror.size + fresh.length;
  if (needed > mirror.scales.length) {
    const capacity = Math.max(1024, needed, Math.ceil(mirror.scales.length * 1.5));
    const codes = new Int8Array(capacity * dim);
    codes.set(mirror.codes.subarray(0, mirror.size * dim));
    const scales = new Float32Array(capacity);
    scales.set(mirror.scales.subarray(0, mirror.size));
    const sketches = new Int32Array(capacity * mirror.width);
    sketches.set(mirror.sketches.subarray(0, mirror.size * mirror.width));
    [mirror.codes, mirror.scales, mirror.sketches] = [codes, scales, sketches];
  }
  const first = mirror.size;
  for (const { label, vector } of fresh) {
    let row = mirror.rowOf.get(label);
    if (row === undefined) {
      row = mirror.size++;
      mirror.labels[row] = label;
      mirror.rowOf.set(label, row);
    }
    let max = 0;
    for (let j = 0; j < dim; j++) max = Math.max(max, Math.abs(vector[j] as number));
    const scale = max / 127 || 1;
    mirror.scales[row] = scale;
    const at = row * dim;
    for (let j = 0; j < dim; j++) mirror.codes[at + j] = Math.round((vector[j] as number) / scale);
    if (mirror.mean) sketchRow(mirror, row);
  }
  // The mean is fixed once enough rows exist (a statistic of the encoder, not of the newest names); before, sketches are rebuilt.
  if (!mirror.mean || first < MEAN_FROM) {
    const mean = new Float32Array(dim);
    for (let row = 0; row < mirror.size; row++) {
      const scale = mirror.scales[row] as number;
      for (let j = 0; j < dim; j++) mean[j] = (mean[j] as number) + ((mirror.codes[row * dim + j] as number) * scale) / mirror.size;
    }
    mirror.mean = mean;
    for (let row = 0; row < mirror.size; row++) sketchRow(mirror, row);
  }
}

function sketchRow(mirror: PhraseMirror, row: number): void {
  const { dim, width, codes, scales, sketches } = mirror;
  const mean = mirror.mean as Float32Array;
  const scale = scales[row] as number;
  const at = row * width;
  for (let w = 0; w < width; w++) sketches[at + w] = 0;
  for (let j = 0; j < dim; j++) {
    if ((codes[row * dim + j] as number) * scale > (mean[j] as number)) sketches[at + (j >> 5)] = (sketches[at + (j >> 5)] as number) | (1 << (j & 31));
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** Cosine of a unit query vector and row `row` (int8 times its scale; rows were unit before quantising). */
function rowCosine(mirror: PhraseMirror, row: number, vector: Float32Array): number {
  const { dim, codes } = mirror;
  const at = row * dim;
  let s0 = 0;
  let s1 = 0;
  let j = 0;
  for (; j + 1 < dim; j += 2) {
    s0 += (vector[j] as number) * (codes[at + j] as number);
    s1 += (vector[j + 1] as number) * (codes[at + j + 1] as number);
  }
  for (; j < dim; j++) s0 += (vector[j] as number) * (codes[at + j] as number);
  return (s0 + s1) * (mirror.scales[row] as number);
}

export interface NearLabel {
  label: string;
  similarity: number;
}

/** The `k` labels nearest `vector` (a sketch scan, then the closest CANDIDATES scored on int8), best first. */
export function nearestLabels(mirror: PhraseMirror, vector: Float32Array, k: number): NearLabel[] {
  if (mirror.size === 0 || vector.length !== mirror.dim || !mirror.mean) return [];
  const { size, width, sketches, mean } = mirror;
  const query = new Int32Array(width);
  for (let j = 0; j < mirror.dim; j++) if ((vector[j] as number) > (mean[j] as number)) query[j >> 5] = (query[j >> 5] as number) | (1 << (j & 31));
  // A coarse pass on the sketches' first COARSE_WORDS words keeps the COARSE_KEEP closest rows, the whole
  // sketch ranks those, and the CANDIDATES closest are scored on their int8 vectors. Each cut is a histogram of
  // distances, no sort.
  const coarseWords = size >= 2 * COARSE_KEEP ? Math.min(COARSE_WORDS, width) : width;
  const distance = new Uint16Array(size);
  const coarse = new Uint32Array(coarseWords * 32 + 1);
  for (let row = 0, at = 0; row < size; row++, at += width) {
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
  const coarseLimit = cut(coarse, coarseWords < width ? COARSE_KEEP : CANDIDATES);
  const kept: number[] = [];
  const histogram = new Uint32Array(mirror.dim + 1);
  for (let row = 0; row < size; row++) {
    if ((distance[row] as number) >= coarseLimit) continue;
    let h = distance[row] as number;
    for (let w = coarseWords, at = row * width; w < width; w++) h += popcount((query[w] as number) ^ (sketches[at + w] as number));
    distance[row] = h;
    histogram[h] = (histogram[h] as number) + 1;
    kept.push(row);
  }
  const limit = cut(histogram, CANDIDATES);
  const scored: NearLabel[] = [];
  for (const row of kept) {
    if ((distance[row] as number) >= limit) continue;
    scored.push({ label: mirror.labels[row] as string, similarity: rowCosine(mirror, row, vector) });
  }
  return scored.sort((a, b) => b.similarity - a.similarity).slice(0, k);
}

const SAMPLE = 1_024;

/**
 * The mean and spread of `vector`'s similarity to every label: the mean exactly
 * (the vector times the mean row), the spread from a fixed sample of rows. A
 * name's closeness is judged against them (a z-score), because raw cosines sit
 * higher for a one-word subject than for a longer one.
 */
export function similarityStats(mirror: PhraseMirror, vector: Float32Array): { mean: number; sd: number } | null {
  if (mirror.size < 2 || vector.length !== mirror.dim || !mirror.mean) return null;
  let mean = 0;
  for (let j = 0; j < mirror.dim; j++) mean += (vector[j] as number) * (mirror.mean[j] as number);
  const step = Math.max(1, mirror.size / SAMPLE);
  const sampled: number[] = [];
  for (let x = 0; x < mirror.size; x += step) sampled.push(rowCosine(mirror, Math.floor(x), vector));
  const sampleMean = sampled.reduce((a, b) => a + b, 0) / sampled.length;
  const variance = sampled.reduce((a, b) => a + (b - sampleMean) * (b - sampleMean), 0) / Math.max(1, sampled.length - 1);
  return { mean, sd: Math.sqrt(Math.max(variance, 1e-9)) };
}

/** The exact scan nearestLabels approximates (on the int8 vectors): for measuring its recall. */
export function nearestLabelsExact(mirror: PhraseMirror, vector: Float32Array, k: number): NearLabel[] {
  if (mirror.size === 0 || vector.length !== mirror.dim) return [];
  const scored: NearLabel[] = [];
  for (let row = 0; row < mirror.size; row++) scored.push({ label: mirror.labels[row] as string, similarity: rowCosine(mirror, row, vector) });
  return scored.sort((a, b) => b.similarity - a.similarity).slice(0, k);
}

/** Cosine of a label's phrase and `vector`, or null when the label has none. */
export function labelSimilarity(mirror: PhraseMirror, label: string, vector: Float32Array): number | null {
  const row = mirror.rowOf.get(label);
  return row === undefined || vector.length !== mirror.dim ? null : rowCosine(mirror, row, vector);
}

/** Bytes the mirror holds (the benchmark reports it). */
export const phraseMirrorBytes = (m: PhraseMirror) => m.codes.byteLength + m.scales.byteLength + m.sketches.byteLength;

/** A mirror holding just these labels and vectors: unit tests of the scan. */
export function getPhraseMirrorForTests(labels: string[], vectors: Float32Array[]): PhraseMirror {
  const mirror = emptyMirror("test");
  addRows(mirror, labels.map((label, i) => ({ label, vector: vectors[i] as Float32Array })));
  return mirror;
}
