import { eventSchema } from "@/server/contracts/events";
import { eventCatalog, eventTypes } from "@/server/webhooks/catalog";

import type { Json } from "./build";

/** How the Standard Webhooks headers relate to the partner's secret (also in the README). */
export const STANDARD_WEBHOOKS_RULES =
  "Standard Webhooks: every delivery also carries `webhook-id`, `webhook-timestamp` and `webhook-signature` as the " +
  "Standard Webhooks specification defines them, so its libraries verify deliveries with the secret you hold: " +
  "`new Webhook(secret).verify(rawBody, headers)` (npm `standardwebhooks`). The HMAC key is what those libraries " +
  "derive from a `whsec_` secret: the part after `whsec_`, base64-decoded. Secrets the dashboard generates " +
  "(`whsec_` + 40 base62 characters) always have that form. A secret you chose that is not base64 after an optional " +
  "`whsec_` (for example one containing `-`) is used as its own UTF-8 bytes instead: verify it with " +
  "`new Webhook(secret, { format: \"raw\" })`. Verification rejects timestamps more than 5 minutes away.";

// The OpenAPI 3.1 `webhooks` object: one entry per event type the service POSTs
// to a partner's registered URL, with the delivery headers and the retry rules.

const DELIVERY_RULES =
  "Delivered as a POST with a JSON body to the URL registered with PUT /api/partner/webhooks, at least once, in event " +
  "order per endpoint. Verify `X-Service-Signature` (lowercase hex HMAC-SHA256 of the raw body keyed with your webhook " +
  "secret, no `v1=` prefix) in constant time before processing, and deduplicate on `X-Service-Event-Id`. Answer any " +
  "2xx within 5 seconds; anything else (or no answer) is retried after 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and " +
  "24 h, then the delivery is marked failed (still in GET /api/partner/v1/events and replayable). Redirects are not followed.\n\n" +
  STANDARD_WEBHOOKS_RULES;

const deliveryHeaders = [
  { name: "X-Service-Signature", description: "Lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook secret." },
  { name: "X-Service-Event-Id", description: "The event id (`evt_...`), the same as the body's `id`; use it to deduplicate." },
  { name: "X-Service-Timestamp", description: "Unix seconds when this attempt was sent." },
  { name: "webhook-id", description: "Standard Webhooks message id: the event id, the same on every retry." },
  { name: "webhook-timestamp", description: "Standard Webhooks timestamp: the same Unix seconds as `X-Service-Timestamp`." },
  {
    name: "webhook-signature",
    description:
      "Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{raw body}`; two of them, " +
      "space-separated, while a rolled secret is in its grace.",
  },
].map((h) => ({ in: "header", required: true, schema: { type: "string" }, ...h }));

export function webhookOperations(convert: (schema: typeof eventSchema) => Json): Record<string, Json> {
  const schema = convert(eventSchema);
  return Object.fromEntries(
    eventTypes.map((type) => [
      type,
      {
        post: {
          operationId: `webhook_${type.replace(/\W/g, "_")}`,
          tags: ["Webhooks and events"],
          summary: eventCatalog[type].description,
          description: DELIVERY_RULES,
          parameters: deliveryHeaders,
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema,
                example: {
                  id: "evt_0351K0hP90VyOYac6ePQRx",
                  type,
                  created_at: "2026-01-31T12:00:00.000Z",
                  partner_id: "ptn_0351K0hP90VyOYac6ePQRx",
                  data: eventCatalog[type].sample,
                },
              },
            },
          },
          responses: { "2XX": { description: "Received; anything else is retried." } },
        },
      },
    ]),
  );
}
