// GET /api/partner/v1/brokerage/{case_id} - one case with its timeline (own cases only)
import { getBrokerageCaseEndpoint } from "@/server/contracts/brokerage";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { getBrokerageCaseOrThrow, serializeBrokerageCase } from "@/server/services/brokerage";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(getBrokerageCaseEndpoint, async ({ db, auth, params }) =>
  serializeBrokerageCase(
    await getBrokerageCaseOrThrow(db, { partnerId: auth.partnerId, environment: auth.environment, caseId: params.case_id }),
  ),
);

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
