import { inArray, sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db/client";
import { events } from "@/db/schema";
import type { EventRow } from "@/server/services/events";

// The delivery queue in webhook_deliveries, as the worker uses it.
//
// States: `pending` (waiting for next_attempt_at), `delivering` (claimed; here
// next_attempt_at is the lease expiry), `succeeded`, `failed`.
//
// Invariants:
// - A claim is a short transaction; the HTTP request happens outside it. A
//   worker that dies mid-request leaves its rows `delivering` until the lease
//   expires, then any worker claims them again (at-least-once).
// - A result is written only by the claim that owns the row: the update is
//   fenced on (attempt_count, lease), so a worker whose lease ran out cannot
//   overwrite a newer claim's outcome.
// - At most one claim per endpoint is in flight, and it takes the endpoint's
//   due deliveries in event order (seq). Claims lock the endpoint row, so two
//   workers never claim for the same endpoint at once; an endpoint with a live
//   lease is skipped. A delivery waiting out a retry delay does not hold back
//   later events (that is the "where possible" of the ordering promise).

export interface ClaimOptions {
  now: Date;
  leaseMs: number;
  /** Endpoints to take at most (free worker slots). */
  maxEndpoints: number;
  /** Deliveries per endpoint per claim. */
  runLength: number;
  /** Limit the worker to these partners (tests, benchmarks, draining one partner). */
  partnerIds?: readonly string[];
}

export interface ClaimedDelivery {
  id: string;
  /** attempt_count after this claim: the attempt number and half of the fence. */
  attempt: number;
  event: EventRow;
}

export interface ClaimedRun {
  endpointId: string;
  partnerId: string;
  environment: "sandbox" | "live";
  url: string;
  secretSealed: string;
  /** The secret in its grace after a roll, if any: deliveries carry both signatures. */
  previousSecretSealed: string | null;
  leaseUntil: Date;
  deliveries: ClaimedDelivery[];
}

const iso = (d: Date) => d.toISOString();
const list = (values: readonly string[]) => sql.join(values.map((v) => sql`${v}`), sql`, `);

function partnerFilter(alias: string, partnerIds: readonly string[] | undefined): SQL {
  return partnerIds ? sql`and ${sql.raw(alias)}.partner_id in (${list(partnerIds.length ? partnerIds : [""])})` : sql``;
}

/** Claims up to `maxEndpoints` runs of due deliveries; an empty list when nothing is due. */
export async function claimDeliveries(db: Database, options: ClaimOptions): Promise<ClaimedRun[]> {
  const now = iso(options.now);
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  return db.transaction(async (tx) => {
    // Endpoints with due work and no live lease, most overdue first.
    const candidates = await tx.execute<{ endpoint_id: string }>(sql`
      select d.endpoint_id
      from webhook_deliveries d
      join webhook_endpoints w on w.id = d.endpoint_id and w.active ${partnerFilter("w", options.partnerIds)}
      where d.status in ('pending', 'delivering') and d.next_attempt_at <= ${now}::timestamptz
        and not exists (
          select 1 from webhook_deliveries f
          where f.endpoint_id = d.endpoint_id and f.status = 'delivering' and f.next_attempt_at > ${now}::timestamptz)
      group by d.endpoint_id
      order by min(d.next_attempt_at)
      limit ${options.maxEndpoints}`);
    if (candidates.length === 0) return [];

    // Another worker claiming for the same endpoint holds its row: skip it.
    const endpoints = await tx.execute<{
      id: string;
      partner_id: string;
      environment: "sandbox" | "live";
      url: string;
      secret_sealed: string;
      previous_secret_sealed: string | null;
    }>(sql`
      select id, partner_id, environment, url, secret_sealed,
             case when previous_secret_expires_at > ${now}::timestamptz then previous_secret_sealed end as previous_secret_sealed
      from webhook_endpoints
      where id in (${list(candidates.map((c) => c.endpoint_id))}) and active
      for no key update skip locked`);
    if (endpoints.length === 0) return [];

    // A fresh snapshot, taken with the endpoint rows locked: it sees every claim
    // committed before ours, so a lease taken since the first query is respected.
    const due = await tx.execute<{ id: string; endpoint_id: string }>(sql`
      select id, endpoint_id from (
        select d.id, d.endpoint_id, d.status, d.next_attempt_at,
               row_number() over (partition by d.endpoint_id order by e.seq, d.id) as rn,
               bool_or(d.status = 'delivering' and d.next_attempt_at > ${now}::timestamptz)
                 over (partition by d.endpoint_id) as busy
        from webhook_deliveries d join events e on e.id = d.event_id
        where d.endpoint_id in (${list(endpoints.map((e) => e.id))})
          and d.status in ('pending', 'delivering')
          and (d.next_attempt_at <= ${now}::timestamptz or d.status = 'delivering')
      ) x
      where not busy and rn <= ${options.runLength}
      order by endpoint_id, rn`);
    if (due.length === 0) return [];

    // Re-checked per row: a deactivation or replay may have changed one since the snapshot.
    const claimed = await tx.execute<{ id: string; event_id: string; attempt_count: number }>(sql`
      update webhook_deliveries
      set status = 'delivering', attempt_count = attempt_count + 1,
          next_attempt_at = ${iso(leaseUntil)}::timestamptz, updated_at = ${now}::timestamptz
      where id in (${list(due.map((d) => d.id))})
        and status in ('pending', 'delivering') and next_attempt_at <= ${now}::timestamptz
      returning id, event_id, attempt_count`);
    if (claimed.length === 0) return [];
    const eventRows = await tx.select().from(events).where(inArray(events.id, claimed.map((c) => c.event_id)));
    const eventsById = new Map(eventRows.map((e) => [e.id, e]));
    const claimedById = new Map(claimed.map((c) => [c.id, c]));

    return endpoints.flatMap((endpoint): ClaimedRun[] => {
      const deliveries = due
        .filter((d) => d.endpoint_id === endpoint.id)
        .flatMap((d): ClaimedDelivery[] => {
          const row = claimedById.get(d.id);
          const event = row && eventsById.get(row.event_id);
          return row && event ? [{ id: d.id, attempt: row.attempt_count, event }] : [];
        });
      if (deliveries.length === 0) return [];
      return [
        {
          endpointId: endpoint.id,
          partnerId: endpoint.partner_id,
          environment: endpoint.environment,
          url: endpoint.url,
          secretSealed: endpoint.secret_sealed,
          previousSecretSealed: endpoint.previous_secret_sealed,
          leaseUntil,
          deliveries,
        },
      ];
    });
  });
}

export interface AttemptRecord {
  deliveryId: string;
  attempt: number;
  leaseUntil: Date;
  url: string;
  now: Date;
  status: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string | null;
  /** The outcome for the delivery: succeeded, or pending again at `nextAttemptAt`, or failed for good. */
  outcome: { status: "succeeded" } | { status: "pending"; nextAttemptAt: Date } | { status: "failed" };
  lastError: string | null;
}

/**
 * Logs the attempt and moves the delivery on, in one statement. Returns false
 * when the claim no longer owned the row (its lease ran out and another worker
 * took it): the attempt is still logged, the newer claim's state is kept.
 */
export async function recordAttempt(db: Database, record: AttemptRecord): Promise<boolean> {
  const now = iso(record.now);
  const next = record.outcome.status === "pending" ? iso(record.outcome.nextAttemptAt) : null;
  const rows = await db.execute<{ id: string }>(sql`
    with attempt as (
      insert into webhook_attempts (delivery_id, url, response_status, latency_ms, error, response_body, attempted_at)
      values (${record.deliveryId}, ${record.url}, ${record.status}, ${record.latencyMs}, ${record.error},
              ${record.responseBody}, ${now}::timestamptz)
    )
    update webhook_deliveries
    set status = ${record.outcome.status}, next_attempt_at = ${next}::timestamptz, last_error = ${record.lastError},
        updated_at = ${now}::timestamptz
    where id = ${record.deliveryId} and status = 'delivering'
      and attempt_count = ${record.attempt} and next_attempt_at = ${iso(record.leaseUntil)}::timestamptz
    returning id`);
  return rows.length > 0;
}

/** Hands back claimed deliveries that were not attempted (stopping, or the lease running short). */
export async function releaseDeliveries(db: Database, deliveries: readonly ClaimedDelivery[], leaseUntil: Date, now: Date): Promise<void> {
  if (deliveries.length === 0) return;
  await db.execute(sql`
    update webhook_deliveries
    set status = 'pending', attempt_count = attempt_count - 1, next_attempt_at = ${iso(now)}::timestamptz,
        updated_at = ${iso(now)}::timestamptz
    where id in (${list(deliveries.map((d) => d.id))}) and status = 'delivering'
      and next_attempt_at = ${iso(leaseUntil)}::timestamptz`);
}

/**
 * When the next claim could find work, by the same rules as claimDeliveries:
 * the earliest due time on an endpoint with nothing in flight, or the earliest
 * lease expiry. Null when there is nothing to wait for.
 */
export async function nextDueAt(db: Database, options: { now: Date; partnerIds?: readonly string[] }): Promise<Date | null> {
  const now = iso(options.now);
  const rows = await db.execute<{ at: string | null }>(sql`
    select least(
      (select min(d.next_attempt_at) from webhook_deliveries d
       join webhook_endpoints w on w.id = d.endpoint_id and w.active ${partnerFilter("w", options.partnerIds)}
       where d.status in ('pending', 'delivering') and not exists (
         select 1 from webhook_deliveries f
         where f.endpoint_id = d.endpoint_id and f.status = 'delivering' and f.next_attempt_at > ${now}::timestamptz)),
      (select min(d.next_attempt_at) from webhook_deliveries d
       join webhook_endpoints w on w.id = d.endpoint_id and w.active ${partnerFilter("w", options.partnerIds)}
       where d.status = 'delivering' and d.next_attempt_at > ${now}::timestamptz)
    ) as at`);
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}
