import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { sealSecret } from "@/server/crypto";
import { getEnv } from "@/server/env";
import { AppError } from "@/server/errors";
import { newId, randomBase62 } from "@/server/ids";
import { BlockedAddressError, findBlockedAddress, hostOf, resolveHost } from "@/server/webhooks/ssrf";
import type { Actor } from "./partners";
import { recordAudit } from "./audit";

// Webhook endpoints (one per partner and environment) and the replay of
// deliveries. Delivery itself is the worker's (server/webhooks/worker.ts).

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export interface EndpointOwner {
  partnerId: string;
  environment: Environment;
}

/** The sealed secret is bound to its partner and environment, so it opens on no other row. */
export function webhookSecretContext(owner: EndpointOwner): string {
  return `webhook_endpoint:${owner.partnerId}:${owner.environment}`;
}

export const URL_MAX_LENGTH = 2048;

const invalidUrl = (message: string) => new AppError("validation_error", `url: ${message}`, [{ path: "url", message }]);

/**
 * The URL rules of DECISIONS "Webhooks": absolute http(s), https in live, no
 * credentials or fragment, and every address the host resolves to must be
 * public unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set. The worker checks the
 * address again when it connects, so a name that later resolves elsewhere is
 * still refused.
 */
export async function validateWebhookUrl(
  raw: string,
  environment: Environment,
  allowPrivateTargets = getEnv().WEBHOOK_ALLOW_PRIVATE_TARGETS,
): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw invalidUrl("must be an absolute URL such as https://example.com/webhooks");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidUrl("must use https (or http in sandbox)");
  if (url.username || url.password) throw invalidUrl("must not contain a username or password");
  if (url.hash) throw invalidUrl("must not contain a fragment (#...)");
  if (url.href.length > URL_MAX_LENGTH) throw invalidUrl(`must be at most ${URL_MAX_LENGTH} characters`);
  const host = hostOf(url);
  let addresses: string[];
  try {
    addresses = await resolveHost(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw invalidUrl(`host ${host} could not be resolved${code ? ` (${code})` : ""}`);
  }
  if (addresses.length === 0) throw invalidUrl(`host ${host} has no address`);
  const blocked = findBlockedAddress(addresses);
  if (blocked && !allowPrivateTargets) throw invalidUrl(new BlockedAddressError(host, blocked.address, blocked.kind).message);
  // Plain http in live only for a loopback receiver in development (DECISIONS "Webhooks").
  const loopbackOnly = addresses.every((a) => findBlockedAddress([a])?.kind === "loopback");
  if (environment === "live" && url.protocol === "http:" && !(allowPrivateTargets && loopbackOnly)) {
    throw invalidUrl("must use https for live webhooks");
  }
  return url.href;
}

export interface RegisterWebhookInput extends EndpointOwner {
  url: string;
  secret: string;
}

/** A signing secret the service picks (dashboard endpoints and rolls). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBase62(40)}`;
}

/** Registers the partner's endpoint for this environment, or replaces its URL and secret. */
export async function saveWebhookEndpoint(db: Db, input: RegisterWebhookInput, actor: Actor) {
  const url = await validateWebhookUrl(input.url, input.environment);
  const now = clock.now();
  const owner = { partnerId: input.partnerId, environment: input.environment };
  const secretSealed = sealSecret(input.secret, webhookSecretContext(owner));
  return db.transaction(async (tx) => {
    // Pending deliveries follow the endpoint to its new URL: the row (and its id) is kept.
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ id: newId("webhookEndpoint", now.getTime()), ...owner, url, secretSealed, active: true, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [webhookEndpoints.partnerId, webhookEndpoints.environment],
        // Replacing the secret here is immediate (the REST contract): any grace of a roll ends.
        set: { url, secretSealed, active: true, disabledReason: null, disabledAt: null, failingSince: null, previousSecretSealed: null, previousSecretExpiresAt: null, updatedAt: now },
      })
      .returning();
    if (!row) throw new Error("webhook endpoint upsert returned no row");
    await recordAudit(tx, actor, {
      action: "webhook_endpoint.registered",
      targetType: "webhook_endpoint",
      targetId: row.id,
      ...owner,
      data: { url }, // never the secret
    }, now);
    return row;
  });
}

export async function findWebhookEndpoint(db: Db, owner: EndpointOwner): Promise<WebhookEndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.partnerId, owner.partnerId), eq(webhookEndpoints.environment, owner.environment)));
  return row;
}

export async function getWebhookEndpointOrThrow(db: Db, owner: EndpointOwner): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(db, owner);
  if (!row) throw new AppError("not_found", "no webhook endpoint is registered for this environment; register one with PUT");
  return row;
}

/**
 * Stops deliveries to the endpoint. Deliveries still waiting (or orphaned by a
 * worker that died mid-request) are marked failed; a request in flight at this
 * moment still completes, but its outcome no longer changes the row. The events
 * stay in GET /events and can be replayed once an endpoint is active again.
 */
export async function disableWebhookEndpoint(db: Db, owner: EndpointOwner, actor: Actor): Promise<WebhookEndpointRow> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(webhookEndpoints)
      .set({ active: false, disabledReason: "partner", disabledAt: now, updatedAt: now })
      .where(and(eq(webhookEndpoints.partnerId, owner.partnerId), eq(webhookEndpoints.environment, owner.environment)))
      .returning();
    if (!row) throw new AppError("not_found", "no webhook endpoint is registered for this environment");
    await tx
      .update(webhookDeliveries)
      .set({ status: "failed", nextAttemptAt: null, lastError: "endpoint deactivated", updatedAt: now })
      .where(and(eq(webhookDeliveries.endpointId, row.id), inArray(webhookDeliveries.status, ["pending", "delivering"])));
    await recordAudit(tx, actor, {
      action: "webhook_endpoint.deactivated",
      targetType: "webhook_endpoint",
      targetId: row.id,
      ...owner,
      data: {},
    }, now);
    return row;
  });
}

/** The endpoint as partners see it: never the secret. */
export function serializeWebhookEndpoint(row: WebhookEndpointRow) {
  return {
    url: row.url,
    active: row.active,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

// --- replay ---------------------------------------------------------------------

const deliveryIdFor = (eventId: string, endpointId: string) => `whd_${eventId.slice(4)}_${endpointId.slice(3)}`;

/** Wakes the delivery workers (LISTEN pdm_events): a delivery was queued outside the sequencer. */
export async function wakeWorkers(db: Db) {
  await db.execute(sql`select pg_notify('pdm_events', '')`);
}

/**
 * Sends a delivery again from the start of the retry schedule (dashboard and
 * CLI). `owner` limits it to one partner's deliveries; staff pass none.
 */
export async function replayDelivery(db: Db, input: { deliveryId: string; owner?: EndpointOwner }, actor: Actor = { type: "system" }) {
  const now = clock.now();
  const ownerFilter = input.owner
    ? sql`and w.partner_id = ${input.owner.partnerId} and w.environment = ${input.owner.environment}`
    : sql``;
  const rows = await db.execute<{ id: string; status: string; active: boolean }>(sql`
    select d.id, d.status, w.active from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id
    where d.id = ${input.deliveryId} ${ownerFilter}`);
  const current = rows[0];
  if (!current) throw new AppError("not_found", `webhook delivery ${input.deliveryId} not found`);
  if (!current.active) throw new AppError("conflict", "the endpoint is disabled; enable it before resending");
  if (current.status === "delivering") throw new AppError("conflict", "this delivery is being attempted right now");
  const [row] = await db
    .update(webhookDeliveries)
    .set({ status: "pending", attemptCount: 0, nextAttemptAt: now, lastError: null, updatedAt: now })
    .where(and(eq(webhookDeliveries.id, input.deliveryId), sql`${webhookDeliveries.status} <> 'delivering'`))
    .returning();
  if (!row) throw new AppError("conflict", "this delivery is being attempted right now");
  if (input.owner) {
    await recordAudit(db, actor, { action: "webhook_delivery.resent", targetType: "webhook_delivery", targetId: row.id, ...input.owner }, now);
  }
  await wakeWorkers(db);
  return row;
}

/**
 * Sends an event of the partner to its current active endpoint again, creating
 * the delivery when the event predates the endpoint.
 */
export async function replayEvent(db: Db, input: EndpointOwner & { eventId: string }) {
  const now = clock.now();
  const [event] = await db
    .select({ id: events.id, seq: events.seq })
    .from(events)
    .where(and(eq(events.id, input.eventId), eq(events.partnerId, input.partnerId), eq(events.environment, input.environment)));
  if (!event) throw new AppError("not_found", `event ${input.eventId} not found`);
  const endpoint = await findWebhookEndpoint(db, input);
  if (!endpoint?.active) throw new AppError("conflict", "there is no active webhook endpoint to send the event to");
  const [row] = await db
    .insert(webhookDeliveries)
    .values({ id: deliveryIdFor(event.id, endpoint.id), eventId: event.id, endpointId: endpoint.id, status: "pending", nextAttemptAt: now })
    .onConflictDoUpdate({
      target: [webhookDeliveries.eventId, webhookDeliveries.endpointId],
      set: { status: "pending", attemptCount: 0, nextAttemptAt: now, lastError: null, updatedAt: now },
      setWhere: sql`${webhookDeliveries.status} <> 'delivering'`,
    })
    .returning();
  if (!row) throw new AppError("conflict", "this event is being delivered right now");
  await wakeWorkers(db);
  return row;
}
