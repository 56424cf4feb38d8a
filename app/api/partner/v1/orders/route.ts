// POST /api/partner/v1/orders - record a partner-collected sale (idempotent)
// GET /api/partner/v1/orders - list the partner's orders, newest first
import { createOrderEndpoint, listOrdersEndpoint, listOrdersQuery } from "@/server/contracts/orders";
import { idempotencyKeyFrom, runIdempotent } from "@/server/http/idempotency";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import type { z } from "zod";
import { getDb } from "@/db/client";
import {
  createOrder,
  listOrders,
  listOrdersSql,
  ordersPageFromRow,
  requireMerchantOfRecord,
  serializeOrder,
  serializeOrderWithTimeline,
  type ListOrdersInput,
  type OrderOwner,
  type OrdersPageRow,
} from "@/server/services/orders";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const POST = partnerRoute(createOrderEndpoint, async ({ db, auth, body, rawBody, request, requestId }) => {
  requireMerchantOfRecord(auth.paymentModel, "POST /orders");
  const key = idempotencyKeyFrom(request);
  const owner = { partnerId: auth.partnerId, environment: auth.environment };
  return runIdempotent(db, { ...owner, key, rawBody, requestId, successStatus: 201 }, async (tx) =>
    serializeOrderWithTimeline(
      await createOrder(tx, {
        ...owner,
        credentialId: auth.credentialId,
        domain: body.domain,
        expectedPriceCents: body.expected_price,
        currency: body.currency,
        buyer: body.buyer,
        returnUrl: body.return_url,
        cancelUrl: body.cancel_url,
        quoteToken: body.quote_id,
        externalPaymentRef: body.external_payment_ref,
        actor: { type: "partner", id: auth.credentialId },
      }),
    ),
  );
});

export const GET = partnerRoute(
  listOrdersEndpoint,
  async ({ db, auth, query, read }) => {
    const input = listInput(auth, query);
    // The page came with the gate; without it (a query listOrdersSql refused), listOrders reports why.
    const page = read ? ordersPageFromRow(input, read as OrdersPageRow) : await listOrders(db, input);
    return { data: page.orders.map(serializeOrder), next_cursor: page.nextCursor };
  },
  { read: ({ partnerId, environment, query }) => listOrdersSql(getDb(), listInput({ partnerId, environment }, query)) },
);

function listInput(owner: OrderOwner, query: z.output<typeof listOrdersQuery>): ListOrdersInput {
  return {
    partnerId: owner.partnerId,
    environment: owner.environment,
    limit: query.limit,
    cursor: query.cursor,
    statuses: query.status,
    channels: query.channel,
    domain: query.domain,
    search: query.q,
    from: query.from,
    to: query.to,
  };
}

export const { PUT, PATCH, DELETE } = methodsNotAllowed(["GET", "POST"]);
