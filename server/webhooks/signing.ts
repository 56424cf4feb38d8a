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

export const WEBHOOK_HEADERS = {
  signature: "x-service-signature",
  eventId: "x-service-event-id",
  timestamp: "x-service-timestamp",
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

/** The headers of one delivery attempt; `previousSecret` while a roll's grace lasts. */
export function webhookHeaders(input: { secret: string; previousSecret?: string; body: string; eventId: string; timestampSeconds: number }) {
  const signatures = [input.secret, input.previousSecret].flatMap((secret) => (secret ? [signWebhookBody(secret, input.body)] : []));
  return {
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
    [WEBHOOK_HEADERS.signature]: signatures.join(","),
    [WEBHOOK_HEADERS.eventId]: input.eventId,
    [WEBHOOK_HEADERS.timestamp]: String(input.timestampSeconds),
  };
}
