// GET /api/partner/v1/me/sales - sales attributed to own referral links
import { listSalesEndpoint } from "@/server/contracts/referrals";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { listReferralSales } from "@/server/services/referral-reports";
import { requireAffiliate } from "@/server/services/referrals";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(listSalesEndpoint, async ({ db, auth, query }) => {
  requireAffiliate(auth);
  return listReferralSales(db, { partnerId: auth.partnerId, environment: auth.environment, ...query });
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
