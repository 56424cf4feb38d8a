import { createHash, createHmac } from "node:crypto";

// The signed-request protocol of SPEC "Authentication", shared verbatim by the
// server's verifier and the project's signing client so the two cannot drift.

export const SIGNATURE_HEADERS = {
  keyId: "x-service-key-id",
  timestamp: "x-service-timestamp",
  nonce: "x-service-nonce",
  signature: "x-service-signature",
} as const;

export const EMPTY_BODY_SHA256 = createHash("sha256").update("").digest("hex");

const PLAIN_PAIR = /^[A-Za-z0-9._~-]+=[A-Za-z0-9._~-]*$/;

/** encodeURIComponent plus uppercase escapes for ! ' ( ) *. */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * Canonical query: decode the pairs as a browser's URLSearchParams does ("+" is a
 * space, a bad "%" escape stays literal), sort by key then value comparing the
 * decoded strings by UTF-16 code unit (JavaScript's default string order), encode
 * each with encodeRfc3986 and join as k=v with "&". Accepts "?a=1", "a=1" or "".
 */
export function canonicalQuery(search: string | URLSearchParams | Iterable<readonly [string, string]>): string {
  // One pair of unreserved characters (`domain=example.com`) decodes and encodes to itself
  // and needs no sorting: it is its own canonical form (the signed GETs' common case).
  if (typeof search === "string") {
    const raw = search.startsWith("?") ? search.slice(1) : search;
    if (PLAIN_PAIR.test(raw)) return raw;
  }
  const pairs: [string, string][] =
    typeof search === "string"
      ? [...new URLSearchParams(search.startsWith("?") ? search.slice(1) : search)]
      : [...search].map(([k, v]) => [k, v]);
  pairs.sort(([ka, va], [kb, vb]) => (ka < kb ? -1 : ka > kb ? 1 : va < vb ? -1 : va > vb ? 1 : 0));
  return pairs.map(([k, v]) => `${encodeRfc3986(k)}=${encodeRfc3986(v)}`).join("&");
}

export interface CanonicalParts {
  method: string;
  /** URL path as sent, starting with "/" and including /api/partner/v1. */
  path: string;
  /** Raw query string (with or without "?") or already-split pairs. */
  query: string | URLSearchParams;
  timestamp: string;
  nonce: string;
  bodySha256: string;
}

export function canonicalString(parts: CanonicalParts): string {
  return [
    parts.method.toUpperCase(),
    parts.path,
    canonicalQuery(parts.query),
    parts.timestamp,
    parts.nonce,
    parts.bodySha256,
  ].join("\n");
}

/** `v1=` + lowercase hex HMAC-SHA256 of the canonical string, keyed with the UTF-8 secret. */
export function signCanonical(secret: string, canonical: string): string {
  return `v1=${createHmac("sha256", secret).update(canonical, "utf8").digest("hex")}`;
}

export function sha256Hex(body: string | Uint8Array): string {
  return createHash("sha256").update(body).digest("hex");
}
