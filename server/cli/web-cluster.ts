import cluster, { type Worker } from "node:cluster";
import { ClusterMetrics } from "@/server/observability/cluster-metrics";
import { flushLogs, getLogger } from "@/server/observability/logger";

// The web server with WEB_CONCURRENCY > 1 (scripts/serve.ts): this process becomes a
// node:cluster primary that serves nothing itself. It forks the workers, each a whole
// web server (Next, its credential cache and LISTEN, its search index, its request log
// buffer, its metrics), which share PORT: the primary accepts each connection and hands
// it to the next worker in turn (node:cluster's round robin), and a kept-alive
// connection stays with its worker.
//
// - SIGINT / SIGTERM: passed to every worker (each stops listening, flushes its request
//   log and exits, as a single web process does); the primary exits 0 once they have,
//   or kills what is left after STOP_GRACE_MS.
// - A worker that exits unasked is replaced after a back-off that doubles with each
//   exit of the last minute (restartDelayMs), so a crash loop costs little CPU and says
//   so in the log (error level, with code and signal) and in web_cluster_worker_exits_total.
// - A worker that exits before any worker has listened (port in use, a broken build):
//   the start failed; the primary stops the others and exits 1, like one process would.
// - GET /metrics, answered by whichever worker gets the scrape, adds up every
//   worker's figures through the primary (server/observability/cluster-metrics.ts).

/** After this long the primary kills the workers still stopping (each gives itself 3 s). */
export const STOP_GRACE_MS = 8_000;
/** Unexpected exits this far back count towards the back-off. */
export const EXIT_WINDOW_MS = 60_000;

/** How long to wait before replacing a worker, given the unexpected exits of the last minute (this one included). */
export function restartDelayMs(recentExits: number): number {
  return Math.min(30_000, 250 * 2 ** Math.max(0, recentExits - 1));
}

export function runWebCluster(options: { workers: number; port: number }): void {
  const log = getLogger().child({ role: "web-primary" });
  const metrics = new ClusterMetrics((ids) => log.warn({ workers: ids }, "metrics scrape: worker(s) left out, no answer within the collection timeout"));
  const live = () => Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
  const recentExits: number[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let listened = false;
  let stopping = false;
  let exitCode = 0;

  const fork = () => {
    const worker = cluster.fork({ PDM_WEB_CLUSTER: "1" });
    worker.on("message", (message: { type?: unknown; id?: unknown }) => metrics.handle(worker, message));
    metrics.workers.set(live().length);
  };
  const finish = () => void flushLogs().finally(() => process.exit(exitCode));

  const stop = (signal: NodeJS.Signals, code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const timer of timers) clearTimeout(timer);
    const workers = live();
    if (!workers.length) return finish();
    for (const worker of workers) worker.process.kill(signal);
    setTimeout(() => {
      for (const worker of live()) worker.process.kill("SIGKILL");
      log.error({ workers: live().map((w) => w.process.pid) }, `web workers still running ${STOP_GRACE_MS} ms after ${signal}: killed`);
      finish();
    }, STOP_GRACE_MS).unref();
  };

  cluster.on("listening", () => (listened = true));
  cluster.on("exit", (worker, code, signal) => {
    metrics.forget(worker.id);
    metrics.workers.set(live().length);
    if (stopping) {
      if (!live().length) finish();
      return;
    }
    if (!listened) {
      console.error(`web server: worker ${worker.id} exited (${signal ?? `code ${code}`}) before any worker listened; stopping`);
      return stop("SIGTERM", 1);
    }
    metrics.exits.inc();
    const now = Date.now();
    recentExits.push(now);
    while (recentExits[0]! < now - EXIT_WINDOW_MS) recentExits.shift();
    const delay = restartDelayMs(recentExits.length);
    log.error(
      { worker: worker.id, workerPid: worker.process.pid, code, signal, restartInMs: delay },
      `web worker ${worker.id} (pid ${worker.process.pid}) exited unexpectedly (${signal ?? `code ${code}`}); replacing it in ${delay} ms`,
    );
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopping) fork();
    }, delay);
    timers.add(timer);
  });

  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => stop(signal, 0));
  console.log(`web server: primary pid ${process.pid} starting ${options.workers} workers on port ${options.port}`);
  for (let i = 0; i < options.workers; i++) fork();
}
