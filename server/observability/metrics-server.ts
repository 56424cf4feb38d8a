import { createServer, type Server } from "node:http";
import { getDb } from "@/db/client";
import { errorBody } from "@/server/errors";
import { getEnv } from "@/server/env";
import { requestIdFor } from "@/server/http/request-id";
import { refreshDatabaseGauges } from "./database-gauges";
import { getMetrics, scrapeRefusal } from "./metrics";

// The worker's GET /metrics (webhook attempts, delivery lag, the queue) on its
// own port: a worker has no web server, and the web server's /metrics is another
// process's registry. Same token rule as the web's /metrics.

/** Serves this process's metrics on METRICS_PORT (or `port`); undefined when neither is set. */
export async function serveProcessMetrics(port: number | undefined = getEnv().METRICS_PORT): Promise<Server | undefined> {
  if (port === undefined) return undefined;
  const server = createServer((request, response) => {
    void answer(request.method ?? "GET", request.url ?? "/", request.headers.authorization).then(({ status, headers, body }) =>
      response.writeHead(status, headers).end(body),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) =>
      reject(new Error(error.code === "EADDRINUSE" ? `METRICS_PORT ${port} is already in use` : `metrics server: ${error.message}`)),
    );
    server.listen(port, () => resolve());
  });
  return server;
}


async function answer(method: string, url: string, authorization: string | undefined) {
  const requestId = requestIdFor(undefined);
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers: { "content-type": "application/json; charset=utf-8", "x-request-id": requestId, ...headers },
    body: JSON.stringify(body),
  });
  if (url.split("?", 1)[0] !== "/metrics") return json(404, { error: { code: "not_found", message: "only GET /metrics is served here", request_id: requestId } });
  if (method !== "GET" && method !== "HEAD") {
    return json(405, { error: { code: "method_not_allowed", message: `${method} is not allowed here; use GET`, request_id: requestId } }, { allow: "GET" });
  }
  const env = getEnv();
  const refusal = scrapeRefusal(env, authorization);
  if (refusal) return json(refusal.status, errorBody(refusal, requestId), refusal.headers);
  await refreshDatabaseGauges(getDb(), env.DB_POOL_MAX);
  const { registry } = getMetrics();
  return { status: 200, headers: { "content-type": registry.contentType }, body: await registry.metrics() };
}
