import type { Db } from "@/db/client";

// What the vocabulary (vocabulary.ts) and the phrases (phrases.ts) mirrors share:
// vectors stored as float32 bytes, and an in-process mirror per pool that each
// read catches up on the rows written since (ids become visible in order: each
// table is written under its advisory lock).

export const toBytes = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
export const fromBytes = (b: Buffer) => new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));

/**
 * A mirror per pool (test databases don't mix), new for another encoder model, caught up on
 * each read: after any catch-up under way (never two reading the same rows at once), one that
 * starts now, so a row committed before the read is seen by it.
 */
export function mirrorPerPool<M extends { model: string }>(empty: (model: string) => M, catchUp: (db: Db, mirror: M) => Promise<void>) {
  const mirrors = new WeakMap<object, M>();
  /** The last catch-up queued per mirror. */
  const catchingUp = new WeakMap<M, Promise<void>>();
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
