import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { clock } from "@/server/clock";

// GCRA over the shared rate_limits table (same algorithm as partner_request_gate),
// as one statement: the upsert only advances `tat` while the bucket has room,
// so an allowed request costs one round trip and a refused one two.

export interface RateLimitResult {
  allowed: boolean;
  retryAfterSeconds: number;
}

export async function takeToken(db: Db, bucket: string, limit: number, periodMs: number): Promise<RateLimitResult> {
  const now = clock.now().toISOString();
  const step = periodMs / limit;
  const allowed = await db.execute<{ tat: string }>(sql`
    insert into rate_limits (key, tat) values (${bucket}, ${now}::timestamptz + ${step} * interval '1 millisecond')
    on conflict (key) do update
      set tat = greatest(rate_limits.tat, ${now}::timestamptz) + ${step} * interval '1 millisecond'
      where greatest(rate_limits.tat, ${now}::timestamptz) + ${step} * interval '1 millisecond'
            <= ${now}::timestamptz + ${periodMs} * interval '1 millisecond'
    returning tat`);
  if (allowed.length > 0) return { allowed: true, retryAfterSeconds: 0 };
  const [row] = await db.execute<{ wait_ms: number }>(sql`
    select extract(epoch from (tat - ${now}::timestamptz)) * 1000 - ${periodMs - step} as wait_ms
    from rate_limits where key = ${bucket}`);
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(row?.wait_ms ?? step) / 1000)) };
}

/**
 * The caller's IP for per-IP limits: the first X-Forwarded-For hop (the service
 * runs behind one proxy in production), else X-Real-IP, else "unknown".
 */
export function clientIp(request: Request): string {
  const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
  return forwarded || request.headers.get("x-real-ip")?.trim() || "unknown";
}
