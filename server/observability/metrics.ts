import { createHash, timingSafeEqual } from "node:crypto";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Env } from "@/server/env";
import { AppError } from "@/server/errors";
import { poolStats } from "./pool-stats";

// The process's Prometheus metrics (prom-client). One registry per process, kept
// on globalThis: the web server (scripts/serve.ts) counts requests, the route
// bundles Next loads count searches and render /metrics, and each bundle has its
// own copy of this module, so they must all reach the same objects.
//
// Counted in memory at no database cost: requests, latency, refusals, searches,
// webhook attempts. Read from the database only when scraped: the webhook queue
// and the server's connections (database-gauges.ts).

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({
      name: "http_requests_total",
      help: "Requests answered, by route class (the app route that served it), method and status",
      labelNames: ["route", "method", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from the request's arrival to the last byte of the answer handed to the socket",
      labelNames: ["route", "method"] as const,
      buckets: SECONDS,
      registers,
    }),
    rateLimitRefusals: new Counter({
      name: "rate_limit_refusals_total",
      help: "Requests refused with 429 by a rate limit (partner rate classes, public per-address limits)",
      labelNames: ["route"] as const,
      registers,
    }),
    searchDuration: new Histogram({
      name: "search_duration_seconds",
      help: "Domain search (REST, public search, MCP): query analysis, the engine and the availability read",
      labelNames: ["environment"] as const,
      buckets: SECONDS,
      registers,
    }),
    webhookAttempts: new Counter({
      name: "webhook_delivery_attempts_total",
      help: "Webhook delivery attempts made by this worker, by outcome: succeeded, retrying (failed, retry scheduled), failed (no retries left)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    webhookAttemptDuration: new Histogram({
      name: "webhook_delivery_attempt_duration_seconds",
      help: "One delivery attempt's HTTP exchange with the partner's endpoint",
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    }),
    webhookLag: new Histogram({
      name: "webhook_delivery_lag_seconds",
      help: "From an event's commit to the start of its first delivery attempt",
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 1800],
      registers,
    }),
    webhookQueue: new Gauge({
      name: "webhook_queue_deliveries",
      help: "Unfinished webhook deliveries in the database (every worker's): pending (waiting), in_flight (claimed, lease live), due (waiting past their time)",
      labelNames: ["state"] as const,
      registers,
    }),
    webhookQueueLag: new Gauge({
      name: "webhook_queue_oldest_due_seconds",
      help: "How long the most overdue delivery has waited for a worker; 0 when none is due",
      registers,
    }),
    databaseUp: new Gauge({ name: "database_up", help: "1 when the database answered this scrape's queries within 2 s", registers }),
    poolMax: new Gauge({ name: "db_pool_max_connections", help: "This process's pool size (DB_POOL_MAX)", registers }),
    poolReserved: new Gauge({
      name: "db_pool_reserved_connections",
      help: "This process's pool connections held by transactions now (out of the pool until COMMIT or ROLLBACK)",
      registers,
      collect() {
        this.set(poolStats().reserved);
      },
    }),
    serverConnections: new Gauge({
      name: "db_server_connections",
      help: "Connections the database server holds for this service (every process's pool), by state as pg_stat_activity reports it",
      labelNames: ["state"] as const,
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const holder = globalThis as unknown as { __pdmMetrics?: Metrics };

export function getMetrics(): Metrics {
  return (holder.__pdmMetrics ??= createMetrics());
}

/** Time a search: call the returned function when it ends. */
export function startSearchTimer(environment: string): () => void {
  return getMetrics().searchDuration.startTimer({ environment });
}

/**
 * Who may scrape: with METRICS_TOKEN set, only a request bearing it (any mode);
 * without one, anyone in development, and nobody in production, where /metrics
 * answers 404 as if it did not exist (an operator who forgot the token exposes
 * nothing). Undefined: allowed; else the refusal to answer with.
 */
export function scrapeRefusal(env: Pick<Env, "METRICS_TOKEN" | "APP_ENV">, authorization: string | null | undefined): AppError | undefined {
  const token = env.METRICS_TOKEN;
  if (!token) return env.APP_ENV === "production" ? new AppError("not_found", "no such endpoint: GET /metrics") : undefined;
  const presented = /^Bearer +(\S+)\s*$/i.exec(authorization ?? "")?.[1] ?? "";
  // Digests compare in constant time whatever the lengths.
  const digest = (value: string) => createHash("sha256").update(value).digest();
  if (timingSafeEqual(digest(presented), digest(token))) return undefined;
  return new AppError("unauthorized", "GET /metrics needs Authorization: Bearer <METRICS_TOKEN>", undefined, {
    "www-authenticate": 'Bearer realm="metrics"',
  });
}
