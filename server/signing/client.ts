import { randomUUID } from "node:crypto";
import { canonicalString, EMPTY_BODY_SHA256, sha256Hex, signCanonical } from "./canonical";

// The project's own partner client: signs exactly as SPEC "Authentication" says.
// Used by the tests, the `npm run partner` CLI and the benchmarks.

export interface PartnerCredentials {
  keyId: string;
  secret: string;
}

export interface SignOptions {
  method: string;
  /** Path with optional query, e.g. `/api/partner/v1/availability?domain=x.com`. */
  url: string;
  body?: string | Uint8Array;
  timestamp?: number;
  nonce?: string;
}

/** The four authentication headers for one request. */
export function signRequest(credentials: PartnerCredentials, options: SignOptions): Record<string, string> {
  const parsed = new URL(options.url, "http://signing.invalid");
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = options.nonce ?? randomUUID();
  const method = options.method.toUpperCase();
  const hasBody = options.body !== undefined && method !== "GET" && method !== "HEAD";
  const canonical = canonicalString({
    method,
    path: parsed.pathname,
    query: parsed.search,
    timestamp,
    nonce,
    bodySha256: hasBody ? sha256Hex(options.body as string | Uint8Array) : EMPTY_BODY_SHA256,
  });
  return {
    "X-Service-Key-Id": credentials.keyId,
    "X-Service-Timestamp": timestamp,
    "X-Service-Nonce": nonce,
    "X-Service-Signature": signCanonical(credentials.secret, canonical),
  };
}

export interface PartnerResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface PartnerClientOptions extends PartnerCredentials {
  baseUrl: string;
  fetch?: typeof fetch;
}

export function createPartnerClient(options: PartnerClientOptions) {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, "");

  async function request<T = unknown>(
    method: string,
    url: string,
    body?: unknown,
    extra: { idempotencyKey?: string; headers?: Record<string, string> } = {},
  ): Promise<PartnerResponse<T>> {
    const raw = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
    const headers: Record<string, string> = {
      ...signRequest(options, { method, url, body: raw }),
      ...(raw !== undefined ? { "Content-Type": "application/json" } : {}),
      ...(extra.idempotencyKey ? { "Idempotency-Key": extra.idempotencyKey } : {}),
      ...extra.headers,
    };
    const response = await doFetch(`${base}${url}`, { method, headers, body: raw });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  }

  return {
    request,
    get: <T = unknown>(url: string) => request<T>("GET", url),
    post: <T = unknown>(url: string, body: unknown, idempotencyKey?: string) =>
      request<T>("POST", url, body, { idempotencyKey }),
    put: <T = unknown>(url: string, body: unknown) => request<T>("PUT", url, body),
  };
}

export type PartnerClient = ReturnType<typeof createPartnerClient>;
