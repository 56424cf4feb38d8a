// GET /api/partner/v1/settlements - merchant-of-record settlement statements per period
import { listSettlementsEndpoint } from "@/server/contracts/settlements";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { listSettlements, serializeStatement } from "@/server/services/settlements";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(listSettlementsEndpoint, async ({ db, auth, query }) => {
  const page = await listSettlements(db, {
    partnerId: auth.partnerId,
    environment: auth.environment,
    paymentModel: auth.paymentModel,
    from: query.from,
    to: query.to,
    currency: query.currency,
    limit: query.limit,
    cursor: query.cursor,
  });
  return { data: page.rows.map(serializeStatement), next_cursor: page.nextCursor };
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
