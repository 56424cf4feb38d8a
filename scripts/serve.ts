// The web server `npm start` (and `npm run dev`) runs: Next's request handler
// behind a plain Node HTTP server that decides the client address once, from
// the socket and TRUST_PROXY_HOPS (server/http/client-ip.ts). Next alone keeps a
// client-sent X-Forwarded-For and never tells route handlers the socket address.
//   node --import tsx scripts/serve.ts start|dev -p PORT
// The standalone output runs the same file bundled (server/cli/standalone.ts):
//   node .next/standalone/web.mjs        (PORT from the environment)
// `npm run web` runs that bundle: web only, no workers and no migrations.
// With WEB_CONCURRENCY=n > 1 (production only) this process is a node:cluster primary
// that forks n workers, each running this file as a whole web server on the same port
// (server/cli/web-cluster.ts); `dev` always serves in one process.
import cluster from "node:cluster";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadSettingsOrExit } from "@/server/cli/settings";
import { runWebCluster } from "@/server/cli/web-cluster";

const [mode, , portArg] = process.argv.slice(2);
const dev = mode === "dev";
const port = Number(portArg ?? process.env.PORT ?? 3000);
// Next serves a build with NODE_ENV=production and sets it itself; set it first, so the settings are
// checked here as the route handlers will read them and a mistake stops the start with its sentence
// (not a server that answers 500 to every request: "SECRET_KEY: required in production").
if (!dev) Object.assign(process.env, { NODE_ENV: process.env.NODE_ENV ?? "production" });
const env = loadSettingsOrExit("web");
const hops = env.TRUST_PROXY_HOPS;

if (cluster.isPrimary && !dev && env.WEB_CONCURRENCY > 1) runWebCluster({ workers: env.WEB_CONCURRENCY, port });
else await serve();

async function serve(): Promise<void> {
  // Loaded here, not by a primary that only supervises: Next, the database, search.
  const [{ default: next }, { tagClientIp }, { requestIdFor }, { getDb }, { startSearchWarmUp }, { flushRequestLog }, { observeRequest }, { answerMetricsCollection }, { loadRouteClasses }] =
    await Promise.all([
      import("next"),
      import("@/server/http/client-ip"),
      import("@/server/http/request-id"),
      import("@/db/client"),
      import("@/server/search/warm"),
      import("@/server/services/request-log"),
      import("@/server/observability/http"),
      import("@/server/observability/cluster-metrics"),
      import("@/server/observability/routes"),
    ]);
  // In a cluster, this worker's name in its console lines (its JSON log lines carry `worker` and `pid`).
  const workerName = cluster.isWorker ? ` (worker ${cluster.worker!.id}, pid ${process.pid})` : "";
  if (cluster.isWorker) answerMetricsCollection(env.DB_POOL_MAX);

  // A production start serves the build with the config it was built with, as the
  // server.js Next writes into .next/standalone does (that folder has no next.config;
  // npm start's has, and Next would warn that `next start` is not for standalone builds).
  // Bundled into the standalone folder, this file sits beside that server.js and .next.
  const here = path.dirname(fileURLToPath(import.meta.url));
  const standalone = !dev && existsSync(path.join(here, ".next", "required-server-files.json")) && existsSync(path.join(here, "server.js"));
  const dir = standalone ? here : process.cwd();
  const builtConfig = path.join(dir, ".next", "required-server-files.json");
  let conf: Record<string, unknown> | undefined;
  if (!dev && existsSync(builtConfig)) {
    conf = (JSON.parse(readFileSync(builtConfig, "utf8")) as { config: Record<string, unknown> }).config;
    process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(conf);
  }
  if (standalone) process.chdir(here);
  // The route classes of log lines and metrics, read now from the folder served, not on the first answer.
  loadRouteClasses();
  const app = next({ dev, port, dir, ...(conf ? { conf } : {}) });
  const handle = app.getRequestHandler();
  await app.prepare();

  // HSTS only where the public URL is https (a plain-http demo must stay reachable).
  const hsts = env.APP_URL.startsWith("https:") ? "max-age=63072000; includeSubDomains" : undefined;

  const server = createServer((request, response) => {
    const clientIp = tagClientIp(request, hops);
    // Every answer carries X-Request-Id, the framework's own (404s, next-auth, tRPC)
    // included; route handlers echo the same id from the request.
    const requestId = requestIdFor(request.headers["x-request-id"]);
    request.headers["x-request-id"] = requestId;
    response.setHeader("x-request-id", requestId);
    observeRequest(request, response, requestId, clientIp); // its log line and metrics, once answered
    if (hsts) response.setHeader("strict-transport-security", hsts);
    void handle(request, response);
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    console.error(`web server: ${error.code === "EADDRINUSE" ? `port ${port} is already in use` : error.message}`);
    process.exit(1);
  });
  server.listen(port, () => {
    console.log(`web server listening on port ${port}${hops ? ` (trusting ${hops} proxy hop(s))` : ""}${workerName}`);
    // The search index loads once listening (server/search/warm.ts), so no first search waits for it; readiness does, a while.
    void startSearchWarmUp(getDb()).then(({ error, ms, words, phrases }) => {
      if (error) console.error(`search index not loaded at start (searches will load it): ${error}${workerName}`);
      else console.log(`search index loaded in ${((ms ?? 0) / 1000).toFixed(1)} s: ${words} words, ${phrases} names as phrases${workerName}`);
    });
  });

  // A worker gets its signal from the primary and, from a terminal's Ctrl-C, one of its own: it stops once.
  let stopping = false;
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      server.close();
      // The request log's buffer lives on globalThis, shared with the route bundles.
      void flushRequestLog()
        .then(
          () => console.log(`web server stopped on ${signal}, request log flushed${workerName}`),
          (error: Error) => console.error(`web server stopped on ${signal}, request log not flushed: ${error.message}${workerName}`),
        )
        .then(() => app.close?.())
        .finally(() => process.exit(0));
      setTimeout(() => process.exit(0), 3000).unref();
    });
  }
}
