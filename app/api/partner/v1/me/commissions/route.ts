// GET /api/partner/v1/me/commissions - commission ledger with running balance and totals per state
import { listCommissionsEndpoint } from "@/server/contracts/referrals";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { listCommissions } from "@/server/services/referral-reports";
import { requireAffiliate } from "@/server/services/referrals";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(listCommissionsEndpoint, async ({ db, auth, query }) => {
  requireAffiliate(auth);
  return listCommissions(db, { partnerId: auth.partnerId, environment: auth.environment, ...query });
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
