// GET /api/partner/v1/domains/{name} - price, availability and metadata of one domain
import { getDomainEndpoint } from "@/server/contracts/discovery";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { getDomainDetails, serializeDomainDetails } from "@/server/services/discovery";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(getDomainEndpoint, async ({ db, auth, params }) =>
  serializeDomainDetails(
    await getDomainDetails(db, { environment: auth.environment, partnerId: auth.partnerId, domain: params.name }),
  ),
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
