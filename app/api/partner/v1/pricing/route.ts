// GET /api/partner/v1/pricing - buy-now and floor price of one listing
import { getPricingEndpoint } from "@/server/contracts/discovery";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { getPricing, serializePricing } from "@/server/services/discovery";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(getPricingEndpoint, async ({ db, auth, query }) =>
  serializePricing(await getPricing(db, { environment: auth.environment, partnerId: auth.partnerId, domain: query.domain })),
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
