import { and, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Database, Db } from "@/db/client";
import { advisoryLocks } from "@/db/locks";
import { events, webhookAttempts, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { clock } from "@/server/clock";
import { openSecret, sealSecret } from "@/server/crypto";
import { AppError, notFound } from "@/server/errors";
import { newId } from "@/server/ids";
import { eventTypes, type EventType } from "@/server/webhooks/catalog";
import { recordAudit } from "./audit";
import { completedCasePayload } from "./brokerage";
import { recordEvent, sequenceEvents, serializeEvent } from "./events";
import { serializeOrderSummary } from "./order-states";
import type { Actor } from "./partners";
import {
  generateWebhookSecret,
  getWebhookEndpointOrThrow,
  saveWebhookEndpoint,
  wakeWorkers,
  webhookSecretContext,
  type EndpointOwner,
  type WebhookEndpointRow,
} from "./webhooks";

// The webhook endpoint as the dashboard and the CLI manage it, beyond the REST
// API's PUT/GET/DELETE: secrets the service picks, revealed on demand and rolled
// with a grace; test events; the delivery log with resends; auto-disable after
// sustained failure and re-enabling.

/** An endpoint whose every attempt has failed for this long is disabled. */
export const AUTO_DISABLE_AFTER_MS = 3 * 86_400_000;
export const secretGraces = { none: 0, "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;
export type SecretGrace = keyof typeof secretGraces;

export function serializeConsoleEndpoint(row: WebhookEndpointRow) {
  const now = clock.nowMs();
  return {
    id: row.id,
    url: row.url,
    active: row.active,
    disabledReason: row.disabledReason as "partner" | "failing" | null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    failingSince: row.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > now ? row.previousSecretExpiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Sets the URL; a new endpoint gets a generated secret, an existing one keeps its own. */
export async function setEndpointUrl(db: Database, input: EndpointOwner & { url: string }, actor: Actor) {
  const existing = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.partnerId, input.partnerId), eq(webhookEndpoints.environment, input.environment)));
  const current = existing[0];
  const secret = current ? openSecret(current.secretSealed, webhookSecretContext(input)) : generateWebhookSecret();
  const row = await saveWebhookEndpoint(db, { ...input, secret }, actor);
  if (current?.previousSecretSealed) {
    // saveWebhookEndpoint ends a grace (the REST PUT replaces the secret); a URL change should not.
    await db
      .update(webhookEndpoints)
      .set({ previousSecretSealed: current.previousSecretSealed, previousSecretExpiresAt: current.previousSecretExpiresAt })
      .where(eq(webhookEndpoints.id, row.id));
  }
  return serializeConsoleEndpoint({ ...row, previousSecretSealed: current?.previousSecretSealed ?? null, previousSecretExpiresAt: current?.previousSecretExpiresAt ?? null });
}

/** The signing secret in clear, for the partner to copy. Audited: a reveal is a read of a secret. */
export async function revealEndpointSecret(db: Db, owner: EndpointOwner, actor: Actor) {
  const row = await getWebhookEndpointOrThrow(db, owner);
  await recordAudit(db, actor, { action: "webhook_endpoint.secret_revealed", targetType: "webhook_endpoint", targetId: row.id, ...owner });
  return { secret: openSecret(row.secretSealed, webhookSecretContext(owner)) };
}

/** A new secret; during the grace every delivery carries both signatures (see server/webhooks/signing.ts). */
export async function rollEndpointSecret(db: Database, input: EndpointOwner & { grace: SecretGrace }, actor: Actor) {
  if (!(input.grace in secretGraces)) throw new AppError("validation_error", `grace must be one of ${Object.keys(secretGraces).join(", ")}`);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.partnerId, input.partnerId), eq(webhookEndpoints.environment, input.environment)))
      .for("update");
    if (!row) throw notFound("webhook endpoint");
    const now = clock.now();
    const graceMs = secretGraces[input.grace];
    const secret = generateWebhookSecret();
    const previousSecretExpiresAt = graceMs > 0 ? new Date(now.getTime() + graceMs) : null;
    const [updated] = await tx
      .update(webhookEndpoints)
      .set({
        secretSealed: sealSecret(secret, webhookSecretContext(input)),
        previousSecretSealed: graceMs > 0 ? row.secretSealed : null,
        previousSecretExpiresAt,
        updatedAt: now,
      })
      .where(eq(webhookEndpoints.id, row.id))
      .returning();
    await recordAudit(tx, actor, {
      action: "webhook_endpoint.secret_rolled",
      targetType: "webhook_endpoint",
      targetId: row.id,
      partnerId: input.partnerId,
      environment: input.environment,
      data: { grace: input.grace },
    }, now);
    return { secret, endpoint: serializeConsoleEndpoint(updated!) };
  });
}

// --- test events ------------------------------------------------------------------

const orderStatusFor: Partial<Record<EventType, string>> = {
  "order.recorded": "EXTERNALLY_PAID",
  "order.paid": "PAID",
  "order.manual_review_cleared": "EXTERNALLY_PAID",
  "order.transfer_started": "TRANSFER_IN_PROGRESS",
  "order.transfer_completed": "TRANSFER_COMPLETED",
  "order.settled": "SETTLED",
  "order.refunded": "REFUNDED",
  "order.disputed": "MANUAL_REVIEW",
  "order.dispute_won": "PAID",
  "order.refund_failed": "MANUAL_REVIEW",
};

/** The `data` of a test event, built by the same serializers as real events, marked `test: true`. */
export function testEventData(type: EventType, endpoint: WebhookEndpointRow): Record<string, unknown> {
  const now = clock.now();
  const status = orderStatusFor[type];
  if (status) {
    const order = { id: newId("order", now.getTime()), domain: "test-order-example.com", status, salePriceCents: 250_000, currency: "USD" };
    return { test: true, order: serializeOrderSummary(order as Parameters<typeof serializeOrderSummary>[0]) };
  }
  if (type === "brokerage.case_completed") {
    const row = { id: newId("brokerageCase", now.getTime()), domain: "test-brokerage-example.com", status: "COMPLETED", finalPriceCents: 1_500_000, currency: "USD", partnerShareCents: 60_000 };
    return { test: true, case: completedCasePayload(row as Parameters<typeof completedCasePayload>[0]) };
  }
  return { test: true, endpoint: endpointDisabledPayload({ ...endpoint, disabledAt: now, failingSince: new Date(now.getTime() - AUTO_DISABLE_AFTER_MS) }) };
}

export function endpointDisabledPayload(row: Pick<WebhookEndpointRow, "url" | "disabledAt" | "failingSince">) {
  return {
    url: row.url,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    failing_since: row.failingSince?.toISOString() ?? null,
    reason: "every delivery attempt failed for 3 days",
  };
}

/** Records a test event of `type`; the worker delivers it like any other. */
export async function sendTestEvent(db: Database, input: EndpointOwner & { type: EventType }, actor: Actor) {
  if (!eventTypes.includes(input.type)) throw new AppError("validation_error", `unknown event type ${input.type}`);
  const endpoint = await getWebhookEndpointOrThrow(db, input);
  if (!endpoint.active) throw new AppError("conflict", "the endpoint is disabled; enable it before sending a test event");
  const event = await db.transaction(async (tx) => {
    const row = await recordEvent(tx, { partnerId: input.partnerId, environment: input.environment, type: input.type, data: testEventData(input.type, endpoint) });
    await recordAudit(tx, actor, { action: "webhook_endpoint.test_event_sent", targetType: "event", targetId: row.id, partnerId: input.partnerId, environment: input.environment, data: { type: input.type } });
    return row;
  });
  await wakeWorkers(db);
  return serializeEvent(event);
}

// --- the delivery log -------------------------------------------------------------

export interface ListDeliveriesInput extends EndpointOwner {
  status?: "pending" | "delivering" | "succeeded" | "failed";
  type?: string;
  from?: Date;
  to?: Date;
  eventId?: string;
  /** Cursor: created_at|id of the last row of the previous page. */
  before?: string;
  limit: number;
}

export async function listDeliveries(db: Db, input: ListDeliveriesInput) {
  const cursor = input.before ? parseCursor(input.before) : undefined;
  const rows = await db.execute<{
    id: string;
    event_id: string;
    type: string;
    status: string;
    attempt_count: number;
    next_attempt_at: string | null;
    last_error: string | null;
    created_at: string;
    url: string;
    response_status: number | null;
    latency_ms: number | null;
    response_body: string | null;
    attempted_at: string | null;
  }>(sql`
    select d.id, d.event_id, e.type, d.status, d.attempt_count, d.next_attempt_at, d.last_error, d.created_at, w.url,
           a.response_status, a.latency_ms, left(a.response_body, 300) as response_body, a.attempted_at
    from webhook_deliveries d
    join webhook_endpoints w on w.id = d.endpoint_id
    join events e on e.id = d.event_id
    left join lateral (
      select response_status, latency_ms, response_body, attempted_at from webhook_attempts
      where delivery_id = d.id order by id desc limit 1
    ) a on true
    where w.partner_id = ${input.partnerId} and w.environment = ${input.environment}
      ${input.status ? sql`and d.status = ${input.status}` : sql``}
      ${input.type ? sql`and e.type = ${input.type}` : sql``}
      ${input.eventId ? sql`and d.event_id = ${input.eventId}` : sql``}
      ${input.from ? sql`and d.created_at >= ${input.from.toISOString()}::timestamptz` : sql``}
      ${input.to ? sql`and d.created_at <= ${input.to.toISOString()}::timestamptz` : sql``}
      ${cursor ? sql`and (d.created_at, d.id) < (${cursor.at}::timestamptz, ${cursor.id})` : sql``}
    order by d.created_at desc, d.id desc
    limit ${input.limit + 1}`);
  const page = rows.slice(0, input.limit);
  const last = page.at(-1);
  return {
    deliveries: page.map((r) => ({
      id: r.id,
      eventId: r.event_id,
      type: r.type,
      status: r.status as ListDeliveriesInput["status"] & string,
      attempts: r.attempt_count,
      nextAttemptAt: r.status === "pending" && r.next_attempt_at ? new Date(r.next_attempt_at).toISOString() : null,
      lastError: r.last_error,
      url: r.url,
      responseStatus: r.response_status,
      latencyMs: r.latency_ms,
      responseExcerpt: r.response_body,
      lastAttemptAt: r.attempted_at ? new Date(r.attempted_at).toISOString() : null,
      createdAt: new Date(r.created_at).toISOString(),
    })),
    nextCursor: rows.length > input.limit && last ? `${new Date(last.created_at).toISOString()}|${last.id}` : null,
  };
}

function parseCursor(text: string): { at: string; id: string } {
  const [at = "", id = ""] = text.split("|");
  if (Number.isNaN(Date.parse(at)) || !id.startsWith("whd_")) throw new AppError("validation_error", "cursor is not one this list returned");
  return { at: new Date(at).toISOString(), id };
}

/** One delivery with every attempt, for the detail view. */
export async function getDeliveryOrThrow(db: Db, input: EndpointOwner & { deliveryId: string }) {
  const [row] = await db
    .select({ delivery: webhookDeliveries, event: events })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(events, eq(events.id, webhookDeliveries.eventId))
    .where(and(eq(webhookDeliveries.id, input.deliveryId), eq(webhookEndpoints.partnerId, input.partnerId), eq(webhookEndpoints.environment, input.environment)));
  if (!row) throw notFound("webhook delivery");
  const attempts = await db.select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, row.delivery.id)).orderBy(desc(webhookAttempts.id)).limit(50);
  return {
    id: row.delivery.id,
    status: row.delivery.status,
    attempts: row.delivery.attemptCount,
    nextAttemptAt: row.delivery.status === "pending" ? (row.delivery.nextAttemptAt?.toISOString() ?? null) : null,
    lastError: row.delivery.lastError,
    event: serializeEvent(row.event),
    attemptLog: attempts.map((a) => ({
      at: a.attemptedAt.toISOString(),
      url: a.url,
      responseStatus: a.responseStatus,
      latencyMs: a.latencyMs,
      error: a.error,
      responseBody: a.responseBody,
    })),
  };
}

/**
 * Sends again every event of the window whose delivery failed. Idempotent:
 * deliveries already pending, in flight or delivered are left alone, so pressing
 * twice sends nothing twice.
 */
export async function resendFailed(db: Database, input: EndpointOwner & { from: Date; to: Date }, actor: Actor) {
  if (input.to < input.from) throw new AppError("validation_error", "the window ends before it starts");
  const endpoint = await getWebhookEndpointOrThrow(db, input);
  if (!endpoint.active) throw new AppError("conflict", "the endpoint is disabled; enable it first");
  await sequenceEvents(db); // events committed a moment ago count too
  const resent = await queueResends(db, endpoint.id, input);
  await recordAudit(db, actor, {
    action: "webhook_endpoint.resent_failed",
    targetType: "webhook_endpoint",
    targetId: endpoint.id,
    ...input,
    data: { from: input.from.toISOString(), to: input.to.toISOString(), resent },
  });
  if (resent > 0) await wakeWorkers(db);
  return { resent };
}

/**
 * Queues a delivery to the endpoint for every sequenced event of the window
 * (`to` open: up to the last one sequenced) whose delivery failed, and with
 * `includeUndelivered` for every one that has no delivery to it (it came while
 * the endpoint was off). Returns how many it queued.
 */
async function queueResends(db: Db, endpointId: string, input: EndpointOwner & { from: Date; to?: Date; includeUndelivered?: boolean }) {
  const now = clock.now().toISOString();
  const rows = await db.execute<{ id: string }>(sql`
    insert into webhook_deliveries (id, event_id, endpoint_id, status, next_attempt_at)
    select 'whd_' || substr(e.id, 5) || '_' || substr(${endpointId}, 4), e.id, ${endpointId}, 'pending', ${now}::timestamptz
    from events e
    where e.partner_id = ${input.partnerId} and e.environment = ${input.environment} and e.seq is not null
      and e.created_at >= ${input.from.toISOString()}::timestamptz
      ${input.to ? sql`and e.created_at <= ${input.to.toISOString()}::timestamptz` : sql``}
      and ${input.includeUndelivered ? sql`true` : sql`exists (select 1 from webhook_deliveries x where x.event_id = e.id and x.endpoint_id = ${endpointId})`}
    on conflict (event_id, endpoint_id) do update
      set status = 'pending', attempt_count = 0, next_attempt_at = excluded.next_attempt_at, last_error = null, updated_at = ${now}::timestamptz
      where webhook_deliveries.status = 'failed'
    returning id`);
  return rows.length;
}

// --- auto-disable and re-enable -----------------------------------------------------

/**
 * The worker's bookkeeping after each attempt: a success clears the failure
 * run; a failure starts it, and one that comes AUTO_DISABLE_AFTER_MS after the
 * run began disables the endpoint (with an event and an audit row). Returns true
 * when this attempt disabled it.
 */
export async function noteAttemptOutcome(db: Database, input: { endpointId: string; ok: boolean; now: Date }): Promise<boolean> {
  if (input.ok) {
    await db.update(webhookEndpoints).set({ failingSince: null }).where(and(eq(webhookEndpoints.id, input.endpointId), sql`${webhookEndpoints.failingSince} is not null`));
    return false;
  }
  const [row] = await db
    .update(webhookEndpoints)
    .set({ failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${input.now.toISOString()}::timestamptz)` })
    .where(and(eq(webhookEndpoints.id, input.endpointId), eq(webhookEndpoints.active, true)))
    .returning();
  if (!row?.failingSince || input.now.getTime() - row.failingSince.getTime() < AUTO_DISABLE_AFTER_MS) return false;
  return db.transaction(async (tx) => {
    const [disabled] = await tx
      .update(webhookEndpoints)
      .set({ active: false, disabledReason: "failing", disabledAt: input.now, updatedAt: input.now })
      .where(and(eq(webhookEndpoints.id, row.id), eq(webhookEndpoints.active, true)))
      .returning();
    if (!disabled) return false;
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, lastError: "endpoint disabled after failing for 3 days", updatedAt: input.now })
      .where(and(eq(webhookDeliveries.endpointId, row.id), inArray(webhookDeliveries.status, ["pending", "delivering"])));
    await recordEvent(tx, { partnerId: row.partnerId, environment: row.environment, type: "webhook_endpoint.disabled", data: { endpoint: endpointDisabledPayload(disabled) } });
    await recordAudit(tx, { type: "system" }, {
      action: "webhook_endpoint.auto_disabled",
      targetType: "webhook_endpoint",
      targetId: row.id,
      partnerId: row.partnerId,
      environment: row.environment,
      data: { failing_since: row.failingSince?.toISOString() },
    }, input.now);
    return true;
  });
}

/**
 * Turns the endpoint back on; with `resend`, what failed or was missed while it
 * was off goes out again. The resend happens under the event sequencer's lock
 * and before the endpoint is active again: every event sequenced while it was
 * off is queued here, every later one by the sequencer's own fan-out, so none is
 * missed or counted twice and `resent` is exactly what this call queued.
 */
export async function enableEndpoint(db: Database, input: EndpointOwner & { resend: boolean }, actor: Actor) {
  const enabled = await db.transaction(async (tx) => {
    if (input.resend) await tx.execute(sql`select pg_advisory_xact_lock(${advisoryLocks.eventSequencer})`);
    const before = await getWebhookEndpointOrThrow(tx, input);
    if (before.active) return { endpoint: serializeConsoleEndpoint(before), resent: 0 };
    const now = clock.now();
    let resent = 0;
    if (input.resend) {
      await sequenceEvents(tx); // fans out to the endpoint's peers only: it is still off
      // From the oldest event whose delivery failed during the failure run (it may predate the run's start).
      const since = before.failingSince ?? before.disabledAt ?? now;
      const [oldest] = await tx.execute<{ at: string | null }>(sql`
        select min(e.created_at) as at from webhook_deliveries d join events e on e.id = d.event_id
        where d.endpoint_id = ${before.id} and d.status = 'failed' and d.updated_at >= ${since.toISOString()}::timestamptz`);
      const from = oldest?.at && new Date(oldest.at) < since ? new Date(oldest.at) : since;
      resent = await queueResends(tx, before.id, { ...input, from, includeUndelivered: true });
    }
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ active: true, disabledReason: null, disabledAt: null, failingSince: null, updatedAt: now })
      .where(eq(webhookEndpoints.id, before.id))
      .returning();
    await recordAudit(tx, actor, { action: "webhook_endpoint.enabled", targetType: "webhook_endpoint", targetId: before.id, ...input, data: { resend: input.resend, resent } }, now);
    return { endpoint: serializeConsoleEndpoint(row!), resent };
  });
  if (enabled.resent > 0) await wakeWorkers(db);
  return enabled;
}

/**
 * Delivery counts by delivery creation time: the last 24 hours for the endpoint
 * card, or a window (`from` inclusive, `to` exclusive) for the home figures.
 */
export async function deliveryStats(db: Db, owner: EndpointOwner, window?: { from: Date; to: Date }) {
  const since = window?.from ?? new Date(clock.nowMs() - 86_400_000);
  const rows = await db
    .select({ status: webhookDeliveries.status, n: sql<number>`count(*)::int` })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        eq(webhookEndpoints.partnerId, owner.partnerId),
        eq(webhookEndpoints.environment, owner.environment),
        gte(webhookDeliveries.createdAt, since),
        window ? lt(webhookDeliveries.createdAt, window.to) : undefined,
      ),
    )
    .groupBy(webhookDeliveries.status);
  const by = new Map(rows.map((r) => [r.status, r.n]));
  return { succeeded: by.get("succeeded") ?? 0, failed: by.get("failed") ?? 0, pending: (by.get("pending") ?? 0) + (by.get("delivering") ?? 0) };
}

