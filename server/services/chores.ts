import type { Database } from "@/db/client";
import { describeError } from "@/server/log";
import { getLogger } from "@/server/observability/logger";
import { reconcilePaymentIntents } from "./checkout";
import { reconcileIntentPayments } from "./checkout-intents";
import { pruneExpired } from "./prune";

// Periodic chores the worker runs beside webhook delivery: finishing payment
// intents a crashed request left pending (every minute) and pruning what grows
// without bound (hourly). Each is safe to run in several processes at once.

export interface Chores {
  stop(): Promise<void>;
}

export function startChores(db: Database, options: { log?: (message: string) => void } = {}): Chores {
  const log = options.log ?? ((message: string) => getLogger().info({ component: "chores" }, message));
  const timers: NodeJS.Timeout[] = [];
  let running: Promise<unknown> = Promise.resolve();
  const every = (name: string, ms: number, fn: () => Promise<string | undefined>) => {
    const tick = () => {
      running = running.then(() =>
        fn().then(
          (message) => message && log(`${name}: ${message}`),
          (error: unknown) => log(`${name} failed: ${describeError(error)}`),
        ),
      );
    };
    timers.push(setInterval(tick, ms).unref());
    setTimeout(tick, 5_000).unref(); // once soon after start
  };
  every("payment intents", 60_000, async () => {
    const direct = await reconcilePaymentIntents(db);
    // Intent-based payments (Stripe) whose webhook was missed.
    const intents = await reconcileIntentPayments(db);
    const done = { recorded: direct.recorded + intents.recorded, abandoned: direct.abandoned + intents.abandoned };
    return done.recorded || done.abandoned ? `${done.recorded} recorded, ${done.abandoned} abandoned` : undefined;
  });
  every("prune", 3_600_000, async () => {
    const report = await pruneExpired(db);
    const deleted = Object.entries(report ?? {}).filter(([, count]) => count > 0);
    return deleted.length ? `deleted ${deleted.map(([name, count]) => `${count} ${name}`).join(", ")}` : undefined;
  });
  return {
    async stop() {
      for (const timer of timers) clearInterval(timer);
      await running.catch(() => {});
    },
  };
}
