import { hostname } from "node:os";
import type { Database } from "@/db/client";
import { clock } from "@/server/clock";
import { describeError } from "@/server/log";
import { getLogger } from "@/server/observability/logger";
import { retokenizeInventory } from "@/server/search/retokenize";
import { SEGMENTER_VERSION } from "@/server/search/text";
import { reconcilePaymentIntents } from "./checkout";
import { reconcileIntentPayments } from "./checkout-intents";
import { runChoreOnce } from "./chore-runs";
import { pruneExpired } from "./prune";
import { runSettlement } from "./settlements";

// Scheduled chores the worker runs beside webhook delivery, each run once across
// all workers (server/services/chore-runs.ts): every worker looks every TICK_MS,
// and the first to claim a chore's current slot runs it.
//   payment intents  every minute: finish payments a crashed request left pending
//   prune            hourly: delete what grows without bound (prune.ts)
//   settlement       monthly: close every ended period (DECISIONS "Settlement
//                    periods"), in the first minutes of each month
//   search tokens    once per segmenter version: listings cut by an older one
//                    are cut again (server/search/retokenize.ts)
// Quotes and checkout sessions expire by their expires_at, checked when they are
// used (quotes.ts, checkout.ts stateOf); pruning deletes them after their retention.

const MINUTE = 60_000;
export const TICK_MS = 15_000;

export interface ChoreDefinition {
  name: string;
  /** The slot a moment belongs to: the chore runs once per slot. */
  slotOf: (at: Date) => string;
  leaseMs: number;
  run: (db: Database) => Promise<string | undefined>;
}

export const chores: readonly ChoreDefinition[] = [
  {
    name: "payment intents",
    slotOf: (at) => at.toISOString().slice(0, 16), // the minute
    leaseMs: 5 * MINUTE,
    async run(db) {
      const direct = await reconcilePaymentIntents(db);
      // Intent-based payments (Stripe) whose webhook was missed.
      const intents = await reconcileIntentPayments(db);
      const done = { recorded: direct.recorded + intents.recorded, abandoned: direct.abandoned + intents.abandoned };
      return done.recorded || done.abandoned ? `${done.recorded} recorded, ${done.abandoned} abandoned` : undefined;
    },
  },
  {
    name: "prune",
    slotOf: (at) => at.toISOString().slice(0, 13), // the hour
    leaseMs: 30 * MINUTE,
    async run(db) {
      const report = await pruneExpired(db);
      const deleted = Object.entries(report ?? {}).filter(([, count]) => count > 0);
      return deleted.length ? `deleted ${deleted.map(([name, count]) => `${count} ${name}`).join(", ")}` : undefined;
    },
  },
  {
    name: "settlement",
    slotOf: (at) => at.toISOString().slice(0, 7), // the month
    // A run may close many statements of up to 10 minutes each; a second runner is harmless anyway.
    leaseMs: 60 * MINUTE,
    async run(db) {
      const result = await runSettlement(db);
      const orders = result.statements.reduce((sum, s) => sum + s.orderIds.length, 0) + result.ordersSettledWithoutStatement;
      return `closed ${result.statements.length} statement(s) of ${orders} order(s), ${result.referralPayouts.length} referral and ${result.brokeragePayouts.length} brokerage payout(s)`;
    },
  },
  {
    name: "search tokens",
    // One slot per version: once done it never runs again, until the segmenter changes.
    slotOf: () => `segmenter-${SEGMENTER_VERSION}`,
    // 100k listings cut by main took 51-65 s, most of it embedding the 6 % whose cut changed (HOW-MADE.md, twenty-fifth session).
    leaseMs: 60 * MINUTE,
    async run(db) {
      const report = await retokenizeInventory(db);
      return `${report.changed} of ${report.scanned} listing(s) cut again, ${report.words} word(s) and ${report.phrases} phrase(s) embedded`;
    },
  },
];

export interface Chores {
  /** One look at every chore's current slot (what the timer does each tick). */
  tick(): Promise<void>;
  stop(): Promise<void>;
}

export function startChores(
  db: Database,
  options: { log?: (message: string) => void; only?: readonly string[]; holder?: string; timer?: boolean } = {},
): Chores {
  const log = options.log ?? ((message: string) => getLogger().info({ component: "chores" }, message));
  const holder = options.holder ?? `${hostname()}:${process.pid}`;
  const selected = chores.filter((c) => !options.only || options.only.includes(c.name));
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = running.then(async () => {
      for (const chore of selected) {
        const slot = { chore: chore.name, slot: chore.slotOf(clock.now()), leaseMs: chore.leaseMs, holder };
        try {
          const outcome = await runChoreOnce(db, slot, () => chore.run(db), (message) => message ?? "nothing to do");
          if (outcome.ran && outcome.result) log(`${chore.name} (${slot.slot}): ${outcome.result}`);
        } catch (error) {
          log(`${chore.name} (${slot.slot}) failed: ${describeError(error)}`);
        }
      }
    });
    return running as Promise<void>;
  };
  const timers: NodeJS.Timeout[] = [];
  if (options.timer !== false) {
    timers.push(setInterval(tick, TICK_MS).unref());
    timers.push(setTimeout(tick, 5_000).unref()); // once soon after start
  }
  return {
    tick,
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await running.catch(() => {});
    },
  };
}
