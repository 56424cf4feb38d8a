// POST /api/partner/v1/brokerage - open a brokerage case for an unlisted domain
// GET /api/partner/v1/brokerage - list the partner's cases and outcomes, newest first
import { createBrokerageCaseEndpoint, listBrokerageCasesEndpoint } from "@/server/contracts/brokerage";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import {
  createBrokerageCase,
  listBrokerageCases,
  serializeBrokerageCase,
  serializeBrokerageCaseSummary,
} from "@/server/services/brokerage";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const POST = partnerRoute(createBrokerageCaseEndpoint, async ({ db, auth, body }) =>
  serializeBrokerageCase(
    await createBrokerageCase(db, {
      partnerId: auth.partnerId,
      environment: auth.environment,
      domain: body.domain,
      tier: body.tier,
      buyerEmail: body.buyer_email,
      budgetCents: body.budget,
      currency: body.currency,
      actor: { type: "partner", id: auth.credentialId },
    }),
  ),
);

export const GET = partnerRoute(listBrokerageCasesEndpoint, async ({ db, auth, query }) => {
  const page = await listBrokerageCases(db, {
    partnerId: auth.partnerId,
    environment: auth.environment,
    limit: query.limit,
    cursor: query.cursor,
    statuses: query.status,
    from: query.from,
    to: query.to,
  });
  return { data: page.rows.map(serializeBrokerageCaseSummary), next_cursor: page.nextCursor };
});

export const { PUT, PATCH, DELETE } = methodsNotAllowed(["GET", "POST"]);
