import { getDb, type Database } from "@/db/client";
import { clock } from "@/server/clock";
import { openSecret } from "@/server/crypto";
import { getEnv } from "@/server/env";
import { sequenceEvents, serializeEvent } from "@/server/services/events";
import { webhookSecretContext } from "@/server/services/webhooks";
import { AUTO_DISABLE_AFTER_MS, noteAttemptOutcome } from "@/server/services/webhook-console";
import { attemptDelivery, createAgents, DEFAULT_TIMEOUT_MS, type AttemptResult } from "./deliver";
import { claimDeliveries, createAttemptLog, nextDueAt, releaseDeliveries, type AttemptRecord, type ClaimedRun } from "./queue";
import { webhookHeaders } from "./signing";
import { describeError } from "@/server/log";
import { getLogger } from "@/server/observability/logger";
import { getMetrics } from "@/server/observability/metrics";

// The delivery worker: sequence committed events (which fans them out to
// deliveries), claim due deliveries, POST them, record each attempt, repeat.
// It wakes on NOTIFY pdm_events (an event committed), when one of its own runs
// finishes, at the next retry or lease expiry, and at least every pollMs.
// Any number of workers may run against one database (see queue.ts).

export interface WorkerOptions {
  db?: Database;
  /** Per-attempt limit; the spec gives receivers 5 s. */
  timeoutMs?: number;
  /** How long a claim owns its deliveries before another worker may retry them. */
  leaseMs?: number;
  pollMs?: number;
  /** Endpoints served at once. */
  concurrency?: number;
  /** Deliveries taken per endpoint per claim, sent one after another in event order. */
  runLength?: number;
  /** Delays after each failed attempt; defaults to WEBHOOK_RETRY_SCHEDULE. */
  retrySchedule?: readonly number[];
  /** Defaults to WEBHOOK_ALLOW_PRIVATE_TARGETS. */
  allowPrivateTargets?: boolean;
  /** Serve only these partners' endpoints. */
  partnerIds?: readonly string[];
  /** Listen for pdm_events notifications (default true). */
  listen?: boolean;
  log?: (message: string) => void;
}

export interface WorkerStats {
  claims: number;
  attempts: number;
  succeeded: number;
  failedAttempts: number;
  /** Deliveries that used up the schedule. */
  failed: number;
}

export interface WebhookWorker {
  stats: WorkerStats;
  /** Look for work now. */
  wake(): void;
  /** Finish the requests in flight, hand back the rest of their runs, stop. */
  stop(): Promise<void>;
}

/** Margin kept between the end of an attempt and the end of its lease. */
const LEASE_MARGIN_MS = 2000;
const MIN_SLEEP_MS = 10;

export async function startWebhookWorker(options: WorkerOptions = {}): Promise<WebhookWorker> {
  const db = options.db ?? getDb();
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 1000;
  const concurrency = options.concurrency ?? 16;
  const runLength = options.runLength ?? 100;
  const log = options.log ?? ((message: string) => getLogger().info({ component: "webhooks" }, message));
  const metrics = getMetrics();
  if (leaseMs < timeoutMs + LEASE_MARGIN_MS) throw new Error(`leaseMs must be at least timeoutMs + ${LEASE_MARGIN_MS}`);
  const schedule = () => options.retrySchedule ?? getEnv().WEBHOOK_RETRY_SCHEDULE;
  const allowPrivateTargets = options.allowPrivateTargets ?? getEnv().WEBHOOK_ALLOW_PRIVATE_TARGETS;
  const agents = createAgents(concurrency);
  const stats: WorkerStats = { claims: 0, attempts: 0, succeeded: 0, failedAttempts: 0, failed: 0 };
  const active = new Set<Promise<void>>();

  let stopping = false;
  let woken = false;
  let interrupt: (() => void) | undefined;
  const wake = () => {
    woken = true;
    interrupt?.();
  };
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      if (woken || stopping) return resolve();
      const done = () => {
        clearTimeout(timer);
        interrupt = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      interrupt = done;
    });

  const listener = options.listen === false ? undefined : await db.$client.listen("pdm_events", wake);

  async function deliverRun(run: ClaimedRun): Promise<void> {
    const secret = openEndpointSecret(run, run.secretSealed);
    const previousSecret = run.previousSecretSealed ? openEndpointSecret(run, run.previousSecretSealed) : undefined;
    // Successes are logged in batches while the run goes on; a failure waits for
    // them and is written alone, since it may disable the endpoint and end the run.
    const attempts = createAttemptLog(db, (id) => log(`delivery ${id}: attempt logged, but the claim had expired or the endpoint was deactivated; state left as is`));
    let failing = run.failing;
    try {
      for (const [index, delivery] of run.deliveries.entries()) {
        attempts.check();
        const now = clock.now();
        if (stopping || now.getTime() + timeoutMs + LEASE_MARGIN_MS > run.leaseUntil.getTime()) {
          await releaseDeliveries(db, run.deliveries.slice(index), run.leaseUntil, now);
          return;
        }
        const body = JSON.stringify(serializeEvent(delivery.event));
        const result =
          secret === undefined
            ? unsendable
            : await attemptDelivery({
                url: run.url,
                body,
                headers: webhookHeaders({ secret, previousSecret, body, eventId: delivery.event.id, timestampSeconds: clock.nowSeconds() }),
                timeoutMs,
                allowPrivateTargets,
                agents,
              });
        const outcome = outcomeOf(result, delivery.attempt, schedule());
        // In memory; this process's GET /metrics (METRICS_PORT) reads them.
        metrics.webhookAttempts.inc({ outcome: outcome.status === "pending" ? "retrying" : outcome.status });
        metrics.webhookAttemptDuration.observe(result.latencyMs / 1000);
        if (delivery.attempt === 1) metrics.webhookLag.observe(Math.max(0, now.getTime() - delivery.event.createdAt.getTime()) / 1000);
        stats.attempts++;
        const record: AttemptRecord = {
          deliveryId: delivery.id,
          attempt: delivery.attempt,
          leaseUntil: run.leaseUntil,
          url: run.url,
          now: clock.now(),
          status: result.status,
          latencyMs: result.latencyMs,
          error: result.error,
          responseBody: result.responseBody,
          outcome,
          lastError: result.ok ? null : failureText(result),
        };
        if (result.ok) {
          stats.succeeded++;
          attempts.add(record);
          // The endpoint's failure run ends (only the worker holding its run sets it).
          if (failing) {
            await noteAttemptOutcome(db, { endpointId: run.endpointId, ok: true, now: record.now });
            failing = false;
          }
          continue;
        }
        stats.failedAttempts++;
        if (outcome.status === "failed") stats.failed++;
        const next = outcome.status === "pending" ? `retry at ${outcome.nextAttemptAt.toISOString()}` : "no retries left, failed";
        log(`delivery ${delivery.id} attempt ${delivery.attempt} to endpoint ${run.endpointId}: ${failureText(result)}; ${next}`);
        attempts.add(record);
        await attempts.settle();
        failing = true;
        if (await noteAttemptOutcome(db, { endpointId: run.endpointId, ok: false, now: clock.now() })) {
          log(`endpoint ${run.endpointId} disabled: every attempt failed for ${AUTO_DISABLE_AFTER_MS / 86_400_000} days`);
          return; // the rest of this run was marked failed with the endpoint
        }
      }
    } finally {
      await attempts.settle();
    }
  }

  const claimOptions = (maxEndpoints: number) => ({ now: clock.now(), leaseMs, maxEndpoints, runLength, partnerIds: options.partnerIds });

  // A slot stays with its endpoint while the endpoint has due work and another slot is
  // free: the next run is claimed for that endpoint alone, without waiting for the
  // loop's turn. With every slot taken, the slot goes back to the loop, which serves
  // the most overdue endpoints first.
  async function serveEndpoint(first: ClaimedRun): Promise<void> {
    let run: ClaimedRun | undefined = first;
    while (run) {
      await deliverRun(run);
      if (stopping || active.size >= concurrency) return;
      [run] = await claimDeliveries(db, { ...claimOptions(1), endpointIds: [run.endpointId] });
      if (run) stats.claims++;
    }
  }

  function startRun(run: ClaimedRun) {
    const task: Promise<void> = serveEndpoint(run)
      .catch((error: unknown) => log(`run for endpoint ${run.endpointId} stopped: ${describeError(error)}; its lease will expire and it will be retried`))
      .finally(() => {
        active.delete(task);
        wake();
      });
    active.add(task);
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      woken = false;
      try {
        await sequenceEvents(db);
        const free = concurrency - active.size;
        if (free === 0) {
          await sleep(pollMs); // every slot is busy: a finishing run wakes us
          continue;
        }
        const runs = await claimDeliveries(db, claimOptions(free));
        if (runs.length > 0) {
          stats.claims++;
          runs.forEach(startRun);
          continue; // more may be due
        }
        const next = await nextDueAt(db, { now: clock.now(), partnerIds: options.partnerIds });
        const untilNext = next ? next.getTime() - clock.nowMs() : pollMs;
        await sleep(Math.min(pollMs, Math.max(MIN_SLEEP_MS, untilNext)));
      } catch (error) {
        if (stopping) break;
        log(`worker loop error: ${describeError(error)}`);
        await sleep(pollMs);
      }
    }
  }

  const running = loop();
  return {
    stats,
    wake,
    async stop() {
      stopping = true;
      wake();
      await running;
      await Promise.allSettled([...active]);
      await listener?.unlisten().catch(() => {});
      agents.destroy();
    },
  };
}

/** Success on any 2xx; otherwise the next delay of the schedule, or failed once it is used up. */
export function outcomeOf(
  result: AttemptResult,
  attempt: number,
  schedule: readonly number[],
): { status: "succeeded" } | { status: "pending"; nextAttemptAt: Date } | { status: "failed" } {
  if (result.ok) return { status: "succeeded" };
  const delay = schedule[attempt - 1];
  return delay === undefined ? { status: "failed" } : { status: "pending", nextAttemptAt: new Date(clock.nowMs() + delay) };
}

/** Undefined when the sealed secret does not open (SECRET_KEY changed): such attempts fail without sending. */
function openEndpointSecret(run: ClaimedRun, sealed: string): string | undefined {
  try {
    return openSecret(sealed, webhookSecretContext(run));
  } catch {
    return undefined;
  }
}

const unsendable: AttemptResult = {
  ok: false,
  status: null,
  latencyMs: 0,
  error: "the endpoint's signing secret cannot be opened (was SECRET_KEY changed?); register the endpoint again",
  responseBody: null,
};

function failureText(result: AttemptResult): string {
  return result.error ?? `HTTP ${result.status}`;
}
