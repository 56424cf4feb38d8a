// GET /api/partner/v1/transactions - the partner's sales history with per-currency totals
import { listTransactionsEndpoint } from "@/server/contracts/settlements";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { listTransactions, serializeTotals, serializeTransaction } from "@/server/services/transactions";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const GET = partnerRoute(listTransactionsEndpoint, async ({ db, auth, query }) => {
  const page = await listTransactions(db, {
    partnerId: auth.partnerId,
    environment: auth.environment,
    from: query.from,
    to: query.to,
    statuses: query.status,
    paymentModels: query.payment_model,
    limit: query.limit,
    cursor: query.cursor,
  });
  return { data: page.rows.map(serializeTransaction), next_cursor: page.nextCursor, totals: page.totals.map(serializeTotals) };
});

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
