// Every PostgreSQL advisory-lock id the service takes, in one place, so no two
// unrelated critical sections ever share an id by accident (the seed and the
// event sequencer once both used 727002 and waited on each other).
// Applied migrations take none; a new id is added here, never reused.

export const advisoryLocks = {
  /** db/migrate.ts: one process applies migrations at a time (session lock). */
  migrate: 727001,
  /** server/services/events.ts: the sequencer; the second key is the partner's stream. */
  eventSequencer: 727002,
  /** db/seed.ts: concurrent starters seed the demo once. */
  seed: 727003,
  /** server/services/settlements.ts and referrals.ts: one settlement close at a time. */
  settlement: 727010,
  /** server/services/brokerage.ts: one open case per domain (second key: the domain). */
  brokerageCreate: 727020,
  /** server/services/brokerage.ts: brokerage payouts. */
  brokeragePayout: 727021,
  /** server/services/checkout.ts: the reconciler of payment intents left pending. */
  paymentReconciler: 727030,
  /** server/services/prune.ts: one pruning chore at a time across workers. */
  prune: 727040,
  /**
   * server/search/vocabulary.ts: vocabulary writers commit one at a time, so the
   * ids they take are visible in id order and the mirrors' catch-up misses none.
   */
  vocabulary: 727050,
  /** server/search/phrases.ts: the same for the labels embedded as phrases. */
  phrases: 727051,
} as const;
