import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgEnum, pgTable, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, currency, environment, money, updatedAt } from "./columns";

export const listingStatus = pgEnum("listing_status", ["listed", "reserved", "sold", "removed"]);

/**
 * Environment-partitioned inventory: sandbox rows are synthetic test domains,
 * live rows are real listings. A name is unique within its environment only.
 */
export const domains = pgTable(
  "domains",
  {
    id: text().primaryKey(),
    environment: environment().notNull(),
    name: text().notNull(), // lowercase, ASCII (punycode for IDNs)
    label: text().notNull(), // name without the TLD
    tld: text().notNull(),
    status: listingStatus().notNull().default("listed"),
    priceCents: money().notNull(),
    floorPriceCents: money(),
    currency: currency(),
    vertical: text(),
    /** Space-separated words of the label, used by keyword search. */
    tokens: text().notNull().default(""),
    /**
     * Quality prior for search, higher is better: short labels, no hyphens or
     * digits, a .com (then the common new TLDs). Orders candidates inside each leg.
     */
    searchPrior: smallint()
      .notNull()
      .generatedAlwaysAs(
        sql`(1000 - 15 * least(length(label), 40) - 120 * (length(label) - length(replace(label, '-', ''))) - 80 * (label ~ '[0-9]')::int + case tld when 'com' then 45 when 'ai' then 20 when 'io' then 20 when 'co' then 20 else 0 end)`,
      ),
    description: text(),
    registeredYear: integer(),
    metadata: jsonb().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex().on(t.environment, t.name),
    // Search's label leg: the labels one edit from a short label typed, looked up as they are.
    index().on(t.environment, t.label),
    index("domains_name_trgm").using("gin", sql`${t.name} gin_trgm_ops`),
    index("domains_tokens_fts").using("gin", sql`to_tsvector('simple', ${t.tokens})`),
    index().on(t.environment, t.status, t.vertical),
  ],
);
