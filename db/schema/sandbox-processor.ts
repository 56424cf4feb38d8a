import { pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, currency, money } from "./columns";

/**
 * The sandbox card processor's own ledger (server/payments/sandbox.ts). A real
 * processor keeps charges and idempotency keys on its side, across our
 * processes and crashes; so does the sandbox, in this table, which no other
 * code reads: the service knows a charge only by what the processor answers.
 */
export const sandboxProcessorCharges = pgTable("sandbox_processor_charges", {
  ref: text().primaryKey(), // ch_sbx_...
  idempotencyKey: text().notNull().unique(),
  fingerprint: text().notNull(),
  status: text().notNull(), // succeeded | declined
  failureCode: text(),
  message: text(),
  last4: text().notNull(),
  amountCents: money().notNull(),
  currency: currency(),
  refundRef: text(),
  refundKey: text().unique(),
  refundedAt: at(),
  createdAt: createdAt(),
});
