import { and, asc, desc as descending, eq, gt, gte, isNotNull, isNull, like, lt, lte, or, sql, type SQL } from "drizzle-orm";
import type { Database, Db } from "@/db/client";
import { executePrepared } from "@/db/compiled";
import { events, type Environment } from "@/db/schema";
import { advisoryLocks } from "@/db/locks";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
import type { EventType } from "@/server/webhooks/catalog";

// The event outbox. recordEvent writes inside the caller's transaction, so an
// event exists exactly when the change that caused it committed. sequenceEvents
// then gives committed events their public order (see db/schema/events.ts) and
// fans them out to webhook deliveries; GET /events and the worker read by seq.

export type EventRow = typeof events.$inferSelect;

export interface RecordEventInput {
  partnerId: string;
  environment: Environment;
  type: EventType;
  data: Record<string, unknown>;
}

export async function recordEvent(db: Db, input: RecordEventInput): Promise<EventRow> {
  const [row] = await db.insert(events).values(eventValues(input)).returning();
  if (!row) throw new Error("event insert returned no row");
  return row;
}

/** Several events in one statement (bulk changes, benches); returned in input order. */
export async function recordEvents(db: Db, inputs: readonly RecordEventInput[]): Promise<EventRow[]> {
  if (inputs.length === 0) return [];
  const now = clock.now();
  const values = inputs.map((input) => eventValues(input, now));
  const rows = new Map((await db.insert(events).values(values).returning()).map((row) => [row.id, row]));
  return values.map((value) => {
    const row = rows.get(value.id);
    if (!row) throw new Error("event insert returned no row");
    return row;
  });
}

/** The event row recordEvent inserts: a caller may insert it inside a larger statement (createOrder's). */
export function eventValues(input: RecordEventInput, now = clock.now()) {
  return { id: newId("event", now.getTime()), ...input, createdAt: now };
}

const SEQUENCER_LOCK = advisoryLocks.eventSequencer;

/**
 * Give every committed, unsequenced event the next `seq`, in commit-visible
 * order, and create a pending webhook delivery for each event whose partner and
 * environment has an active endpoint. Serialized by an advisory lock, so seq
 * only grows in the order readers can see events. Returns how many it sequenced.
 */
export async function sequenceEvents(db: Db, batch = 5000): Promise<number> {
  // Most calls (every turn of every worker's loop) find nothing to do: one indexed
  // read instead of a transaction that queues on the lock. An event committed after
  // this read is sequenced by the next call, which its NOTIFY prompts.
  const [waiting] = await db.execute<{ one: number }>(sql`select 1 as one from events where seq is null limit 1`);
  if (!waiting) return 0;
  return db.transaction(async (tx) => {
    await executePrepared(tx, sql`select pg_advisory_xact_lock(${SEQUENCER_LOCK})`);
    // Within a batch, transaction order first: a transaction that writes after
    // another committed has a larger xid, so events recorded one after another
    // keep their order even inside one millisecond (created_at cannot tell them
    // apart and the id's low bits are random) and whatever tests do to the clock.
    // age() is wraparound-safe.
    const rows = await executePrepared<{ count: number }>(
      tx,
      sql`
      with pending as (
        select id, row_number() over (order by age(xmin) desc, created_at, id) as rn
        from events where seq is null
        order by age(xmin) desc, created_at, id
        limit ${batch}
      ), base as (
        select coalesce(max(seq), 0) as top from events
      ), sequenced as (
        update events e set seq = base.top + pending.rn
        from pending, base where e.id = pending.id
        returning e.id, e.partner_id, e.environment
      ), fanned as (
        insert into webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
        select 'whd_' || substr(s.id, 5) || '_' || substr(w.id, 4), s.id, w.id, 'pending', ${clock.now().toISOString()}::timestamptz
        from sequenced s
        join webhook_endpoints w on w.partner_id = s.partner_id and w.environment = s.environment and w.active
        on conflict do nothing
      )
      select count(*)::int as count from sequenced`,
    );
    return rows[0]?.count ?? 0;
  });
}

export interface ListEventsInput {
  partnerId: string;
  environment: Environment;
  afterId?: string;
  limit: number;
  /** Exact types or family wildcards such as `order.*`. */
  types?: string[];
  /** The dashboard reads newest first; GET /events oldest first (the default). */
  direction?: "asc" | "desc";
  from?: Date;
  to?: Date;
}

export async function listEvents(db: Database, input: ListEventsInput) {
  const scope = and(eq(events.partnerId, input.partnerId), eq(events.environment, input.environment));
  // A reader sequences first, so its own events are readable as soon as they
  // committed; but only when it has some waiting. A partner with nothing pending
  // (the common case) never touches the sequencer's lock, so one partner's
  // polling does not queue behind another's.
  const [mine] = await db.select({ id: events.id }).from(events).where(and(scope, isNull(events.seq))).limit(1);
  if (mine) await sequenceEvents(db);
  let after = 0;
  if (input.afterId) {
    const [cursor] = await db.select({ seq: events.seq }).from(events).where(and(scope, eq(events.id, input.afterId)));
    if (!cursor?.seq) {
      throw new AppError("validation_error", "after_id is not an event of this partner and environment", [
        { path: "after_id", message: "unknown event id" },
      ]);
    }
    after = cursor.seq;
  }
  const desc = input.direction === "desc";
  const rows = await db
    .select()
    .from(events)
    .where(
      and(
        scope,
        isNotNull(events.seq),
        desc ? (input.afterId ? lt(events.seq, after) : undefined) : gt(events.seq, after),
        typeFilter(input.types),
        input.from ? gte(events.createdAt, input.from) : undefined,
        input.to ? lte(events.createdAt, input.to) : undefined,
      ),
    )
    .orderBy(desc ? descending(events.seq) : asc(events.seq))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    events: page,
    hasMore: rows.length > input.limit,
    // Always a cursor to continue from, so a client polling at the head keeps its place.
    nextCursor: last?.id ?? input.afterId ?? null,
  };
}

/** One event and the deliveries that carried it (the dashboard's event view). */
export async function getEventOrThrow(db: Database, input: { partnerId: string; environment: Environment; eventId: string }) {
  const [row] = await db
    .select()
    .from(events)
    .where(and(eq(events.id, input.eventId), eq(events.partnerId, input.partnerId), eq(events.environment, input.environment)));
  if (!row) throw new AppError("not_found", `event ${input.eventId} not found`);
  return row;
}

function typeFilter(types: string[] | undefined): SQL | undefined {
  if (!types?.length) return undefined;
  return or(...types.map((t) => (t.endsWith(".*") ? like(events.type, `${t.slice(0, -1)}%`) : sql`${events.type} = ${t}`)));
}

/** The event as partners see it, in GET /events and in webhook bodies. */
export function serializeEvent(row: EventRow) {
  return {
    id: row.id,
    type: row.type,
    created_at: row.createdAt.toISOString(),
    partner_id: row.partnerId,
    data: row.data,
  };
}
