import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";

// Rate limits of the public interface (DECISIONS "Public interface"): 30/min per
// client IP without a token, 120/min per token. The search endpoint and the MCP
// tool share the buckets, so one caller has one budget across both.

export const PUBLIC_RATE_PERIOD_MS = 60_000;
export const ANONYMOUS_LIMIT_PER_MIN = 30;
export const TOKEN_LIMIT_PER_MIN = 120;

export interface PublicRateLimit {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

interface GateRow extends Record<string, unknown> {
  allowed: boolean;
  remaining: number;
  reset_ms: number;
  retry_after_ms: number;
}

/** Takes one request from `bucket`; throws rate_limited (with RateLimit-* and Retry-After) when empty. */
export async function takePublicRateLimit(db: Db, bucket: string, limit: number): Promise<PublicRateLimit> {
  const rows = await db.execute<GateRow>(
    sql`select * from rate_limit_take(${bucket}, ${limit}::integer, ${PUBLIC_RATE_PERIOD_MS}::integer, ${clock.now().toISOString()}::timestamptz)`,
  );
  const gate = rows[0];
  if (!gate) throw new Error("rate_limit_take returned no row");
  const state = { limit, remaining: gate.remaining, resetSeconds: Math.ceil(gate.reset_ms / 1000) };
  if (!gate.allowed) {
    const retryAfter = String(Math.max(1, Math.ceil(gate.retry_after_ms / 1000)));
    throw new AppError("rate_limited", `rate limit of ${limit} requests per minute exceeded; retry after ${retryAfter} s`, undefined, {
      ...publicRateLimitHeaders(state),
      "retry-after": retryAfter,
    });
  }
  return state;
}

export function publicRateLimitHeaders(state: PublicRateLimit): Record<string, string> {
  return {
    "ratelimit-limit": String(state.limit),
    "ratelimit-remaining": String(state.remaining),
    "ratelimit-reset": String(state.resetSeconds),
  };
}
