import { eventSchema } from "@/server/contracts/events";
import { eventCatalog, eventTypes } from "@/server/webhooks/catalog";

import type { Json } from "./build";

// The OpenAPI 3.1 `webhooks` object: one entry per event type the service POSTs
// to a partner's registered URL, with the delivery headers and the retry rules.

const DELIVERY_RULES =
  "Delivered as a POST with a JSON body to the URL registered with PUT /api/partner/webhooks, at least once, in event " +
  "order per endpoint. Verify `X-Service-Signature` (lowercase hex HMAC-SHA256 of the raw body keyed with your webhook " +
  "secret, no `v1=` prefix) in constant time before processing, and deduplicate on `X-Service-Event-Id`. Answer any " +
  "2xx within 5 seconds; anything else (or no answer) is retried after 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and " +
  "24 h, then the delivery is marked failed (still in GET /api/partner/v1/events and replayable). Redirects are not followed.";

const deliveryHeaders = [
  { name: "X-Service-Signature", description: "Lowercase hex HMAC-SHA256 of the raw body, keyed with the webhook secret." },
  { name: "X-Service-Event-Id", description: "The event id (`evt_...`), the same as the body's `id`; use it to deduplicate." },
  { name: "X-Service-Timestamp", description: "Unix seconds when this attempt was sent." },
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
