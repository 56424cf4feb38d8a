import { sql } from "drizzle-orm";
import { date, index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, currency, environment, money } from "./columns";
import { partners, paymentModel } from "./partners";

/**
 * One statement per partner, environment, currency, payment model and closed
 * calendar month (UTC). `sequence` 1 is the period's statement; an order whose
 * transfer completion lands in an already-closed period (a late commit) is
 * settled into a supplementary statement for that same period (sequence 2, 3, ...),
 * so a closed statement is never rewritten.
 */
export const settlements = pgTable(
  "settlements",
  {
    id: text().primaryKey(),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    paymentModel: paymentModel().notNull(),
    periodStart: date({ mode: "string" }).notNull(),
    periodEnd: date({ mode: "string" }).notNull(), // exclusive
    currency: currency(),
    grossSoldCents: money().notNull(),
    commissionRetainedCents: money().notNull(),
    amountOwedCents: money(), // MoR: gross - commission, owed to the service
    commissionPayableCents: money(), // non-MoR: commission owed to the partner
    orderCount: integer().notNull(),
    status: text().notNull().default("closed"),
    sequence: integer().notNull().default(1),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("settlements_statement_key").on(t.partnerId, t.environment, t.periodStart, t.currency, t.paymentModel, t.sequence),
  ],
);

export const payouts = pgTable(
  "payouts",
  {
    id: text().primaryKey(),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    kind: text().notNull(), // commission | brokerage | referral
    amountCents: money().notNull(),
    currency: currency(),
    /** pending (owed, not yet sent) -> paid (staff recorded the transfer and its reference). */
    status: text().notNull().default("pending"),
    /** The bank or processor reference staff recorded when marking it paid. */
    reference: text(),
    settlementId: text(),
    periodStart: date({ mode: "string" }),
    periodEnd: date({ mode: "string" }),
    paidAt: at(),
    createdAt: createdAt(),
  },
  (t) => [
    index().on(t.partnerId, t.environment, t.createdAt),
    // The console's "to pay" queue across partners.
    index("payouts_pending").on(t.createdAt, t.id).where(sql`${t.status} = 'pending'`),
  ],
);
