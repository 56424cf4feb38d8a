import { createHmac } from "node:crypto";
import { hmacSha256Hex, safeEqual } from "@/server/crypto";

// Webhook signatures (SPEC "Events"): X-Service-Signature is the lowercase hex
// HMAC-SHA256 of the raw body bytes, keyed with the partner's webhook secret,
// with no `v1=` prefix (unlike partner requests). The body is signed exactly as
// sent, so receivers must verify before parsing.
//
// While a rolled secret is in its grace, the header lists two signatures,
// comma-separated, the new secret's first: a receiver accepts the delivery when
// any listed signature matches its secret (as Stripe does with several v1=
// values), so it keeps verifying whether it has switched to the new secret yet.
//
// Every delivery also carries the Standard Webhooks headers (webhook-id,
// webhook-timestamp, webhook-signature), so the `standardwebhooks` libraries
// verify it with the same secret: see standardWebhooksKey for the key.

export const WEBHOOK_HEADERS = {
  signature: "x-service-signature",
  eventId: "x-service-event-id",
  timestamp: "x-service-timestamp",
} as const;

export const STANDARD_WEBHOOK_HEADERS = {
  id: "webhook-id",
  timestamp: "webhook-timestamp",
  signature: "webhook-signature",
} as const;

export const WEBHOOK_USER_AGENT = "PartnerDomainMarketplace-Webhooks/1.0";

export function signWebhookBody(secret: string, body: string | Uint8Array): string {
  return hmacSha256Hex(secret, body);
}

/** What a receiver does: recompute and compare in constant time with each listed signature. */
export function verifyWebhookSignature(secret: string, body: string | Uint8Array, signature: string | null | undefined): boolean {
  if (typeof signature !== "string") return false;
  const expected = signWebhookBody(secret, body);
  return signature.split(",").some((candidate) => safeEqual(expected, candidate.trim()));
}

/** Standard base64 (what `new Webhook(secret)` decodes): the alphabet, at least 4 characters, at most two trailing "=". */
const BASE64 = /^[A-Za-z0-9+/]{2,}={0,2}$/;
const STANDARD_PREFIX = "whsec_";

/**
 * The HMAC key of the Standard Webhooks signature for one of our secrets, the
 * same bytes `new Webhook(secret)` of the `standardwebhooks` library derives:
 * without a leading `whsec_`, the rest base64-decoded. Secrets the dashboard
 * generates (`whsec_` + 40 base62 characters) are always of that form. A secret
 * the partner chose that is not (say `my-hook-secret-1`, which the library's
 * constructor refuses) is used as its own UTF-8 bytes, which is what the
 * library's `{ format: "raw" }` option does with the whole secret.
 */
export function standardWebhooksKey(secret: string): Buffer {
  const rest = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  if (rest.length >= 4 && BASE64.test(rest)) {
    const key = Buffer.from(rest, "base64");
    if (key.length > 0) return key;
  }
  return Buffer.from(secret, "utf8");
}

/** `v1,` + base64 HMAC-SHA256 of `id.timestamp.body` (Standard Webhooks "Signature scheme"). */
export function signStandardWebhook(secret: string, input: { id: string; timestampSeconds: number; body: string }): string {
  const mac = createHmac("sha256", standardWebhooksKey(secret)).update(`${input.id}.${input.timestampSeconds}.${input.body}`, "utf8");
  return `v1,${mac.digest("base64")}`;
}

/** The headers of one delivery attempt; `previousSecret` while a roll's grace lasts. */
export function webhookHeaders(input: { secret: string; previousSecret?: string; body: string; eventId: string; timestampSeconds: number }) {
  const secrets = [input.secret, input.previousSecret].filter((secret): secret is string => Boolean(secret));
  const standard = { id: input.eventId, timestampSeconds: input.timestampSeconds, body: input.body };
  return {
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
    [WEBHOOK_HEADERS.signature]: secrets.map((secret) => signWebhookBody(secret, input.body)).join(","),
    [WEBHOOK_HEADERS.eventId]: input.eventId,
    [WEBHOOK_HEADERS.timestamp]: String(input.timestampSeconds),
    // Standard Webhooks: the message id stays the same across retries; several signatures are space-separated.
    [STANDARD_WEBHOOK_HEADERS.id]: input.eventId,
    [STANDARD_WEBHOOK_HEADERS.timestamp]: String(input.timestampSeconds),
    [STANDARD_WEBHOOK_HEADERS.signature]: secrets.map((secret) => signStandardWebhook(secret, standard)).join(" "),
  };
}
