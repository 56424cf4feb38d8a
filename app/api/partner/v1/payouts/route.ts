// GET /api/partner/v1/payouts - payouts the service made to the partner
import { listPayoutsEndpoint } from "@/server/contracts/settlements";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { listPayouts, serializePayout } from "@/server/services/payouts";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(listPayoutsEndpoint, async ({ db, auth, query }) => {
  const page = await listPayouts(db, {
    partnerId: auth.partnerId,
    environment: auth.environment,
    from: query.from,
    to: query.to,
    kinds: query.kind,
    limit: query.limit,
    cursor: query.cursor,
  });
  return { data: page.rows.map(serializePayout), next_cursor: page.nextCursor };
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
