// POST /api/partner/v1/links - create a tracked referral link; GET - own links with statistics
import { createLinkEndpoint, listLinksEndpoint } from "@/server/contracts/referrals";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { listLinksWithStats } from "@/server/services/referral-reports";
import { createLink, requireAffiliate, serializeLink } from "@/server/services/referrals";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const POST = partnerRoute(createLinkEndpoint, async ({ db, auth, body }) => {
  requireAffiliate(auth);
  const link = await createLink(db, { partnerId: auth.partnerId, environment: auth.environment, ...body });
  return serializeLink(link);
});

export const GET = partnerRoute(listLinksEndpoint, async ({ db, auth, query }) => {
  requireAffiliate(auth);
  return listLinksWithStats(db, { partnerId: auth.partnerId, environment: auth.environment, limit: query.limit, cursor: query.cursor });
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed(["GET", "POST"]);
