// GET /api/partner/v1/brokerage/eligibility - can this domain be brokered (listed, open case, active site)?
import { getBrokerageEligibilityEndpoint } from "@/server/contracts/brokerage";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { checkEligibility } from "@/server/services/brokerage";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(getBrokerageEligibilityEndpoint, async ({ db, auth, query }) =>
  checkEligibility(db, { environment: auth.environment, domain: query.domain }),
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
