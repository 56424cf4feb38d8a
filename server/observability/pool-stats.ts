// What the pool's wrapper (db/safe-begin.ts) counts for the metrics: postgres.js
// keeps its connection queues private, so this is what a process can read of its
// own pool for free. On globalThis: one pool per process, whichever bundle made it.

export interface PoolStats {
  /** Connections taken out of the pool by transactions now. */
  reserved: number;
}

const holder = globalThis as unknown as { __pdmPoolStats?: PoolStats };

export function poolStats(): PoolStats {
  return (holder.__pdmPoolStats ??= { reserved: 0 });
}
