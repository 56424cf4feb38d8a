import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { clock } from "@/server/clock";
import { rateLimitOutcome, type RateLimitState } from "@/server/http/rate-limit";

// Rate limits of the public interface (DECISIONS "Public interface"): 30/min per
// client IP without a token, 120/min per token. The search endpoint and the MCP
// tool share the buckets, so one caller has one budget across both.

export const PUBLIC_RATE_PERIOD_MS = 60_000;
export const ANONYMOUS_LIMIT_PER_MIN = 30;
export const TOKEN_LIMIT_PER_MIN = 120;


interface GateRow extends Record<string, unknown> {
  allowed: boolean;
  remaining: number;
  reset_ms: number;
  retry_after_ms: number;
}

/** Takes one request from `bucket`; throws rate_limited (with RateLimit-* and Retry-After) when empty. */
export async function takePublicRateLimit(db: Db, bucket: string, limit: number): Promise<RateLimitState> {
  const rows = await db.execute<GateRow>(
    sql`select * from rate_limit_take(${bucket}, ${limit}::integer, ${PUBLIC_RATE_PERIOD_MS}::integer, ${clock.now().toISOString()}::timestamptz)`,
  );
  const gate = rows[0];
  if (!gate) throw new Error("rate_limit_take returned no row");
  return rateLimitOutcome(limit, { allowed: gate.allowed, remaining: gate.remaining, resetMs: gate.reset_ms, retryAfterMs: gate.retry_after_ms });
}
