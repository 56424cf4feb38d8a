// GET /api/partner/v1/availability - availability flag and price of one domain (never 404)
import { getAvailabilityEndpoint } from "@/server/contracts/discovery";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { availabilityFromRow, listingSql, serializeAvailability, type ListingRow } from "@/server/services/discovery";

// The listing is read in the signing gate's own round trip (one statement per request).
export const GET = partnerRoute(
  getAvailabilityEndpoint,
  async ({ query, read }) => serializeAvailability(availabilityFromRow(query.domain, read as ListingRow | null)),
  { read: ({ partnerId, environment, query }) => listingSql({ partnerId, environment, domain: query.domain }) },
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
