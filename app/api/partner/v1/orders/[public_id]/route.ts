// GET /api/partner/v1/orders/{public_id} - one order with its status timeline
import { getOrderEndpoint } from "@/server/contracts/orders";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { getOrderOrThrow, serializeOrderWithTimeline } from "@/server/services/orders";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(getOrderEndpoint, async ({ db, auth, params }) =>
  serializeOrderWithTimeline(
    await getOrderOrThrow(db, { partnerId: auth.partnerId, environment: auth.environment, orderId: params.public_id }),
  ),
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
