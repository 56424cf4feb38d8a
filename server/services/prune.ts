import { sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db/client";
import { advisoryLocks } from "@/db/locks";
import { clock } from "@/server/clock";

// What grows without bound is deleted in batches by the worker (one runner at a
// time across processes), each batch its own short statement so no long lock is
// held. Retention, decided once here and in the README:
//   - OAuth codes: a day after they expired (used or not; they live 60 s).
//   - OAuth tokens: a day after they expired (rotated and revoked ones too; an
//     expired token is refused before reuse detection could matter).
//   - Dynamically registered clients never used (no code, no token) after 24 h.
//   - Webhook delivery attempts: 30 days (the delivery row and its event stay).
//   - The request log: 30 days.
//   - Events: 400 days (GET /events replays 13 months), with their deliveries.
//   - Quotes: a day after they expired, unless an order used them.
//   - Checkout sessions: 30 days after they expired, unless paid or attempted.
//   - Declined and abandoned payments: 90 days.
//   - Processor notifications seen (Stripe event ids): 30 days (Stripe retries for 3).
//   - Referral clicks: 400 days (reports cover 13 months); site probes: 30 days;
//     rate-limit buckets idle for a day (a GCRA bucket that old is full).
//   - Chore runs (chore-runs.ts): 40 days, longer than the monthly slot, whose row
//     must outlive its month for the settlement to run once in it.
//   - Audit rows, orders, refunds, settlements and payouts are never pruned: they
//     are the record.

const DAY = 86_400_000;
export const BATCH = 1000;

export const retention = {
  oauthCodesMs: DAY,
  oauthTokensMs: DAY,
  unusedClientsMs: DAY,
  webhookAttemptsMs: 30 * DAY,
  requestLogMs: 30 * DAY,
  eventsMs: 400 * DAY,
  quotesMs: DAY,
  checkoutSessionsMs: 30 * DAY,
  failedPaymentsMs: 90 * DAY,
  processorEventsMs: 30 * DAY,
  clicksMs: 400 * DAY,
  siteProbesMs: 30 * DAY,
  rateLimitsMs: DAY,
  choreRunsMs: 40 * DAY,
} as const;

/** Each target: the rows of one batch to delete (a `select ctid ... limit`), given the cut-off. */
const targets: { name: string; table: string; batch: (before: string) => SQL; keep: keyof typeof retention }[] = [
  { name: "oauth codes", table: "oauth_codes", keep: "oauthCodesMs", batch: (b) => sql`select ctid from oauth_codes where expires_at < ${b}::timestamptz limit ${BATCH}` },
  { name: "oauth tokens", table: "oauth_tokens", keep: "oauthTokensMs", batch: (b) => sql`select ctid from oauth_tokens where expires_at < ${b}::timestamptz limit ${BATCH}` },
  {
    name: "unused oauth clients",
    table: "oauth_clients",
    keep: "unusedClientsMs",
    batch: (b) => sql`select c.ctid from oauth_clients c where c.created_at < ${b}::timestamptz
      and not exists (select 1 from oauth_codes o where o.client_id = c.id)
      and not exists (select 1 from oauth_tokens t where t.client_id = c.id) limit ${BATCH}`,
  },
  { name: "webhook attempts", table: "webhook_attempts", keep: "webhookAttemptsMs", batch: (b) => sql`select ctid from webhook_attempts where attempted_at < ${b}::timestamptz limit ${BATCH}` },
  { name: "request log", table: "request_log", keep: "requestLogMs", batch: (b) => sql`select ctid from request_log where created_at < ${b}::timestamptz limit ${BATCH}` },
  {
    name: "webhook deliveries of old events",
    table: "webhook_deliveries",
    keep: "eventsMs",
    batch: (b) => sql`select d.ctid from webhook_deliveries d join events e on e.id = d.event_id where e.created_at < ${b}::timestamptz
      and not exists (select 1 from webhook_attempts a where a.delivery_id = d.id) limit ${BATCH}`,
  },
  {
    name: "events",
    table: "events",
    keep: "eventsMs",
    batch: (b) => sql`select e.ctid from events e where e.created_at < ${b}::timestamptz and e.seq is not null
      and not exists (select 1 from webhook_deliveries d where d.event_id = e.id) limit ${BATCH}`,
  },
  { name: "expired quotes", table: "quotes", keep: "quotesMs", batch: (b) => sql`select ctid from quotes where expires_at < ${b}::timestamptz and order_id is null limit ${BATCH}` },
  {
    name: "expired checkout sessions",
    table: "checkout_sessions",
    keep: "checkoutSessionsMs",
    batch: (b) => sql`select s.ctid from checkout_sessions s where s.expires_at < ${b}::timestamptz and s.order_id is null
      and not exists (select 1 from orders o where o.checkout_session_id = s.id)
      and not exists (select 1 from payments p where p.checkout_session_id = s.id) limit ${BATCH}`,
  },
  {
    name: "declined payments",
    table: "payments",
    keep: "failedPaymentsMs",
    batch: (b) => sql`select ctid from payments where status in ('declined', 'failed') and created_at < ${b}::timestamptz limit ${BATCH}`,
  },
  {
    name: "processor events",
    table: "processor_events",
    keep: "processorEventsMs",
    batch: (b) => sql`select ctid from processor_events where received_at < ${b}::timestamptz limit ${BATCH}`,
  },
  { name: "referral clicks", table: "referral_clicks", keep: "clicksMs", batch: (b) => sql`select ctid from referral_clicks where created_at < ${b}::timestamptz limit ${BATCH}` },
  { name: "site probes", table: "site_probes", keep: "siteProbesMs", batch: (b) => sql`select ctid from site_probes where checked_at < ${b}::timestamptz limit ${BATCH}` },
  { name: "chore runs", table: "chore_runs", keep: "choreRunsMs", batch: (b) => sql`select ctid from chore_runs where started_at < ${b}::timestamptz limit ${BATCH}` },
  { name: "idle rate-limit buckets", table: "rate_limits", keep: "rateLimitsMs", batch: (b) => sql`select ctid from rate_limits where tat < ${b}::timestamptz limit ${BATCH}` },
];

export type PruneReport = Record<string, number>;

/**
 * One pass over every target, batch after batch until each is done. Returns
 * rows deleted per target, or null when another process is pruning now.
 */
export async function pruneExpired(db: Database): Promise<PruneReport | null> {
  // A session lock on one reserved connection: the batches themselves run on the pool.
  const holder = await db.$client.reserve();
  const [lock] = await holder<{ ok: boolean }[]>`select pg_try_advisory_lock(${advisoryLocks.prune}) as ok`;
  if (!lock?.ok) {
    holder.release();
    return null;
  }
  try {
    const report: PruneReport = {};
    for (const target of targets) {
      const before = new Date(clock.nowMs() - retention[target.keep]).toISOString();
      let total = 0;
      for (;;) {
        const deleted = await db.execute(sql`delete from ${sql.raw(target.table)} where ctid in (${target.batch(before)})`);
        total += deleted.count ?? 0;
        if ((deleted.count ?? 0) < BATCH) break;
      }
      report[target.name] = total;
    }
    return report;
  } finally {
    await holder`select pg_advisory_unlock(${advisoryLocks.prune})`.catch(() => {});
    holder.release();
  }
}
