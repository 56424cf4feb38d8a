import { pgTable, primaryKey, text, index } from "drizzle-orm/pg-core";
import { at } from "./columns";

/** Nonces of verified signed requests, tracked 600 s (twice the skew window). */
export const nonces = pgTable(
  "nonces",
  {
    credentialId: text().notNull(),
    nonce: text().notNull(),
    expiresAt: at().notNull(),
  },
  (t) => [primaryKey({ columns: [t.credentialId, t.nonce] }), index().on(t.expiresAt)],
);

/**
 * Rate-limit state shared by every server process: one GCRA "theoretical
 * arrival time" per bucket key (credential + class, or IP/token for the public API).
 */
export const rateLimits = pgTable("rate_limits", {
  key: text().primaryKey(),
  tat: at().notNull(),
});
