import { randomUUID } from "node:crypto";
import { parseRetryAfter } from "./errors.js";
import { IDEMPOTENT_OPERATIONS } from "./generated/idempotent-operations.js";
import { signRequest, type Credentials } from "./signing.js";

// The fetch the typed client sends through: each attempt is signed afresh (new
// timestamp and nonce: the server refuses a nonce it has seen), an operation
// that takes an Idempotency-Key gets one that stays the same on every retry,
// and 429, 5xx and (for requests safe to repeat) network errors are retried
// with exponential back-off and full jitter, never sooner than Retry-After.

export interface RetryOptions {
  /** Retries after the first attempt (default 3; 0 disables). */
  maxRetries?: number;
  /** First back-off ceiling in ms (default 500); doubles per retry. */
  baseDelayMs?: number;
  /** Back-off ceiling in ms (default 20 000). */
  maxDelayMs?: number;
  /** A Retry-After longer than this (seconds, default 60) is not waited for: the 429 is returned. */
  maxRetryAfterSeconds?: number;
}

export interface TransportOptions extends Credentials {
  fetch?: (request: Request) => Promise<Response>;
  retry?: RetryOptions;
  /** Called before each retry (logging, metrics). */
  onRetry?: (info: RetryInfo) => void;
  /** Injectable for tests. */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export interface RetryInfo {
  attempt: number;
  delayMs: number;
  method: string;
  path: string;
  /** The status retried, or null for a network error. */
  status: number | null;
  error?: unknown;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/** Full jitter: a random wait up to base * 2^attempt (capped), but at least what Retry-After asks. */
export function backoffDelay(attempt: number, retryAfterSeconds: number | null, options: Required<RetryOptions>, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** attempt);
  const jittered = Math.round(random() * ceiling);
  return retryAfterSeconds === null ? jittered : retryAfterSeconds * 1000 + Math.round(random() * Math.min(1000, ceiling));
}

export function createTransport(options: TransportOptions): (request: Request) => Promise<Response> {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const retry: Required<RetryOptions> = { maxRetries: 3, baseDelayMs: 500, maxDelayMs: 20_000, maxRetryAfterSeconds: 60, ...options.retry };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const random = options.random ?? Math.random;

  return async (request: Request) => {
    const url = new URL(request.url);
    const method = request.method.toUpperCase();
    const body = method === "GET" || method === "HEAD" ? undefined : new Uint8Array(await request.arrayBuffer());
    const headers = new Headers(request.headers);
    if (IDEMPOTENT_OPERATIONS.has(`${method} ${url.pathname}`) && !headers.has("idempotency-key")) headers.set("Idempotency-Key", randomUUID());
    const repeatable = SAFE_METHODS.has(method) || headers.has("idempotency-key");

    for (let attempt = 0; ; attempt++) {
      const signed = signRequest(options, { method, path: url.pathname, query: url.search, body });
      for (const [name, value] of Object.entries(signed)) headers.set(name, value);
      let response: Response;
      try {
        response = await send(new Request(url, { method, headers, body, signal: request.signal }));
      } catch (error) {
        // A request that may have reached the server is only repeated when repeating it is harmless.
        if (!repeatable || attempt >= retry.maxRetries || request.signal.aborted) throw error;
        const delayMs = backoffDelay(attempt, null, retry, random);
        options.onRetry?.({ attempt: attempt + 1, delayMs, method, path: url.pathname, status: null, error });
        await sleep(delayMs);
        continue;
      }
      if (!(response.status === 429 || response.status >= 500) || attempt >= retry.maxRetries) return response;
      const retryAfter = parseRetryAfter(response.headers.get("retry-after"));
      if (retryAfter !== null && retryAfter > retry.maxRetryAfterSeconds) return response;
      await response.body?.cancel();
      const delayMs = backoffDelay(attempt, retryAfter, retry, random);
      options.onRetry?.({ attempt: attempt + 1, delayMs, method, path: url.pathname, status: response.status });
      await sleep(delayMs);
    }
  };
}
