// GET /api/partner/v1/me/payouts - referral payout history and total paid
import { listReferralPayoutsEndpoint } from "@/server/contracts/referrals";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { listReferralPayouts } from "@/server/services/referral-reports";
import { requireAffiliate } from "@/server/services/referrals";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(listReferralPayoutsEndpoint, async ({ db, auth, query }) => {
  requireAffiliate(auth);
  return listReferralPayouts(db, { partnerId: auth.partnerId, environment: auth.environment, ...query });
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
