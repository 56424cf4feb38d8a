import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgEnum, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, currency, environment, money, updatedAt } from "./columns";
import { domains } from "./inventory";
import { credentials, partners } from "./partners";

export const orderStatus = pgEnum("order_status", [
  "EXTERNALLY_PAID",
  "PAID",
  "MANUAL_REVIEW",
  "TRANSFER_IN_PROGRESS",
  "TRANSFER_COMPLETED",
  "SETTLED",
  "REFUNDED",
  "CANCELLED",
]);

/** How the buyer paid: the partner as merchant of record, or hosted checkout. */
export const saleChannel = pgEnum("sale_channel", ["mor", "checkout", "marketplace"]);

/** A firm price held for ten minutes; the token given out is signed, this row is the reservation. */
export const quotes = pgTable(
  "quotes",
  {
    id: text().primaryKey(),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    domainId: text()
      .notNull()
      .references(() => domains.id),
    domain: text().notNull(),
    salePriceCents: money().notNull(),
    currency: currency(),
    expiresAt: at().notNull(),
    orderId: text(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.domainId, t.expiresAt), index().on(t.partnerId, t.environment, t.expiresAt)],
);

export const orders = pgTable(
  "orders",
  {
    id: text().primaryKey(), // the public_id, "ord_..."
    partnerId: text().references(() => partners.id), // null for a direct marketplace sale
    environment: environment().notNull(),
    credentialId: text().references(() => credentials.id),
    domainId: text()
      .notNull()
      .references(() => domains.id),
    domain: text().notNull(),
    status: orderStatus().notNull(),
    channel: saleChannel().notNull(),
    salePriceCents: money().notNull(),
    currency: currency(),
    commissionBps: integer().notNull(),
    commissionCents: money().notNull(),
    buyerEmail: text().notNull(),
    buyerName: text(),
    buyerCountry: text(),
    returnUrl: text(),
    cancelUrl: text(),
    quoteId: text(),
    externalPaymentRef: text(),
    checkoutSessionId: text(),
    referralLinkId: text(),
    settlementId: text(),
    transferCompletedAt: at(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // Keyset paging of GET /orders, the dashboard list and its CSV export: (created_at, id) descending.
    index().on(t.partnerId, t.environment, t.createdAt, t.id),
    // GET /transactions pages by id alone (ids sort by creation time).
    index().on(t.partnerId, t.environment, t.id),
    index().on(t.partnerId, t.environment, t.status),
    // The dashboard's domain search (substring, ILIKE '%term%').
    index("orders_domain_trgm").using("gin", sql`${t.domain} gin_trgm_ops`),
    index().on(t.transferCompletedAt),
    // At most one live sale per listing: refunded and cancelled orders release it.
    uniqueIndex("orders_one_active_per_domain")
      .on(t.domainId)
      .where(sql`${t.status} not in ('REFUNDED', 'CANCELLED')`),
  ],
);

/** The status timeline of GET /orders/{public_id}. */
export const orderTimeline = pgTable(
  "order_timeline",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    status: orderStatus().notNull(),
    note: text(),
    actor: text(),
    at: createdAt(),
  },
  (t) => [index().on(t.orderId, t.id)],
);

/** Idempotency-Key records, scoped to partner and environment, kept 24 h. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    partnerId: text().notNull(),
    environment: environment().notNull(),
    key: text().notNull(),
    fingerprint: text().notNull(), // sha256 of the raw body
    state: text().notNull(), // in_progress | completed
    responseStatus: integer(),
    responseBody: jsonb(),
    createdAt: createdAt(),
    expiresAt: at().notNull(),
  },
  (t) => [primaryKey({ columns: [t.partnerId, t.environment, t.key] }), index().on(t.expiresAt)],
);

export const refunds = pgTable(
  "refunds",
  {
    id: text().primaryKey(),
    orderId: text()
      .notNull()
      .references(() => orders.id),
    partnerId: text(),
    environment: environment().notNull(),
    amountCents: money().notNull(),
    currency: currency(),
    reason: text(),
    /** pending while the processor refund of a collected sale is being made; succeeded after. */
    status: text().notNull().default("succeeded"),
    requestedBy: text().notNull(), // partner | admin
    /** The processor's refund id, for a sale the service collected (null for a partner's own MoR sale). */
    providerRef: text(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.partnerId, t.environment, t.createdAt), index().on(t.orderId)],
);

/**
 * A hosted-checkout session: a partner's link (non-MoR sale; the `pt` token is
 * signed and names this row) or a buy-now from the storefront (no partner; a
 * referral link may be attributed instead).
 */
export const checkoutSessions = pgTable(
  "checkout_sessions",
  {
    id: text().primaryKey(),
    partnerId: text().references(() => partners.id),
    referralLinkId: text(),
    /** Hashed visitor id of the attribution cookie, for referral sales. */
    visitorId: text(),
    environment: environment().notNull(),
    domainId: text()
      .notNull()
      .references(() => domains.id),
    domain: text().notNull(),
    salePriceCents: money().notNull(),
    currency: currency(),
    returnUrl: text(),
    cancelUrl: text(),
    status: text().notNull().default("open"), // open | completed | expired
    orderId: text(),
    expiresAt: at().notNull(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.partnerId, t.environment, t.createdAt)],
);

/** Charges made through the payment-provider interface. */
export const payments = pgTable(
  "payments",
  {
    id: text().primaryKey(),
    checkoutSessionId: text(),
    orderId: text(),
    environment: environment().notNull(),
    provider: text().notNull(),
    providerRef: text(),
    idempotencyKey: text().notNull().unique(),
    amountCents: money().notNull(),
    currency: currency(),
    // pending (intent committed before the charge) | succeeded | declined | failed (abandoned) | refunded
    status: text().notNull(),
    failureCode: text(),
    data: jsonb().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index().on(t.checkoutSessionId),
    index("payments_pending").on(t.createdAt).where(sql`${t.status} = 'pending'`),
    // Processor notifications name the intent (Stripe's pi_...): found by it.
    index("payments_provider_ref").on(t.provider, t.providerRef),
  ],
);

/**
 * Processor notifications already handled (Stripe event ids): a redelivery is
 * acknowledged without acting again. The intent or dispute row is the second
 * guard, so two concurrent first deliveries still act once.
 */
export const processorEvents = pgTable("processor_events", {
  id: text().primaryKey(),
  provider: text().notNull(),
  type: text().notNull(),
  receivedAt: createdAt(),
});

/** A chargeback of a hosted-checkout sale (Stripe's dp_...), its order held until it closes. */
export const paymentDisputes = pgTable(
  "payment_disputes",
  {
    id: text().primaryKey(), // the processor's dispute id
    provider: text().notNull(),
    paymentId: text()
      .notNull()
      .references(() => payments.id),
    orderId: text().notNull(),
    status: text().notNull(), // open | won | lost
    reason: text().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.orderId)],
);
