import type { Query, SQL } from "drizzle-orm";
import type { z } from "zod";
import type { Environment } from "@/db/schema";
import { getDb, type Database } from "@/db/client";
import { AppError, isAppError, validationError } from "@/server/errors";
import { performance } from "node:perf_hooks";
import { clock } from "@/server/clock";
import { logRequest } from "@/server/services/request-log";
import { annotateRequest } from "@/server/observability/request-notes";
import { authenticatePartner, type GateTrace, type PartnerAuth } from "./authenticate";
import type { RateLimitState } from "./rate-limit";
import type { EndpointContract } from "./contract";
import { errorResponse, jsonResponse, requestIdFor } from "./respond";

// Every signed partner route is built here from small steps:
// request id -> signature, nonce, scope, rate limit (authenticate.ts) ->
// parse params/query/body with the contract's schemas -> handler -> error mapping.

type Out<T> = T extends z.ZodType ? z.output<T> : never;

export interface HandlerInput<C extends EndpointContract> {
  db: Database;
  auth: PartnerAuth;
  params: Out<C["params"]>;
  query: Out<C["query"]>;
  body: Out<C["body"]>;
  /** The body bytes exactly as signed (idempotency fingerprints hash these). */
  rawBody: Uint8Array;
  request: Request;
  requestId: string;
  /** RouteOptions.read's first row as JSON (null: no row), when the route has one. */
  read?: unknown;
}

export interface RouteOptions<C extends EndpointContract> {
  /**
   * The route's one read, sent in the signing gate's round trip and run once the request
   * has passed the gate (authenticate.ts, GateOptions.read): for read-only GET routes.
   * Given the credential's partner and environment and the parsed query; an AppError
   * thrown for a query it refuses sends no read (the handler then reports it).
   */
  read?: (input: { partnerId: string; environment: Environment; query: Out<C["query"]> }) => SQL | Query;
}

export type RouteContext = { params: Promise<Record<string, string | string[]>> };
export type RouteHandler = (request: Request, context: RouteContext) => Promise<Response>;

const validateResponses = process.env.NODE_ENV === "test";

export function partnerRoute<C extends EndpointContract>(
  contract: C,
  /** May answer without a promise (a handler with nothing to await saves its microtasks). */
  handler: (input: HandlerInput<C>) => Promise<z.input<C["response"]>> | z.input<C["response"]>,
  options: RouteOptions<C> = {},
): RouteHandler {
  // One promise for the whole request (respond's): each promise here pays Next's
  // AsyncLocalStorage hooks, so the logging runs at respond's end, not in an outer async step.
  return (request, context) => respond(request, context, performance.now());

  async function respond(request: Request, context: RouteContext, started: number): Promise<Response> {
    const requestId = requestIdFor(request);
    const trace: RouteTrace = {};
    const url = new URL(request.url);
    let response: Response;
    let rateLimit: RateLimitState | undefined;
    try {
      const db = getDb();
      // A route with a read parses its query first, to send the read with the gate; a
      // malformed query is still reported after the gate's own refusals, and sends no read.
      const query = options.read && contract.query ? contract.query.safeParse(queryObject(url.searchParams)) : undefined;
      const read = options.read && query?.success ? readFor(options.read, query.data as Out<C["query"]>) : undefined;
      const gate = await authenticatePartner(db, request, { scopes: contract.scopes, rateClass: contract.rateClass, url, read }, trace);
      rateLimit = gate.rateLimit;
      const input = {
        db,
        auth: gate.auth,
        rawBody: gate.rawBody,
        request,
        requestId,
        // Next hands every route a params promise; a route without params need not wait for it.
        params: contract.params ? parse(contract.params, await context.params) : undefined,
        query: query?.success ? checkNul(query.data) : parse(contract.query, queryObject(url.searchParams)),
        body: parse(contract.body, contract.body ? jsonBody(gate.rawBody) : undefined),
        ...("read" in gate && { read: gate.read }),
      } as HandlerInput<C>;
      const answer = handler(input);
      const result = answer instanceof Promise ? await answer : answer;
      if (validateResponses) contract.response.parse(result);
      response = jsonResponse(result, contract.successStatus ?? 200, answerHeaders(requestId, rateLimit));
    } catch (error) {
      trace.errorCode = isAppError(error) ? error.code : "internal_error";
      response = errorResponse(error, requestId, answerHeaders(requestId, rateLimit));
    }
    // For the web server's log line (server/observability/request-notes.ts): a map lookup, no I/O.
    annotateRequest(request, { partnerId: trace.credential?.partnerId, keyId: trace.credential?.keyId, errorCode: trace.errorCode });
    // Buffered, written off the request path (services/request-log.ts).
    if (trace.credential) {
      logRequest({
        requestId,
        partnerId: trace.credential.partnerId,
        environment: trace.credential.environment,
        keyId: trace.credential.keyId,
        method: request.method,
        path: url.pathname,
        status: response.status,
        errorCode: trace.errorCode ?? null,
        latencyMs: Math.round(performance.now() - started),
        clientIp: trace.clientIp ?? null,
        debug: trace.debug ?? null,
        createdAt: clock.now(),
      });
    }
    return response;
  }
}

/** X-Request-Id, and the RateLimit-* headers once the gate has taken a token. */
function answerHeaders(requestId: string, rateLimit: RateLimitState | undefined): Record<string, string> {
  return rateLimit
    ? {
        "x-request-id": requestId,
        "ratelimit-limit": String(rateLimit.limit),
        "ratelimit-remaining": String(rateLimit.remaining),
        "ratelimit-reset": String(rateLimit.resetSeconds),
      }
    : { "x-request-id": requestId };
}

type RouteTrace = GateTrace & { errorCode?: string };

/** No read for a query holding U+0000 or one the read refuses (an AppError): the handler reports it after the gate. */
function readFor<Q>(read: (input: { partnerId: string; environment: Environment; query: Q }) => SQL | Query, query: Q) {
  return (credential: { partnerId: string; environment: Environment }) => {
    if (nulPath(query, [])) return undefined;
    try {
      return read({ partnerId: credential.partnerId, environment: credential.environment, query });
    } catch (error) {
      if (isAppError(error)) return undefined;
      throw error;
    }
  };
}

/** Detail paths name the field as the partner sent it: `domain`, `buyer.email`. */
function parse(schema: z.ZodType | undefined, value: unknown): unknown {
  if (!schema) return undefined;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error.issues);
  return checkNul(result.data);
}

/** PostgreSQL text and jsonb cannot hold U+0000: such a value would reach the
 * database as a 500 (found by the reliability fuzz harness), so it is the caller's 400. */
function checkNul<T>(value: T): T {
  const nul = nulPath(value, []);
  if (nul) throw validationError([{ path: nul, message: "must not contain the NUL character (U+0000)" }]);
  return value;
}

/** The path of the first string (value or key) holding U+0000, if any. */
function nulPath(value: unknown, path: string[]): string[] | undefined {
  if (typeof value === "string") return value.includes("\u0000") ? path : undefined;
  if (value === null || typeof value !== "object") return undefined;
  for (const [key, inner] of Object.entries(value)) {
    if (key.includes("\u0000")) return [...path, key];
    const found = nulPath(inner, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** Repeated keys become arrays, so a schema expecting one value rejects them clearly. */
function queryObject(search: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of search) {
    const existing = out[key];
    out[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
  }
  return out;
}

function jsonBody(raw: Uint8Array): unknown {
  if (raw.byteLength === 0) throw new AppError("validation_error", "request body must be a JSON object");
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(raw));
  } catch {
    throw new AppError("validation_error", "request body is not valid UTF-8 JSON");
  }
}

const allMethods = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof allMethods)[number];

/** Handlers answering 405 method_not_allowed (with Allow) for the methods a route does not serve. */
export function methodsNotAllowed(allowed: readonly Method[]): Record<Method, RouteHandler> {
  const handler: RouteHandler = async (request) =>
    errorResponse(
      new AppError("method_not_allowed", `${request.method} is not allowed here; use ${allowed.join(", ")}`),
      requestIdFor(request),
      { allow: allowed.join(", ") },
    );
  return Object.fromEntries(allMethods.map((method) => [method, handler])) as Record<Method, RouteHandler>;
}
