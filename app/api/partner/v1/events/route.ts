// GET /api/partner/v1/events - the partner's event history, paged forward by after_id
import { listEventsEndpoint } from "@/server/contracts/events";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { listEvents, serializeEvent } from "@/server/services/events";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(listEventsEndpoint, async ({ db, auth, query }) => {
  const page = await listEvents(db, {
    partnerId: auth.partnerId,
    environment: auth.environment,
    afterId: query.after_id,
    limit: query.limit,
    types: query.type,
  });
  return { events: page.events.map(serializeEvent), next_cursor: page.nextCursor, has_more: page.hasMore };
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
