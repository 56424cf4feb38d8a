// GET /api/partner/v1/analytics - referral funnel, GMV and commission over a date range
import { getAnalyticsEndpoint } from "@/server/contracts/referrals";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { getAnalytics } from "@/server/services/referral-reports";
import { requireAffiliate } from "@/server/services/referrals";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(getAnalyticsEndpoint, async ({ db, auth, query }) => {
  requireAffiliate(auth);
  return getAnalytics(db, { partnerId: auth.partnerId, environment: auth.environment, ...query });
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
