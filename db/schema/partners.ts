import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { SignatureDebug } from "@/server/services/request-log";
import { at, createdAt, environment, updatedAt } from "./columns";

export const paymentModel = pgEnum("payment_model", ["mor", "non_mor"]);
export const userRole = pgEnum("user_role", ["partner", "admin", "customer"]);
/**
 * What a partner's staff member may do in the dashboard: owners everything,
 * developers the integration and the money, finance the money but not keys,
 * viewers only read. server/auth/partner-roles.ts holds the matrix.
 */
export const partnerRole = pgEnum("partner_role", ["owner", "developer", "finance", "viewer"]);

/** A company selling through the service. Commission rates are basis points. */
export const partners = pgTable("partners", {
  id: text().primaryKey(),
  name: text().notNull(),
  email: text().notNull(),
  paymentModel: paymentModel().notNull(),
  isAffiliate: boolean().notNull().default(false),
  liveApprovedAt: at(),
  saleCommissionBps: integer().notNull().default(1000),
  referralCommissionBps: integer().notNull().default(1000),
  brokerageShareBps: integer().notNull().default(2000),
  /** Set by staff: every key stops verifying at once (403 partner_suspended) until reinstated. */
  suspendedAt: at(),
  suspendedReason: text(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * People who sign in: partner staff (dashboard), admins (console) and
 * marketplace customers (OAuth sign-in, buyers).
 */
export const users = pgTable(
  "users",
  {
    id: text().primaryKey(),
    email: text().notNull(),
    name: text(),
    passwordHash: text().notNull(),
    role: userRole().notNull(),
    partnerId: text().references(() => partners.id),
    partnerRole: partnerRole().notNull().default("owner"),
    disabledAt: at(),
    /**
     * Carried in the session JWT and compared on every request: "sign out
     * everywhere" (and disabling, role changes) bump it, so a copied session
     * cookie stops working at once.
     */
    sessionVersion: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex("users_email_key").on(sql`lower(${t.email})`), index().on(t.partnerId)],
);

/** An API key pair. The secret is sealed (AES-256-GCM) because HMAC checks need it back. */
export const credentials = pgTable(
  "credentials",
  {
    id: text().primaryKey(),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    keyId: text().notNull().unique(),
    environment: environment().notNull(),
    secretSealed: text().notNull(),
    scopes: text().array().notNull(),
    label: text(),
    /** CIDR blocks the key may be used from; null means anywhere. */
    allowedCidrs: text().array(),
    /** The secret before the last roll, still accepted until previousSecretExpiresAt. */
    previousSecretSealed: text(),
    previousSecretExpiresAt: at(),
    rolledAt: at(),
    createdAt: createdAt(),
    lastUsedAt: at(),
    lastUsedIp: text(),
    revokedAt: at(),
  },
  (t) => [index().on(t.partnerId)],
);

/** Who did what, written in the same transaction as the change. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: text().primaryKey(),
    actorType: text().notNull(), // admin | partner | system | cli
    actorId: text(),
    action: text().notNull(),
    targetType: text(),
    targetId: text(),
    partnerId: text(),
    environment: environment(),
    data: jsonb().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.partnerId, t.createdAt), index().on(t.targetType, t.targetId)],
);

export const accessRequestStatus = pgEnum("access_request_status", ["pending", "approved", "declined"]);

/** A partner's request for production (live) access, decided by staff. */
export const productionAccessRequests = pgTable(
  "production_access_requests",
  {
    id: text().primaryKey(),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    status: accessRequestStatus().notNull().default("pending"),
    website: text().notNull(),
    useCase: text().notNull(),
    expectedMonthlyOrders: integer().notNull(),
    requestedBy: text().notNull(),
    decidedBy: text(),
    decisionNote: text(),
    decidedAt: at(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.partnerId, t.createdAt),
    // At most one open request per partner.
    uniqueIndex("production_access_requests_one_pending").on(t.partnerId).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * Signed partner requests, for the dashboard's request log (kept 30 days).
 * Written in batches off the request path (server/services/request-log.ts).
 * `debug` holds the signature debugger's findings, for sandbox keys only.
 */
export const requestLog = pgTable(
  "request_log",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    /** X-Request-Id as the partner saw it (theirs when well-formed, so not unique). */
    requestId: text().notNull(),
    partnerId: text().notNull(),
    environment: environment().notNull(),
    keyId: text().notNull(),
    method: text().notNull(),
    path: text().notNull(),
    status: integer().notNull(),
    errorCode: text(),
    latencyMs: integer().notNull(),
    clientIp: text(),
    debug: jsonb().$type<SignatureDebug>(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.partnerId, t.environment, t.id), index().on(t.createdAt), index().on(t.requestId)],
);

/**
 * An invitation to join a partner's team. The link carries a random token
 * shown once to the inviter; only its SHA-256 is stored.
 */
export const partnerInvitations = pgTable(
  "partner_invitations",
  {
    id: text().primaryKey(),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    email: text().notNull(),
    role: partnerRole().notNull(),
    tokenHash: text().notNull().unique(),
    invitedBy: text().notNull(),
    expiresAt: at().notNull(),
    acceptedAt: at(),
    acceptedBy: text(),
    revokedAt: at(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.partnerId, t.createdAt)],
);
