// POST /api/partner/v1/quotes - lock a domain's buy-now price for 10 minutes
import { createQuoteEndpoint } from "@/server/contracts/orders";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { createQuote, serializeQuote } from "@/server/services/quotes";

export const POST = partnerRoute(createQuoteEndpoint, async ({ db, auth, body }) =>
  serializeQuote(await createQuote(db, { partnerId: auth.partnerId, environment: auth.environment, domain: body.domain })),
);

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
