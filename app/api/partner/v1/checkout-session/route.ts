// POST /api/partner/v1/checkout-session - create a hosted checkout link for one domain
import { createCheckoutSessionEndpoint } from "@/server/contracts/checkout";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { createCheckoutSession, serializeCheckoutSession } from "@/server/services/checkout";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const POST = partnerRoute(createCheckoutSessionEndpoint, async ({ db, auth, body }) =>
  serializeCheckoutSession(
    await createCheckoutSession(db, {
      partnerId: auth.partnerId,
      environment: auth.environment,
      domain: body.domain,
      returnUrl: body.return_url,
      cancelUrl: body.cancel_url,
      buyerEmail: body.buyer_email,
    }),
  ),
);

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
