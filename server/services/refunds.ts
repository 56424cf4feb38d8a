import { and, eq, inArray } from "drizzle-orm";
import type { Database } from "@/db/client";
import { payments, refunds, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
import { logError } from "@/server/log";
import { getProviderByName } from "@/server/payments/provider";
import { serializeOrderWithTimeline, timelineOf, type OrderWithTimeline } from "./orders";
import { lockOrderOrThrow, nextStatus, orderMoves, transitionOrder, type OrderRow } from "./order-states";
import type { Actor } from "./partners";

// Refunds: a partner's POST /refunds (only before the transfer starts) and a
// staff refund (any time before the transfer completes). Full refunds only:
// the order becomes REFUNDED, its domain returns to the inventory, and the
// refund row, timeline entry, event and audit row commit together.

export type RefundRow = typeof refunds.$inferSelect;

export interface RefundInput {
  orderId: string;
  actor: Actor;
  reason?: string;
  /** When given it must equal the sale price (full refunds only). */
  amountCents?: number;
  /** A partner's request: the order must be theirs, and the stricter partner rule applies. */
  owner?: { partnerId: string; environment: Environment };
}

export interface RefundResult {
  refund: RefundRow;
  order: OrderWithTimeline;
}

/**
 * A partner refunds only its own merchant-of-record sale (it collected the
 * money). A sale the service collected (hosted checkout, storefront) is refunded
 * by staff, and the money goes back through the payment processor: the order
 * move and a `pending` refund row commit first, the processor is called outside
 * the transaction with a key derived from the refund (a retry never refunds
 * twice), then the refund becomes `succeeded` with the processor's reference.
 * If the processor call fails the refund stays `pending` and the same command
 * retries it.
 */
export async function refundOrder(db: Database, input: RefundInput): Promise<RefundResult> {
  const action = input.owner ? "partner_refund" : "refund";
  const recorded = await db.transaction(async (tx) => {
    // Lock first so the checks below and the move see the same order.
    const current = await lockOrderOrThrow(tx, input.orderId, input.owner);
    if (input.owner && current.channel !== "mor") {
      throw new AppError(
        "forbidden",
        `order ${current.id} was paid on hosted checkout, so the marketplace collected the money: only your own merchant-of-record sales can be refunded through the API; ask marketplace support to refund this one`,
      );
    }
    if (!input.owner && current.status === "REFUNDED") {
      const [unfinished] = await tx.select().from(refunds).where(and(eq(refunds.orderId, current.id), eq(refunds.status, "pending")));
      if (unfinished) return { refund: unfinished, order: { order: current, timeline: await timelineOf(tx, current.id) } };
    }
    if (input.amountCents !== undefined && input.amountCents !== current.salePriceCents) {
      throw new AppError("validation_error", `only full refunds are supported: amount_cents must be ${current.salePriceCents}`, [
        { path: "amount_cents", message: `must equal the sale price, ${current.salePriceCents}` },
      ]);
    }
    if (!nextStatus(current, action)) throw refusal(current, action);
    const order = await transitionOrder(tx, {
      orderId: current.id,
      action,
      actor: input.actor,
      owner: input.owner,
      note: input.reason ? `refunded: ${input.reason}` : "refunded",
    });
    const now = clock.now();
    const [refund] = await tx
      .insert(refunds)
      .values({
        id: newId("refund", now.getTime()),
        orderId: order.id,
        partnerId: order.partnerId,
        environment: order.environment,
        amountCents: order.salePriceCents,
        currency: order.currency,
        reason: input.reason ?? null,
        status: order.channel === "mor" ? "succeeded" : "pending",
        requestedBy: input.owner ? "partner" : "admin",
        createdAt: now,
      })
      .returning();
    if (!refund) throw new Error("refund insert returned no row");
    return { refund, order: { order, timeline: await timelineOf(tx, order.id) } };
  });
  if (recorded.refund.status !== "pending") return recorded;
  return { ...recorded, refund: await refundThroughProcessor(db, recorded.refund) };
}

async function refundThroughProcessor(db: Database, refund: RefundRow): Promise<RefundRow> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.orderId, refund.orderId), inArray(payments.status, ["succeeded", "refunded"])));
  if (!payment?.providerRef) throw new Error(`order ${refund.orderId} has no processor payment to refund`);
  let processed;
  try {
    // The processor that took the payment (Stripe: refunds.create for the intent), keyed by our refund id.
    processed = await getProviderByName(payment.provider).refund({
      providerRef: payment.providerRef,
      amountCents: refund.amountCents,
      idempotencyKey: `refund:${refund.id}`,
    });
  } catch (error) {
    logError(`refund ${refund.id}`, error);
    throw new AppError("internal_error", `refund ${refund.id} is recorded but the payment processor did not confirm it; run the refund again to retry`);
  }
  const now = clock.now();
  await db
    .update(payments)
    .set({ status: "refunded", data: { ...(payment.data as object), refund_ref: processed.providerRef }, updatedAt: now })
    .where(eq(payments.id, payment.id));
  const [done] = await db
    .update(refunds)
    .set({ status: "succeeded", providerRef: processed.providerRef })
    .where(eq(refunds.id, refund.id))
    .returning();
  if (!done) throw new Error(`refund ${refund.id} vanished`);
  return done;
}

function refusal(order: OrderRow, action: "partner_refund" | "refund"): AppError {
  if (order.status === "REFUNDED" || order.status === "CANCELLED") {
    return new AppError("conflict", `order ${order.id} is already ${order.status.toLowerCase()}`);
  }
  const allowed = orderMoves[action].from.join(" or ");
  const rule =
    action === "partner_refund"
      ? "a refund by request is allowed only before the transfer starts"
      : "a refund is allowed only before the transfer completes";
  return new AppError(
    "conflict",
    `order ${order.id} is ${order.status}: ${rule} (${allowed})${action === "partner_refund" ? "; contact support for a clawback" : ""}`,
  );
}

export function serializeRefund(result: RefundResult) {
  return {
    refund_id: result.refund.id,
    order_id: result.refund.orderId,
    amount_cents: result.refund.amountCents,
    currency: result.refund.currency,
    status: "succeeded" as const,
    reason: result.refund.reason,
    created_at: result.refund.createdAt.toISOString(),
    order: serializeOrderWithTimeline(result.order),
  };
}
