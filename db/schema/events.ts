import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, environment, updatedAt } from "./columns";
import type { EventType } from "@/server/webhooks/catalog";
import { partners } from "./partners";

/**
 * The event outbox and history: written in the same transaction as the change
 * that causes it, read by GET /events and by the delivery worker.
 *
 * `seq` is the public order. It is not taken at insert: transactions commit out
 * of order, so a sequence taken at insert would let a reader that already saw 42
 * miss a 41 committed later. The sequencer (server/services/events.ts) gives
 * committed events their `seq` in one serialized place, so `seq` only grows in
 * the order events become visible, and paging by it never skips or repeats.
 */
export const events = pgTable(
  "events",
  {
    id: text().primaryKey(), // "evt_...", the public cursor
    seq: bigint({ mode: "number" }),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    type: text().$type<EventType>().notNull(),
    data: jsonb().$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex().on(t.seq),
    index().on(t.partnerId, t.environment, t.seq),
    index("events_unsequenced").on(t.createdAt).where(sql`${t.seq} is null`),
    // The events an order caused (the dashboard's order view): data.order.public_id.
    index("events_order_public_id").on(sql`(${t.data} -> 'order' ->> 'public_id')`),
  ],
);

/** One endpoint per partner and environment; PUT replaces it. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: text().primaryKey(),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    url: text().notNull(),
    secretSealed: text().notNull(),
    /** The secret before the last roll: deliveries are signed with both until it expires. */
    previousSecretSealed: text(),
    previousSecretExpiresAt: at(),
    active: boolean().notNull().default(true),
    /** Why it is inactive: `partner` (turned off) or `failing` (auto-disabled). */
    disabledReason: text(),
    disabledAt: at(),
    /** Start of the current unbroken run of failed attempts; null after any success. */
    failingSince: at(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex().on(t.partnerId, t.environment)],
);

export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: text().primaryKey(),
    eventId: text()
      .notNull()
      .references(() => events.id),
    endpointId: text()
      .notNull()
      .references(() => webhookEndpoints.id),
    status: text().notNull().default("pending"), // pending | delivering (claimed: next_attempt_at is the lease expiry) | succeeded | failed
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: at(),
    lastError: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.status, t.nextAttemptAt), uniqueIndex().on(t.eventId, t.endpointId), index().on(t.endpointId, t.createdAt)],
);

/** Every delivery attempt, for the dashboard's delivery log. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    deliveryId: text()
      .notNull()
      .references(() => webhookDeliveries.id),
    url: text().notNull(),
    responseStatus: integer(),
    latencyMs: integer(),
    error: text(),
    responseBody: text(),
    attemptedAt: createdAt(),
  },
  // attempted_at: the console's health screen reads the last 24 hours of attempts.
  (t) => [index().on(t.deliveryId), index().on(t.attemptedAt)],
);

