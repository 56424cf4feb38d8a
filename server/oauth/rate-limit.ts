import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { clock } from "@/server/clock";

// Registration and sign-up limits: the service's one GCRA limiter
// (rate_limit_take in db/migrations/0008_one_rate_limiter.sql), one round trip.

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

export async function takeToken(db: Db, bucket: string, limit: number, periodMs: number): Promise<RateLimitResult> {
  const [row] = await db.execute<{ allowed: boolean; retry_after_ms: number }>(
    sql`select allowed, retry_after_ms from rate_limit_take(${bucket}, ${limit}::integer, ${Math.round(periodMs)}::integer, ${clock.now().toISOString()}::timestamptz)`,
  );
  if (!row) throw new Error("rate_limit_take returned no row");
  return { allowed: row.allowed, retryAfterSeconds: row.allowed ? 0 : Math.max(1, Math.ceil(row.retry_after_ms / 1000)) };
}

export interface Bucket {
  key: string;
  limit: number;
  periodMs: number;
}

/**
 * One take from each bucket in one round trip (per account and per address,
 * say); refused when any bucket is empty, with the longest wait.
 */
export async function takeBuckets(db: Db, buckets: readonly Bucket[]): Promise<RateLimitResult> {
  const now = clock.now().toISOString();
  const takes = sql.join(
    buckets.map((b) => sql`select * from rate_limit_take(${b.key}, ${b.limit}::integer, ${Math.round(b.periodMs)}::integer, ${now}::timestamptz)`),
    sql` union all `,
  );
  const [row] = await db.execute<{ allowed: boolean; retry_after_ms: number }>(
    sql`select bool_and(t.allowed) as allowed, coalesce(max(t.retry_after_ms), 0)::integer as retry_after_ms from (${takes}) t`,
  );
  if (!row) throw new Error("rate_limit_take returned no row");
  return { allowed: row.allowed, retryAfterSeconds: row.allowed ? 0 : Math.max(1, Math.ceil(row.retry_after_ms / 1000)) };
}

export { clientIp } from "@/server/http/client-ip";
