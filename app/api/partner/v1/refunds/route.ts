// POST /api/partner/v1/refunds - refund a partner-collected order before its transfer starts
import { createRefundEndpoint } from "@/server/contracts/orders";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { requireMerchantOfRecord } from "@/server/services/orders";
import { refundOrder, serializeRefund } from "@/server/services/refunds";

// Signed, never static (see availability/route.ts): no request Proxy for static-generation tracking.
export const dynamic = "force-dynamic";

export const POST = partnerRoute(createRefundEndpoint, async ({ db, auth, body }) => {
  requireMerchantOfRecord(auth.paymentModel, "POST /refunds");
  return serializeRefund(
    await refundOrder(db, {
      orderId: body.order_id,
      reason: body.reason,
      amountCents: body.amount_cents,
      owner: { partnerId: auth.partnerId, environment: auth.environment },
      actor: { type: "partner", id: auth.credentialId },
    }),
  );
});

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
