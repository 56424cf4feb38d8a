import { boolean, index, integer, pgEnum, pgTable, text } from "drizzle-orm/pg-core";
import { at, createdAt, currency, environment, money, updatedAt } from "./columns";
import { partners } from "./partners";

export const brokerageStatus = pgEnum("brokerage_status", [
  "OPEN",
  "RESEARCHING",
  "NEGOTIATING",
  "COMPLETED",
  "CLOSED_NO_DEAL",
]);

/** An acquisition of an unlisted domain run for a partner's buyer. */
export const brokerageCases = pgTable(
  "brokerage_cases",
  {
    id: text().primaryKey(), // "bc_..."
    partnerId: text()
      .notNull()
      .references(() => partners.id),
    environment: environment().notNull(),
    domain: text().notNull(),
    tier: text().notNull(), // managed | self_serve
    buyerEmail: text().notNull(),
    budgetCents: money().notNull(),
    currency: currency(),
    status: brokerageStatus().notNull().default("OPEN"),
    /** sha256 of the unguessable token in the public progress URL. */
    progressTokenHash: text().notNull().unique(),
    finalPriceCents: money(),
    serviceFeeCents: money(),
    partnerShareCents: money(),
    closedAt: at(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index().on(t.partnerId, t.environment, t.createdAt), index().on(t.environment, t.domain)],
);

export const brokerageTimeline = pgTable(
  "brokerage_timeline",
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    caseId: text()
      .notNull()
      .references(() => brokerageCases.id),
    status: brokerageStatus().notNull(),
    note: text(),
    at: createdAt(),
  },
  (t) => [index().on(t.caseId, t.id)],
);

/** Cached "does this domain run an active site" probes (DNS + HTTP) for brokerage eligibility. */
export const siteProbes = pgTable("site_probes", {
  domain: text().primaryKey(),
  active: boolean().notNull(),
  detail: text(),
  checkedAt: at().notNull(),
});
