// GET /api/partner/v1/availability - availability flag and price of one domain (never 404)
import { getAvailabilityEndpoint } from "@/server/contracts/discovery";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { getAvailability, serializeAvailability } from "@/server/services/discovery";

export const GET = partnerRoute(getAvailabilityEndpoint, async ({ db, auth, query }) =>
  serializeAvailability(
    await getAvailability(db, { environment: auth.environment, partnerId: auth.partnerId, domain: query.domain }),
  ),
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
