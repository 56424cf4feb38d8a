import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgEnum, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, environment, updatedAt } from "./columns";

export const paymentModel = pgEnum("payment_model", ["mor", "non_mor"]);
export const userRole = pgEnum("user_role", ["partner", "admin", "customer"]);

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
    disabledAt: at(),
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
    createdAt: createdAt(),
    lastUsedAt: at(),
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
