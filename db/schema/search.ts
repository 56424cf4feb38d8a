import { bigserial, customType, pgTable, text, timestamp } from "drizzle-orm/pg-core";

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
