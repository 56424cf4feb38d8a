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

/**
 * The caller's IP for per-IP limits: the first X-Forwarded-For hop (the service
 * runs behind one proxy in production), else X-Real-IP, else "unknown".
 */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("x-real-ip")?.trim() || "unknown";
}
