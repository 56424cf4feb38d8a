// PUT|GET|DELETE /api/partner/webhooks - register (or replace), read, or deactivate the webhook endpoint
import { deactivateWebhookEndpoint, getWebhookEndpoint, registerWebhookEndpoint } from "@/server/contracts/webhooks";
import type { PartnerAuth } from "@/server/http/authenticate";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import {
  disableWebhookEndpoint,
  getWebhookEndpointOrThrow,
  saveWebhookEndpoint,
  serializeWebhookEndpoint,
} from "@/server/services/webhooks";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

const owner = (auth: PartnerAuth) => ({ partnerId: auth.partnerId, environment: auth.environment });
const actor = (auth: PartnerAuth) => ({ type: "partner" as const, id: auth.credentialId });

export const PUT = partnerRoute(registerWebhookEndpoint, async ({ db, auth, body }) =>
  serializeWebhookEndpoint(await saveWebhookEndpoint(db, { ...owner(auth), url: body.url, secret: body.secret }, actor(auth))),
);

export const GET = partnerRoute(getWebhookEndpoint, async ({ db, auth }) =>
  serializeWebhookEndpoint(await getWebhookEndpointOrThrow(db, owner(auth))),
);

export const DELETE = partnerRoute(deactivateWebhookEndpoint, async ({ db, auth }) =>
  serializeWebhookEndpoint(await disableWebhookEndpoint(db, owner(auth), actor(auth))),
);

export const { POST, PATCH } = methodsNotAllowed(["GET", "PUT", "DELETE"]);
