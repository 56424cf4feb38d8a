import http from "node:http";
import https from "node:https";
import { performance } from "node:perf_hooks";
import { BlockedAddressError, classifyAddress, guardedLookup, hostOf } from "./ssrf";

// One HTTP attempt of one delivery. Never throws: every outcome, including a
// refused target, becomes an AttemptResult the worker records. Redirects are
// not followed (a 3xx is simply not a 2xx), and the socket only ever connects to
// an address guardedLookup has just checked.

export const DEFAULT_TIMEOUT_MS = 5000;
/** How much of a receiver's answer is kept in the attempt log. */
export const RESPONSE_BODY_LIMIT = 2048;

export interface AttemptRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  allowPrivateTargets: boolean;
  agents?: Agents;
}

export interface AttemptResult {
  /** Any 2xx. */
  ok: boolean;
  status: number | null;
  latencyMs: number;
  /** Why no status was obtained (timeout, refused target, connection error). */
  error: string | null;
  responseBody: string | null;
}

export interface Agents {
  http: http.Agent;
  https: https.Agent;
  destroy(): void;
}

/** Idle kept-alive sockets close after this, below the 5 s keep-alive of Node and Apache servers. */
export const FREE_SOCKET_TIMEOUT_MS = 4000;

/** Keep-alive agents for one worker: a busy endpoint reuses its connections. */
export function createAgents(maxSockets = 16): Agents {
  // `timeout` is what Node's agent applies to a free socket (a receiver's Keep-Alive: timeout hint shortens it further).
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: "lifo" as const, timeout: FREE_SOCKET_TIMEOUT_MS };
  const agents = { http: new http.Agent(options), https: new https.Agent(options) };
  return { ...agents, destroy: () => (agents.http.destroy(), agents.https.destroy()) };
}

export async function attemptDelivery(request: AttemptRequest): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let target: URL;
  try {
    target = new URL(request.url);
  } catch {
    return failure(0, "the endpoint URL is not a valid URL");
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return failure(0, "the endpoint URL is not http or https");
  // A literal address never goes through the lookup, so it is checked here.
  const host = hostOf(target);
  try {
    const kind = classifyAddress(host);
    if (kind !== "public" && !request.allowPrivateTargets) return failure(0, new BlockedAddressError(host, host, kind).message);
  } catch {
    // Not a literal: guardedLookup checks whatever the name resolves to.
  }
  // One request per attempt, whatever fails: a connection reset on a kept-alive socket
  // may come after the receiver read the request (the reliability harness's resetting
  // receiver got two per attempt when this retried on a fresh socket), so it is a failed
  // attempt like any other and the schedule retries it. Idle sockets are closed before
  // a receiver's usual keep-alive timeout (createAgents), which makes that race rare.
  const result = await send(target, request, started);
  return { ok: result.ok, status: result.status, latencyMs: elapsed(), error: result.error, responseBody: result.responseBody };
}

function failure(latencyMs: number, error: string): AttemptResult {
  return { ok: false, status: null, latencyMs, error, responseBody: null };
}

function send(target: URL, request: AttemptRequest, started: number): Promise<AttemptResult> {
  const remaining = Math.max(1, request.timeoutMs - (performance.now() - started));
  const transport = target.protocol === "https:" ? https : http;
  const agent = request.agents ? (target.protocol === "https:" ? request.agents.https : request.agents.http) : false;
  return new Promise((resolve) => {
    let settled = false;
    let status: number | null = null;
    const chunks: Buffer[] = [];
    let kept = 0;
    const finish = (outcome: Partial<AttemptResult>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // PostgreSQL text cannot hold NUL, so a receiver's binary answer is logged without it.
      const responseBody = status === null ? null : Buffer.concat(chunks).toString("utf8").replaceAll("\0", "\uFFFD");
      resolve({ ok: status !== null && status >= 200 && status < 300, status, latencyMs: 0, error: null, responseBody, ...outcome });
    };
    const req = transport.request(target, {
      method: "POST",
      agent,
      headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
      lookup: guardedLookup(request.allowPrivateTargets),
    });
    const timer = setTimeout(() => {
      // A receiver that answered in time but is slow to finish its body still answered.
      if (status !== null) finish({});
      else finish({ error: `no response within ${request.timeoutMs} ms` });
      req.destroy();
    }, remaining);
    req.on("response", (res) => {
      status = res.statusCode ?? null;
      res.on("data", (chunk: Buffer) => {
        if (kept >= RESPONSE_BODY_LIMIT) return;
        const part = chunk.subarray(0, RESPONSE_BODY_LIMIT - kept);
        chunks.push(part);
        kept += part.length;
      });
      res.on("end", () => finish({}));
      res.on("error", () => finish({}));
    });
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (status !== null) return finish({});
      finish({ error: describeError(error) });
    });
    req.end(request.body);
  });
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error instanceof BlockedAddressError) return error.message;
  switch (error.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `host not found (${error.code})`;
    case "ECONNRESET":
      return "connection reset by the receiver";
    default:
      return error.code ? `${error.code}: ${error.message}` : error.message;
  }
}
