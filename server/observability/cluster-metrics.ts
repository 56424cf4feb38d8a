import cluster, { type Worker } from "node:cluster";
import { randomUUID } from "node:crypto";
import { AggregatorRegistry, Counter, Gauge, Registry } from "prom-client";
import { getMetrics } from "./metrics";

// GET /metrics of a web server running WEB_CONCURRENCY > 1 workers (scripts/serve.ts,
// server/cli/web-cluster.ts). A scrape lands on one worker, whichever the primary
// hands the connection to; it answers for the whole host, as one process would:
//
//   scraped worker --"scrape"--> primary --"collect"--> every live worker (itself too)
//   scraped worker <--- text --- primary <--- each registry as JSON ---+
//
// The primary adds the figures up with prom-client's aggregation (counters and
// histograms summed, so rates and quantiles over the host are right; the event loop
// figures averaged or min/max as prom-client marks them), plus its own two
// (web_cluster_workers, web_cluster_worker_exits_total). The gauges a scrape reads
// from the database (the webhook queue, the server's connections, database_up) are
// the same for every worker and were refreshed only by the scraped one, so they are
// taken from it alone, not summed.
//
// Our own messages rather than prom-client's clusterMetrics(): Next gives each route
// bundle its own copy of prom-client, and every copy in a worker would answer
// prom-client's request (with its empty global registry), ending the collection early.

const SCRAPE = "pdm:metrics:scrape";
const SCRAPED = "pdm:metrics:scraped";
const COLLECT = "pdm:metrics:collect";
const COLLECTED = "pdm:metrics:collected";

/** Metrics every worker reads alike from the database at a scrape: taken from the scraped worker only. */
export const DATABASE_WIDE_METRICS = new Set(["webhook_queue_deliveries", "webhook_queue_oldest_due_seconds", "database_up", "db_server_connections"]);

/** How long the primary waits for the workers' figures; one that has not answered by then is left out (and said so). */
export const COLLECT_TIMEOUT_MS = 2_000;
/** How long a scraped worker waits for the primary. */
const SCRAPE_TIMEOUT_MS = 5_000;

/** One metric of getMetricsAsJSON (name, help, type, aggregator, values). */
export type MetricJson = { name: string } & Record<string, unknown>;

interface Message {
  type?: unknown;
  id?: unknown;
}

/** Whether this process is a worker of a web cluster (the primary answers its scrapes). */
export function inWebCluster(): boolean {
  return cluster.isWorker && typeof process.send === "function" && process.env.PDM_WEB_CLUSTER === "1";
}

/** The exposition GET /metrics answers with: this process's registry, or in a web cluster the whole host's. */
export async function metricsExposition(): Promise<{ contentType: string; body: string }> {
  const { registry } = getMetrics();
  if (!inWebCluster()) return { contentType: registry.contentType, body: await registry.metrics() };
  const id = randomUUID();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error(`the web server's primary process did not answer the scrape within ${SCRAPE_TIMEOUT_MS} ms`));
    }, SCRAPE_TIMEOUT_MS);
    const onMessage = (message: Message & { contentType?: string; body?: string; error?: string }) => {
      if (message?.type !== SCRAPED || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve({ contentType: message.contentType ?? registry.contentType, body: message.body ?? "" });
    };
    process.on("message", onMessage);
    process.send!({ type: SCRAPE, id });
  });
}

/** In a web cluster worker: hand this process's registry to the primary when it collects (once per process). */
export function answerMetricsCollection(poolMax: number): void {
  const holder = globalThis as unknown as { __pdmAnswersCollection?: boolean };
  if (holder.__pdmAnswersCollection || !cluster.isWorker) return;
  holder.__pdmAnswersCollection = true;
  process.on("message", (message: Message) => {
    if (message?.type !== COLLECT) return;
    const metrics = getMetrics();
    metrics.poolMax.set(poolMax); // not a database read: every worker reports its own pool
    void metrics.registry.getMetricsAsJSON().then(
      (json) => process.send?.({ type: COLLECTED, id: message.id, metrics: json }),
      () => process.send?.({ type: COLLECTED, id: message.id, metrics: [] }),
    );
  });
}

/** The primary's side: its own figures, and the answer to each worker's scrape. */
export class ClusterMetrics {
  readonly registry = new Registry();
  readonly workers = new Gauge({ name: "web_cluster_workers", help: "Web worker processes alive now (WEB_CONCURRENCY wanted)", registers: [this.registry] });
  readonly exits = new Counter({
    name: "web_cluster_worker_exits_total",
    help: "Web workers that exited without being asked to (each is replaced after a back-off)",
    registers: [this.registry],
  });
  private readonly pending = new Map<string, { replies: Map<number, MetricJson[]>; waiting: Set<number>; done: () => void }>();

  constructor(private readonly onMissing: (workerIds: number[]) => void = () => {}) {}

  /** Call for every message a worker sends the primary. */
  handle(worker: Worker, message: Message): void {
    if (message?.type === COLLECTED && typeof message.id === "string") {
      const request = this.pending.get(message.id);
      if (!request || !request.waiting.delete(worker.id)) return;
      request.replies.set(worker.id, ((message as { metrics?: MetricJson[] }).metrics ?? []) as MetricJson[]);
      if (request.waiting.size === 0) request.done();
    } else if (message?.type === SCRAPE && typeof message.id === "string") {
      const id = message.id;
      void this.scrape(worker.id).then(
        ({ contentType, body }) => worker.isConnected() && worker.send({ type: SCRAPED, id, contentType, body }),
        (error: Error) => worker.isConnected() && worker.send({ type: SCRAPED, id, error: error.message }),
      );
    }
  }

  /** A worker that exits while a collection waits for it is not waited for. */
  forget(workerId: number): void {
    for (const request of this.pending.values()) if (request.waiting.delete(workerId) && request.waiting.size === 0) request.done();
  }

  /** Every live worker's figures added up, the database-wide gauges from `scrapedBy` only, and the primary's own. */
  async scrape(scrapedBy: number): Promise<{ contentType: string; body: string }> {
    const id = randomUUID();
    const live = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w && w.isConnected());
    const replies = new Map<number, MetricJson[]>();
    const waiting = new Set(live.map((w) => w.id));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => done(), COLLECT_TIMEOUT_MS);
      const done = () => {
        clearTimeout(timer);
        this.pending.delete(id);
        resolve();
      };
      this.pending.set(id, { replies, waiting, done });
      for (const worker of live) worker.send({ type: COLLECT, id });
      if (waiting.size === 0) done();
    });
    if (waiting.size) this.onMissing([...waiting]);
    const aggregated = aggregateWorkers(replies, scrapedBy, (await this.registry.getMetricsAsJSON()) as unknown as MetricJson[]);
    return { contentType: aggregated.contentType, body: await aggregated.metrics() };
  }
}

/**
 * The host's figures from each worker's getMetricsAsJSON (by worker id) and the primary's
 * own: summed (or as prom-client marks each metric), except the database-wide gauges,
 * which come from `scrapedBy`, the worker that has just refreshed them.
 */
export function aggregateWorkers(replies: ReadonlyMap<number, readonly MetricJson[]>, scrapedBy: number, primary: readonly MetricJson[] = []): Registry {
  const sets = [...replies].map(([workerId, json]) => (workerId === scrapedBy ? json : json.filter((m) => !DATABASE_WIDE_METRICS.has(m.name))));
  return AggregatorRegistry.aggregate([...sets, primary]);
}
