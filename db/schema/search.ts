import { sql } from "drizzle-orm";
import { bigserial, customType, pgTable, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { environment } from "./columns";

/** float4 vector as bytea (little-endian); pgvector is optional, never required. */
const vectorBytes = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => "bytea" });

/**
 * The search vocabulary: every distinct word of any domain's tokens, embedded
 * once when it first appears (not once per domain). The semantic leg expands a
 * query word to its nearest vocabulary words and retrieves by those. `id` grows
 * with each new word, so readers fetch only what they have not seen yet.
 */
export const searchVocabulary = pgTable("search_vocabulary", {
  id: bigserial({ mode: "number" }).primaryKey(),
  word: text().notNull().unique(),
  model: text().notNull(),
  vector: vectorBytes().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * Impact-ordered postings: one row per (word, listed domain), kept by triggers on
 * `domains` (migration 0009) in the same transaction as the listing change, so
 * search sees an add, reprice, removal or sale at once. The unique index is in
 * rank order (best prior first), so "the best names with this word" is an index
 * range read of a few rows however common the word is; a GIN index can only
 * hand back every match for a sort.
 */
export const domainTerms = pgTable(
  "domain_terms",
  {
    term: text().notNull(),
    environment: environment().notNull(),
    prior: smallint().notNull(),
    /** The domain, by its unique (environment, name); no id, to keep 2.5 postings a name small. */
    name: text().notNull(),
  },
  (t) => [uniqueIndex("domain_terms_rank").on(t.term, t.environment, sql`${t.prior} desc`, t.name)],
);

/**
 * Each listed label's words embedded as one phrase ("best pizza shop"), once
 * per label, when it is first listed: the meaning leg searches a query's
 * subject against whole names by nearest neighbour (server/search/phrases.ts),
 * not only word by word. `id` grows with each new row, as in the vocabulary.
 */
export const searchPhrases = pgTable("search_phrases", {
  id: bigserial({ mode: "number" }).primaryKey(),
  label: text().notNull().unique(),
  model: text().notNull(),
  vector: vectorBytes().notNull(),
  createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
