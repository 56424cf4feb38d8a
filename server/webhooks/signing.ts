import { hmacSha256Hex, safeEqual } from "@/server/crypto";

// Webhook signatures (SPEC "Events"): X-Service-Signature is the lowercase hex
// HMAC-SHA256 of the raw body bytes, keyed with the partner's webhook secret,
// with no `v1=` prefix (unlike partner requests). The body is signed exactly as
// sent, so receivers must verify before parsing.

export const WEBHOOK_HEADERS = {
  signature: "x-service-signature",
  eventId: "x-service-event-id",
  timestamp: "x-service-timestamp",
} as const;

export const WEBHOOK_USER_AGENT = "PartnerDomainMarketplace-Webhooks/1.0";

export function signWebhookBody(secret: string, body: string | Uint8Array): string {
  return hmacSha256Hex(secret, body);
}

/** What a receiver does: recompute and compare in constant time. */
export function verifyWebhookSignature(secret: string, body: string | Uint8Array, signature: string | null | undefined): boolean {
  return typeof signature === "string" && safeEqual(signWebhookBody(secret, body), signature);
}

/** The headers of one delivery attempt. */
export function webhookHeaders(input: { secret: string; body: string; eventId: string; timestampSeconds: number }) {
  return {
    "content-type": "application/json",
    "user-agent": WEBHOOK_USER_AGENT,
    [WEBHOOK_HEADERS.signature]: signWebhookBody(input.secret, input.body),
    [WEBHOOK_HEADERS.eventId]: input.eventId,
    [WEBHOOK_HEADERS.timestamp]: String(input.timestampSeconds),
  };
}
