import { z } from "zod";
import { defineEndpoint } from "@/server/http/contract";
import { timestamp } from "./common";

// Webhook registration: one endpoint per partner and environment, at
// /api/partner/webhooks (no version segment, per SPEC "Versioning").

export const WEBHOOKS_PATH = "/api/partner/webhooks";

const DELIVERY =
  "Deliveries: the service POSTs each event of the credential's environment to the URL with a JSON body " +
  "`{id, type, created_at, partner_id, data}` (the same event GET /events returns) and the headers " +
  "`X-Service-Signature` (lowercase hex HMAC-SHA256 of the raw body bytes keyed with `secret`, no `v1=` prefix; " +
  "verify it in constant time before parsing; while a secret rolled in the dashboard is in its grace period the header " +
  "lists two signatures, comma-separated, new secret first: accept the delivery when any one matches), `X-Service-Event-Id` and `X-Service-Timestamp` (Unix seconds of this " +
  "attempt). Any 2xx within 5 seconds is success; anything else (another status, a redirect, which is never " +
  "followed, a timeout or a connection error) is retried after 10 s, 1 min, 5 min, 30 min, 2 h, 6 h, 12 h and 24 h, " +
  "then the delivery is marked failed; the event stays in GET /events and can be replayed from the dashboard. " +
  "An endpoint whose every attempt has failed for 3 days is disabled (event `webhook_endpoint.disabled`); the " +
  "dashboard re-enables it and offers to resend what failed meanwhile. " +
  "Delivery is at-least-once: deduplicate on `X-Service-Event-Id`. Events reach one endpoint in GET /events order, " +
  "one request at a time; an event waiting out a retry delay does not hold back later ones. " +
  "Each delivery also carries the Standard Webhooks headers `webhook-id`, `webhook-timestamp` and `webhook-signature` " +
  "(see the `webhooks` section of this document for the key they are signed with).";

const URL_RULES =
  "The URL must be absolute http(s), without credentials or fragment, at most 2048 characters; https is required " +
  "for live credentials (plain http is accepted in sandbox). The host must resolve only to public addresses: " +
  "private, loopback, link-local, carrier-grade NAT, multicast, reserved, documentation and IPv4-mapped IPv6 " +
  "addresses are refused with 400 `validation_error`, and the address is checked again at every connection.";

export const webhookEndpointSchema = z
  .object({
    url: z.string().describe("Where events are POSTed."),
    active: z.boolean().describe("False after DELETE; PUT activates again."),
    created_at: timestamp.describe("When the endpoint was first registered in this environment."),
    updated_at: timestamp.describe("When the URL, secret or state last changed."),
  })
  .meta({ id: "WebhookEndpoint", description: "The webhook endpoint of the credential's environment. The secret is never returned." });

export const registerWebhookBody = z.object({
  url: z.string({ error: "url is required" }).trim().min(1, "url is required").max(2048, "url must be at most 2048 characters"),
  secret: z
    .string({ error: "secret is required" })
    .min(16, "secret must be at least 16 characters")
    .max(256, "secret must be at most 256 characters")
    .regex(/^[\x21-\x7e]+$/, "secret must be printable ASCII without spaces")
    .describe("Signing secret you choose (16 to 256 printable ASCII characters). Sent here only, stored encrypted, never returned."),
});

export const registerWebhookEndpoint = defineEndpoint({
  operationId: "registerWebhook",
  method: "PUT",
  path: WEBHOOKS_PATH,
  tag: "Webhooks and events",
  summary: "Register or replace the webhook endpoint",
  description:
    "Registers the endpoint of the credential's environment, or replaces its URL and secret (deliveries still " +
    "waiting go to the new URL, signed with the new secret). Always 200 with the endpoint, which is active. " +
    URL_RULES +
    " " +
    DELIVERY,
  scopes: ["webhook"],
  // DECISIONS: write is quotes, orders, checkout-session, refunds, brokerage POST, links POST; the rest is reporting.
  rateClass: "reporting",
  body: registerWebhookBody,
  response: webhookEndpointSchema,
  errors: ["validation_error"],
});

export const getWebhookEndpoint = defineEndpoint({
  operationId: "getWebhook",
  method: "GET",
  path: WEBHOOKS_PATH,
  tag: "Webhooks and events",
  summary: "The registered webhook endpoint",
  description: "The endpoint of the credential's environment (never its secret); 404 `not_found` when none was registered.",
  scopes: ["webhook"],
  rateClass: "reporting",
  response: webhookEndpointSchema,
  errors: ["not_found"],
});

export const deactivateWebhookEndpoint = defineEndpoint({
  operationId: "deactivateWebhook",
  method: "DELETE",
  path: WEBHOOKS_PATH,
  tag: "Webhooks and events",
  summary: "Stop webhook deliveries",
  description:
    "Deactivates the endpoint of the credential's environment: no further deliveries are made and those still " +
    "waiting are marked failed (the events stay in GET /events). Repeating it is harmless. PUT activates the " +
    "endpoint again. 404 `not_found` when none was registered.",
  scopes: ["webhook"],
  // DECISIONS: write is quotes, orders, checkout-session, refunds, brokerage POST, links POST; the rest is reporting.
  rateClass: "reporting",
  response: webhookEndpointSchema,
  errors: ["not_found"],
});

export const webhookContracts = [registerWebhookEndpoint, getWebhookEndpoint, deactivateWebhookEndpoint];
