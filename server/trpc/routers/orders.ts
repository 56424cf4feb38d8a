import { z } from "zod";
import { createCheckoutSessionBody } from "@/server/contracts/checkout";
import { listOrdersQuery } from "@/server/contracts/orders";
import { createCheckoutSession, serializeCheckoutSession } from "@/server/services/checkout";
import { getOrderConsoleOrThrow, getPartnerTraitsOrThrow, requireEnvironmentAccess, serializeOrderRow } from "@/server/services/order-console";
import { listOrders, requireMerchantOfRecord } from "@/server/services/orders";
import { refundOrder } from "@/server/services/refunds";
import { createTRPCRouter, partnerMutation, partnerProcedure } from "../init";

// Orders of the selected environment: the list (the very query and filters of
// GET /orders), one order with what it caused, a refund (the rules of POST
// /refunds) and hosted-checkout links (the service of POST /checkout-session).

export const refundInput = z.object({
  orderId: z.string().min(1).max(64),
  reason: z.string().trim().min(1, "Give a reason; it is recorded on the order's timeline").max(500),
});

export const ordersRouter = createTRPCRouter({
  /** orders.list - newest first; filters as GET /orders (status, channel, domain, q, from, to) */
  list: partnerProcedure.input(listOrdersQuery).query(async ({ ctx, input }) => {
    const page = await listOrders(ctx.db, {
      ...ctx.owner,
      limit: input.limit,
      cursor: input.cursor,
      statuses: input.status,
      channels: input.channel,
      domain: input.domain,
      search: input.q,
      from: input.from,
      to: input.to,
    });
    return { orders: page.orders.map(serializeOrderRow), nextCursor: page.nextCursor };
  }),
  /** orders.get - timeline, events and deliveries, refunds; buyer masked for viewers */
  get: partnerProcedure
    .input(z.object({ id: z.string().min(1).max(64) }))
    .query(({ ctx, input }) => getOrderConsoleOrThrow(ctx.db, { ...ctx.owner, orderId: input.id, viewer: ctx.user.partnerRole === "viewer" })),
  /** orders.refund - a full refund of the partner's own merchant-of-record sale, before the transfer starts */
  refund: partnerMutation.input(refundInput).mutation(async ({ ctx, input }) => {
    requireMerchantOfRecord((await getPartnerTraitsOrThrow(ctx.db, ctx.partnerId)).paymentModel, "Refunds from the dashboard");
    const result = await refundOrder(ctx.db, { orderId: input.orderId, reason: input.reason, owner: ctx.owner, actor: ctx.actor });
    return { refundId: result.refund.id, status: result.order.order.status, amountCents: result.refund.amountCents, currency: result.refund.currency };
  }),
  /** orders.createCheckoutLink - a hosted checkout link for one listed domain, valid 7 days */
  createCheckoutLink: partnerMutation.input(createCheckoutSessionBody).mutation(async ({ ctx, input }) => {
    requireEnvironmentAccess(await getPartnerTraitsOrThrow(ctx.db, ctx.partnerId), ctx.environment);
    const created = await createCheckoutSession(ctx.db, {
      ...ctx.owner,
      domain: input.domain,
      returnUrl: input.return_url,
      cancelUrl: input.cancel_url,
      buyerEmail: input.buyer_email,
      actor: ctx.actor,
    });
    return serializeCheckoutSession(created);
  }),
});
