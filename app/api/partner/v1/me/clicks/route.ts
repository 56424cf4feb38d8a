// GET /api/partner/v1/me/clicks - referral click totals, optionally windowed and per day
import { listClicksEndpoint } from "@/server/contracts/referrals";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { getClicksReport } from "@/server/services/referral-reports";
import { requireAffiliate } from "@/server/services/referrals";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(listClicksEndpoint, async ({ db, auth, query }) => {
  requireAffiliate(auth);
  return getClicksReport(db, { partnerId: auth.partnerId, environment: auth.environment, ...query });
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
