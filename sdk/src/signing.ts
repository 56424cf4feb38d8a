import { createHash, createHmac, randomUUID } from "node:crypto";

// The signed-request scheme of the partner API ("Signed requests" in the API
// reference), carried by the SDK itself so it depends on nothing of the server.
// tests/unit/sdk.test.ts checks it signs exactly as the server's own client.

export interface Credentials {
  /** Public key id, `pk_sandbox_...` or `pk_live_...`; it selects the environment. */
  keyId: string;
  /** The secret shown once when the key was created. Never sent. */
  secret: string;
}

export interface SignInput {
  method: string;
  /** URL path starting with "/" (including /api/partner/v1). */
  path: string;
  /** Raw query string, with or without "?"; "" when none. */
  query: string;
  /** The body bytes exactly as sent; omitted for none. */
  body?: string | Uint8Array;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
  /** Defaults to a fresh UUID v4: every request, retries included, needs its own. */
  nonce?: string;
}

/** encodeURIComponent plus uppercase escapes of ! ' ( ) *. */
function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** Pairs decoded as URLSearchParams does, sorted by key then value (UTF-16 order), re-encoded, joined with "&". */
export function canonicalQuery(query: string): string {
  const pairs = [...new URLSearchParams(query.startsWith("?") ? query.slice(1) : query)];
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return pairs.map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`).join("&");
}

const sha256Hex = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** The six lines the signature covers. */
export function canonicalString(input: SignInput & { timestamp: number; nonce: string }): string {
  const method = input.method.toUpperCase();
  const hasBody = input.body !== undefined && method !== "GET" && method !== "HEAD";
  return [method, input.path, canonicalQuery(input.query), String(input.timestamp), input.nonce, sha256Hex(hasBody ? (input.body as string | Uint8Array) : "")].join("\n");
}

/** The four authentication headers of one request. */
export function signRequest(credentials: Credentials, input: SignInput): Record<string, string> {
  const timestamp = input.timestamp ?? Math.floor(Date.now() / 1000);
  const nonce = input.nonce ?? randomUUID();
  const canonical = canonicalString({ ...input, timestamp, nonce });
  return {
    "X-Service-Key-Id": credentials.keyId,
    "X-Service-Timestamp": String(timestamp),
    "X-Service-Nonce": nonce,
    "X-Service-Signature": `v1=${createHmac("sha256", credentials.secret).update(canonical, "utf8").digest("hex")}`,
  };
}
