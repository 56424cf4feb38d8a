import { sql, type SQL } from "drizzle-orm";
import type { Database } from "@/db/client";
import { executePrepared } from "@/db/compiled";
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
  /** Only these endpoints (a worker taking its endpoint's next run). */
  endpointIds?: readonly string[];
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
  /** The endpoint's last attempt failed (failing_since is set) when the run was claimed. */
  failing: boolean;
  leaseUntil: Date;
  deliveries: ClaimedDelivery[];
}

const iso = (d: Date) => d.toISOString();
/**
 * A list of ids as one parameter (a JSON array), so a statement's text does not change
 * with the list's length and it can be sent prepared (db/compiled.ts executePrepared):
 * the worker's statements run for every run of deliveries.
 */
const list = (values: readonly string[]) => sql`select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb)`;

function partnerFilter(alias: string, partnerIds: readonly string[] | undefined): SQL {
  return partnerIds ? sql`and ${sql.raw(alias)}.partner_id in (${list(partnerIds)})` : sql``;
}

/** Claims up to `maxEndpoints` runs of due deliveries; an empty list when nothing is due. */
export async function claimDeliveries(db: Database, options: ClaimOptions): Promise<ClaimedRun[]> {
  const now = iso(options.now);
  const leaseUntil = new Date(options.now.getTime() + options.leaseMs);
  return db.transaction(async (tx) => {
    // Endpoints with due work and no live lease, most overdue first; another
    // worker claiming for the same endpoint holds its row, so it is skipped.
    const endpoints = await executePrepared<{
      id: string;
      partner_id: string;
      environment: "sandbox" | "live";
      url: string;
      secret_sealed: string;
      previous_secret_sealed: string | null;
      failing: boolean;
    }>(
      tx,
      sql`
      select w.id, w.partner_id, w.environment, w.url, w.secret_sealed,
             case when w.previous_secret_expires_at > ${now}::timestamptz then w.previous_secret_sealed end as previous_secret_sealed,
             w.failing_since is not null as failing
      from webhook_endpoints w
      join (
        select due.endpoint_id, due.due_at
        from (
          select d.endpoint_id, min(d.next_attempt_at) as due_at
          from webhook_deliveries d
          join webhook_endpoints c on c.id = d.endpoint_id and c.active ${partnerFilter("c", options.partnerIds)}
            ${options.endpointIds ? sql`and c.id in (${list(options.endpointIds)})` : sql``}
          where d.status in ('pending', 'delivering') and d.next_attempt_at <= ${now}::timestamptz
          group by d.endpoint_id
        ) due
        -- Checked once per endpoint, not once per due delivery.
        where not exists (
          select 1 from webhook_deliveries f
          where f.endpoint_id = due.endpoint_id and f.status = 'delivering' and f.next_attempt_at > ${now}::timestamptz)
        order by due.due_at
        limit ${options.maxEndpoints}
      ) candidate on candidate.endpoint_id = w.id
      where w.active
      order by candidate.due_at
      for no key update of w skip locked`,
    );
    if (endpoints.length === 0) return [];

    // A statement of its own, so a fresh snapshot taken with the endpoint rows
    // locked: it sees every claim committed before ours, so a lease taken since
    // the query above is respected. Each row is re-checked as it is updated: a
    // deactivation or replay may have changed one since the snapshot.
    const claimed = await executePrepared<{ id: string; endpoint_id: string; attempt_count: number; event: EventJson }>(
      tx,
      sql`
      with due as (
        select id, endpoint_id, rn from (
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
      ), claimed as (
        update webhook_deliveries d
        set status = 'delivering', attempt_count = d.attempt_count + 1,
            next_attempt_at = ${iso(leaseUntil)}::timestamptz, updated_at = ${now}::timestamptz
        from due
        where d.id = due.id and d.status in ('pending', 'delivering') and d.next_attempt_at <= ${now}::timestamptz
        returning d.id, d.endpoint_id, d.event_id, d.attempt_count, due.rn
      )
      select c.id, c.endpoint_id, c.attempt_count,
             json_build_object('id', e.id, 'seq', e.seq, 'partnerId', e.partner_id, 'environment', e.environment,
                               'type', e.type, 'data', e.data, 'createdAt', e.created_at) as event
      from claimed c join events e on e.id = c.event_id
      order by c.endpoint_id, c.rn`,
    );
    if (claimed.length === 0) return [];

    return endpoints.flatMap((endpoint): ClaimedRun[] => {
      const deliveries = claimed
        .filter((c) => c.endpoint_id === endpoint.id)
        .map((c): ClaimedDelivery => ({ id: c.id, attempt: c.attempt_count, event: eventFromJson(c.event) }));
      if (deliveries.length === 0) return [];
      return [
        {
          endpointId: endpoint.id,
          partnerId: endpoint.partner_id,
          environment: endpoint.environment,
          url: endpoint.url,
          secretSealed: endpoint.secret_sealed,
          previousSecretSealed: endpoint.previous_secret_sealed,
          failing: endpoint.failing,
          leaseUntil,
          deliveries,
        },
      ];
    });
  });
}

/** An events row as json_build_object gives it: timestamps as text, the rest as stored. */
type EventJson = Omit<EventRow, "createdAt"> & { createdAt: string };

function eventFromJson(json: EventJson | string): EventRow {
  const row = (typeof json === "string" ? JSON.parse(json) : json) as EventJson;
  return { ...row, createdAt: new Date(row.createdAt) };
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
 * Logs the attempts and moves their deliveries on, in one statement. Returns the
 * deliveries the claims still owned; for the others (a lease ran out and another
 * worker took the row, or the endpoint was deactivated) the attempt is logged and
 * the newer state kept.
 */
export async function recordAttempts(db: Database, records: readonly AttemptRecord[]): Promise<Set<string>> {
  if (records.length === 0) return new Set();
  const rows = records.map((r) => ({
    delivery_id: r.deliveryId,
    attempt: r.attempt,
    lease_until: iso(r.leaseUntil),
    url: r.url,
    attempted_at: iso(r.now),
    response_status: r.status,
    latency_ms: r.latencyMs,
    error: r.error,
    response_body: r.responseBody,
    status: r.outcome.status,
    next_attempt_at: r.outcome.status === "pending" ? iso(r.outcome.nextAttemptAt) : null,
    last_error: r.lastError,
  }));
  const moved = await executePrepared<{ id: string }>(
    db,
    sql`
    with input as (
      select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
        delivery_id text, attempt int, lease_until timestamptz, url text, attempted_at timestamptz,
        response_status int, latency_ms int, error text, response_body text,
        status text, next_attempt_at timestamptz, last_error text)
    ), attempt as (
      insert into webhook_attempts (delivery_id, url, response_status, latency_ms, error, response_body, attempted_at)
      select delivery_id, url, response_status, latency_ms, error, response_body, attempted_at from input
    )
    update webhook_deliveries d
    set status = i.status, next_attempt_at = i.next_attempt_at, last_error = i.last_error, updated_at = i.attempted_at
    from input i
    where d.id = i.delivery_id and d.status = 'delivering'
      and d.attempt_count = i.attempt and d.next_attempt_at = i.lease_until
    returning d.id`,
  );
  return new Set(moved.map((row) => row.id));
}

export interface AttemptLog {
  /** Queues a record; a statement takes every queued record once the one in flight is done. */
  add(record: AttemptRecord): void;
  /** Waits until everything queued is written; throws if a write failed. */
  settle(): Promise<void>;
  /** Throws at once if a write has failed (the run should stop sending). */
  check(): void;
}

/**
 * Group commit for one run's attempts: the run goes on sending while its
 * records are written, at most one statement in flight, so a run of n
 * successes costs a few statements instead of n. A record waits in memory for
 * at most one statement's time; if the worker dies meanwhile, the delivery is
 * still `delivering` under its lease and is sent again once the lease runs out
 * (at-least-once, as for a worker killed mid-request).
 */
export function createAttemptLog(db: Database, onNotOwned: (deliveryId: string) => void): AttemptLog {
  let queued: AttemptRecord[] = [];
  let writing: Promise<void> | undefined;
  let failure: { error: unknown } | undefined;
  const write = async (batch: AttemptRecord[]) => {
    const owned = await recordAttempts(db, batch);
    for (const record of batch) if (!owned.has(record.deliveryId)) onNotOwned(record.deliveryId);
  };
  // Each write, once finished, starts the next with whatever was queued meanwhile.
  const start = () => {
    if (writing || failure || queued.length === 0) return;
    const batch = queued;
    queued = [];
    writing = write(batch)
      .catch((error: unknown) => void (failure = { error }))
      .finally(() => {
        writing = undefined;
        start();
      });
  };
  const check = () => {
    if (failure) throw failure.error;
  };
  return {
    add(record) {
      queued.push(record);
      start();
    },
    async settle() {
      while (writing) await writing;
      check();
    },
    check,
  };
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
  const rows = await executePrepared<{ at: string | null }>(
    db,
    sql`
    select least(
      (select min(d.next_attempt_at) from webhook_deliveries d
       join webhook_endpoints w on w.id = d.endpoint_id and w.active ${partnerFilter("w", options.partnerIds)}
       where d.status in ('pending', 'delivering') and not exists (
         select 1 from webhook_deliveries f
         where f.endpoint_id = d.endpoint_id and f.status = 'delivering' and f.next_attempt_at > ${now}::timestamptz)),
      (select min(d.next_attempt_at) from webhook_deliveries d
       join webhook_endpoints w on w.id = d.endpoint_id and w.active ${partnerFilter("w", options.partnerIds)}
       where d.status = 'delivering' and d.next_attempt_at > ${now}::timestamptz)
    ) as at`,
  );
  const at = rows[0]?.at;
  return at ? new Date(at) : null;
}
