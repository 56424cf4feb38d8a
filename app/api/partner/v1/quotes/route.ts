// POST /api/partner/v1/quotes - lock a domain's buy-now price for 10 minutes
import { createQuoteEndpoint } from "@/server/contracts/orders";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { createQuote, serializeQuote } from "@/server/services/quotes";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const POST = partnerRoute(createQuoteEndpoint, async ({ db, auth, body }) =>
  serializeQuote(await createQuote(db, { partnerId: auth.partnerId, environment: auth.environment, domain: body.domain })),
);

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
