// GET /api/partner/v1/availability - availability flag and price of one domain (never 404)
import { getAvailabilityEndpoint } from "@/server/contracts/discovery";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { availabilityFromRow, listingRead, serializeAvailability, type ListingRow } from "@/server/services/discovery";

// Signed, never static: without this Next hands the handler a Proxy of the request that
// reports every headers/url read to its static-generation tracking.
export const dynamic = "force-dynamic";

// The listing is read in the signing gate's own round trip (one statement per request),
// its text compiled once (listingRead); the contract's domainNameInput has already
// normalised the name. Nothing to await: the handler answers without a promise.
export const GET = partnerRoute(
  getAvailabilityEndpoint,
  ({ query, read }) => serializeAvailability(availabilityFromRow(query.domain, read as ListingRow | null, { normalized: true })),
  { read: ({ partnerId, environment, query }) => listingRead({ partnerId, environment, name: query.domain }) },
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
