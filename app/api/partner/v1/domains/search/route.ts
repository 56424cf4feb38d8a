// GET /api/partner/v1/domains/search - up to 5 listings relevant to a free-text query
import { searchDomainsEndpoint } from "@/server/contracts/discovery";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { searchDomains, serializeSearchResults } from "@/server/services/discovery";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(searchDomainsEndpoint, async ({ db, auth, query }) =>
  serializeSearchResults(
    await searchDomains(db, { environment: auth.environment, partnerId: auth.partnerId, q: query.q, limit: query.limit }),
  ),
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
