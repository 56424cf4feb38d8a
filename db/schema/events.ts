import { bigint, boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, environment, updatedAt } from "./columns";
import { partners } from "./partners";

/**
 * The event outbox and history: written in the same transaction as the change
 * that causes it, read by GET /events and by the delivery worker.
 */
export const events = pgTable(
  "events",
  {
    id: text().primaryKey(), // "evt_...", the public cursor
    seq: bigint({ mode: "number" }).notNull().generatedAlwaysAsIdentity(),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    type: text().notNull(),
    data: jsonb().notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.seq), index().on(t.partnerId, t.environment, t.seq)],
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
    active: boolean().notNull().default(true),
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
    status: text().notNull().default("pending"), // pending | succeeded | failed
    attemptCount: integer().notNull().default(0),
    nextAttemptAt: at(),
    lastError: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.status, t.nextAttemptAt), uniqueIndex().on(t.eventId, t.endpointId)],
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
  (t) => [index().on(t.deliveryId)],
);

