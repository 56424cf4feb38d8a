import type { Db } from "@/db/client";
import { refunds, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
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

export async function refundOrder(db: Db, input: RefundInput): Promise<RefundResult> {
  const action = input.owner ? "partner_refund" : "refund";
  return db.transaction(async (tx) => {
    // Lock first so the checks below and the move see the same order.
    const current = await lockOrderOrThrow(tx, input.orderId, input.owner);
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
        status: "succeeded",
        requestedBy: input.owner ? "partner" : "admin",
        createdAt: now,
      })
      .returning();
    if (!refund) throw new Error("refund insert returned no row");
    return { refund, order: { order, timeline: await timelineOf(tx, order.id) } };
  });
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
