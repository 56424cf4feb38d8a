import { performance } from "node:perf_hooks";

/**
 * What a GCRA limiter of `limit` requests per `periodMs` refills in the time since
 * `startedAt` (a performance.now()): how many a burst that a slow machine stretched may
 * rightly get beyond the limit.
 */
export const refillsSince = (startedAt: number, limit: number, periodMs = 60_000) =>
  Math.floor((performance.now() - startedAt) / (periodMs / limit));
