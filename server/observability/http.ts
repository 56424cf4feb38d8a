import type { IncomingMessage, ServerResponse } from "node:http";
import { performance } from "node:perf_hooks";
import { getRequestLogger } from "./logger";
import { getMetrics } from "./metrics";
import { OBSERVE_SLOT_HEADER, openNote, type RequestNote } from "./request-notes";
import { routeClassOf, UNMATCHED } from "./routes";

// One log line and the request metrics for every answer the web server gives,
// recorded where the request is served (scripts/serve.ts), after the last byte is
// handed to the socket: the caller never waits for it, and nothing here touches
// the database.
//
// What only a route knows (the signed request's partner and key) reaches the line
// through the request's note (request-notes.ts).
//
// Never logged: the query string (it can carry tokens: /checkout?pt=...), the raw
// path (ids, domain names: the route class stands for it), headers, bodies.

/** Probes and scrapes log at debug: an orchestrator polls them every few seconds. */
const QUIET_ROUTES = new Set(["/api/health", "/api/health/live", "/api/health/ready", "/metrics"]);
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
/** The status logged and counted when the client went away before the answer was complete (nginx's). */
export const CLIENT_CLOSED = 499;

/** Called by the web server for each request, before the app sees it. */
export function observeRequest(request: IncomingMessage, response: ServerResponse, requestId: string, clientIp: string): void {
  const started = performance.now();
  const { slot, note, close } = openNote();
  request.headers[OBSERVE_SLOT_HEADER] = slot; // replaces any copy the client sent
  // "close" follows "finish" on a complete answer, and comes alone when the connection dropped first.
  response.once("close", () => {
    close();
    const status = response.writableFinished ? response.statusCode : CLIENT_CLOSED;
    recordRequest({
      requestId,
      method: METHODS.has(request.method ?? "") ? request.method! : "OTHER",
      route: routeOfUrl(request.url),
      status,
      seconds: (performance.now() - started) / 1000,
      clientIp,
      note,
    });
  });
}

function routeOfUrl(url: string | undefined): string {
  if (!url?.startsWith("/")) return UNMATCHED;
  const query = url.indexOf("?");
  return routeClassOf(query < 0 ? url : url.slice(0, query));
}

interface Served {
  requestId: string;
  method: string;
  route: string;
  status: number;
  seconds: number;
  clientIp: string;
  note: RequestNote;
}

function recordRequest(served: Served): void {
  const { route, method, status } = served;
  const metrics = getMetrics();
  metrics.httpRequests.inc({ route, method, status: String(status) });
  metrics.httpDuration.observe({ route, method }, served.seconds);
  if (status === 429) metrics.rateLimitRefusals.inc({ route });

  const logger = getRequestLogger();
  const level = status >= 500 ? "error" : QUIET_ROUTES.has(route) ? "debug" : "info";
  if (!logger.isLevelEnabled(level)) return;
  const { partnerId, keyId, errorCode } = served.note;
  logger[level](
    {
      requestId: served.requestId,
      method,
      route,
      status,
      latencyMs: Math.round(served.seconds * 100_000) / 100,
      clientIp: served.clientIp,
      ...(partnerId && { partnerId, keyId }),
      ...(errorCode && { errorCode }),
    },
    `${method} ${route} ${status}`,
  );
}
