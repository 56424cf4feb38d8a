import type { Db } from "@/db/client";

// What the vocabulary (vocabulary.ts) and the phrases (phrases.ts) mirrors share:
// vectors stored as float32 bytes, and an in-process mirror per pool that each
// read catches up on the rows written since (ids become visible in order: each
// table is written under its advisory lock).

export const toBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
export const fromBytes = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/**
 * The mirrors of this process, by name and pool, on globalThis: Next gives each
 * route bundle its own copy of these modules, so module-level maps would give
 * public search and the MCP tool a copy of every vector each, and the web
 * server's warm-up at start (warm.ts, run from scripts/serve.ts) would load one
 * no route reads.
 */
const holder = globalThis as unknown as { __pdmSearchMirrors?: Map<string, { mirrors: WeakMap<object, unknown>; catchingUp: WeakMap<object, Promise<void>> }> };
const registry = (holder.__pdmSearchMirrors ??= new Map());

/**
 * A mirror per pool (test databases don't mix), new for another encoder model, caught up on
 * each read: after any catch-up under way (never two reading the same rows at once), one that
 * starts now, so a row committed before the read is seen by it. `name` keeps each kind apart.
 */
export function mirrorPerPool<M extends { model: string }>(name: string, empty: (model: string) => M, catchUp: (db: Db, mirror: M) => Promise<void>) {
  let kind = registry.get(name);
  if (!kind) {
    kind = { mirrors: new WeakMap(), catchingUp: new WeakMap() };
    registry.set(name, kind);
  }
  const mirrors = kind.mirrors as WeakMap<object, M>;
  /** The last catch-up queued per mirror. */
  const catchingUp = kind.catchingUp;
  return async function read(db: Db, model: string): Promise<M> {
    const key = ("$client" in db ? db.$client : db) as object;
    let mirror = mirrors.get(key);
    if (!mirror || mirror.model !== model) {
      mirror = empty(model);
      mirrors.set(key, mirror);
    }
    const current = mirror;
    const pending = (catchingUp.get(current) ?? Promise.resolve()).catch(() => undefined).then(() => catchUp(db, current));
    catchingUp.set(current, pending);
    try {
      await pending;
    } finally {
      if (catchingUp.get(current) === pending) catchingUp.delete(current);
    }
    return current;
  };
}
