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

/**
 * One row per run of a scheduled chore (server/services/chore-runs.ts): the
 * primary key (chore, slot) lets one worker claim a slot ("2026-11", an hour, a
 * minute) however many ask; the lease lets another take over a slot whose
 * runner died before it finished.
 */
export const choreRuns = pgTable(
  "chore_runs",
  {
    chore: text().notNull(),
    slot: text().notNull(),
    holder: text().notNull(),
    startedAt: at().notNull(),
    leaseUntil: at().notNull(),
    finishedAt: at(),
    /** What the run did, or why it failed (then it is retried). */
    outcome: text(),
  },
  (t) => [primaryKey({ columns: [t.chore, t.slot] }), index().on(t.startedAt)],
);
