import { boolean, date, index, integer, pgEnum, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { at, createdAt, currency, environment, money, updatedAt } from "./columns";
import { partners } from "./partners";

export const linkType = pgEnum("link_type", ["generic", "domain", "product"]);
export const commissionState = pgEnum("commission_state", ["accrued", "pending", "paid_out", "reversed"]);

/** A tracked link; its public form is {APP_URL}/r/{code}. */
export const referralLinks = pgTable(
  "referral_links",
  {
    id: text().primaryKey(), // "lnk_..."
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    code: text().notNull().unique(),
    type: linkType().notNull(),
    target: text().notNull(), // path the click redirects to
    domain: text(),
    product: text(),
    label: text(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.partnerId, t.environment, t.createdAt)],
);

/** Clicks, deduplicated per visitor per day; bots are kept but flagged. */
export const referralClicks = pgTable(
  "referral_clicks",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    linkId: text()
      .notNull()
      .references(() => referralLinks.id),
    visitorHash: text().notNull(),
    day: date({ mode: "string" }).notNull(),
    isBot: boolean().notNull().default(false),
    userAgent: text(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex().on(t.linkId, t.visitorHash, t.day), index().on(t.linkId, t.createdAt)],
);

export const referralSales = pgTable(
  "referral_sales",
  {
    id: text().primaryKey(), // "rs_..."
    linkId: text()
      .notNull()
      .references(() => referralLinks.id),
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    orderId: text().notNull().unique(),
    buyerEmail: text().notNull(),
    domain: text().notNull(),
    amountCents: money().notNull(),
    commissionCents: money().notNull(),
    currency: currency(),
    createdAt: createdAt(),
  },
  (t) => [index().on(t.partnerId, t.environment, t.createdAt)],
);

/**
 * Commission owed to partners (referral, non-MoR sale, brokerage share).
 * A row moves accrued -> pending (transfer done) -> paid_out (payout), or to
 * reversed (refund); the running balance is derived from the rows.
 */
export const commissionLedger = pgTable(
  "commission_ledger",
  {
    id: text().primaryKey(), // "cm_..."
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    source: text().notNull(), // referral | sale | brokerage
    sourceId: text().notNull(),
    orderId: text(),
    state: commissionState().notNull().default("accrued"),
    amountCents: money().notNull(),
    currency: currency(),
    payoutId: text(),
    /** Set while a dispute of the order is open: not settled nor paid out until it is released. */
    heldAt: at(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.partnerId, t.environment, t.createdAt), uniqueIndex().on(t.source, t.sourceId)],
);
