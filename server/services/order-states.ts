import { and, eq, inArray } from "drizzle-orm";
import type { Db, Transaction } from "@/db/client";
import { commissionLedger, domains, orders, orderTimeline, payments, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import type { EventType } from "@/server/webhooks/catalog";
import { recordEvent } from "./events";
import type { Actor } from "./partners";
import { recordAudit } from "./audit";

// The order state machine of SPEC "States and transitions" and DECISIONS.
// Every move is one call to transitionOrder: it locks the row, refuses illegal
// moves with 409 conflict, and writes the new status, the timeline entry, the
// event and the audit row in the caller's transaction. A refund or cancellation
// returns the domain to the inventory in the same transaction.

export type OrderRow = typeof orders.$inferSelect;
export type OrderStatus = OrderRow["status"];

export type OrderAction =
  | "clear_review"
  | "start_transfer"
  | "complete_transfer"
  | "settle"
  | "refund"
  | "partner_refund"
  | "cancel"
  | "dispute_open"
  | "dispute_won"
  | "dispute_lost"
  | "refund_failed";

interface Move {
  from: readonly OrderStatus[];
  to: (order: OrderRow) => OrderStatus;
  event: EventType;
}

const beforeTransferCompleted: readonly OrderStatus[] = ["EXTERNALLY_PAID", "PAID", "MANUAL_REVIEW", "TRANSFER_IN_PROGRESS"];

export const orderMoves: Record<OrderAction, Move> = {
  // A held order returns to the paid state it was recorded with; transfer then proceeds.
  clear_review: { from: ["MANUAL_REVIEW"], to: (o) => (o.channel === "mor" ? "EXTERNALLY_PAID" : "PAID"), event: "order.manual_review_cleared" },
  start_transfer: { from: ["EXTERNALLY_PAID", "PAID"], to: () => "TRANSFER_IN_PROGRESS", event: "order.transfer_started" },
  complete_transfer: { from: ["TRANSFER_IN_PROGRESS"], to: () => "TRANSFER_COMPLETED", event: "order.transfer_completed" },
  settle: { from: ["TRANSFER_COMPLETED"], to: () => "SETTLED", event: "order.settled" },
  // Staff may refund or cancel anything whose transfer has not completed.
  refund: { from: beforeTransferCompleted, to: () => "REFUNDED", event: "order.refunded" },
  cancel: { from: beforeTransferCompleted, to: () => "CANCELLED", event: "order.refunded" },
  // A partner's POST /refunds: only a partner-collected sale, only before transfer starts.
  partner_refund: { from: ["EXTERNALLY_PAID", "MANUAL_REVIEW"], to: () => "REFUNDED", event: "order.refunded" },
  // A chargeback of a hosted-checkout sale (the processor's webhook): held while open,
  // back to PAID when won, undone when lost (the bank returned the money).
  dispute_open: { from: ["PAID", "MANUAL_REVIEW", "TRANSFER_IN_PROGRESS"], to: () => "MANUAL_REVIEW", event: "order.disputed" },
  dispute_won: { from: ["MANUAL_REVIEW"], to: (o) => (o.channel === "mor" ? "EXTERNALLY_PAID" : "PAID"), event: "order.dispute_won" },
  dispute_lost: { from: ["PAID", "MANUAL_REVIEW", "TRANSFER_IN_PROGRESS", "TRANSFER_COMPLETED"], to: () => "REFUNDED", event: "order.refunded" },
  // The processor could not complete a refund it had accepted: back to staff, the reason in the note.
  refund_failed: { from: ["REFUNDED"], to: () => "MANUAL_REVIEW", event: "order.refund_failed" },
};

/** Pure: the status `action` leads to from `order`, or null when the move is illegal. */
export function nextStatus(order: OrderRow, action: OrderAction): OrderStatus | null {
  const move = orderMoves[action];
  return move.from.includes(order.status) ? move.to(order) : null;
}

export interface TransitionInput {
  orderId: string;
  action: OrderAction;
  actor: Actor;
  note?: string;
  /** When set, the order must belong to this partner and environment (else not_found). */
  owner?: { partnerId: string; environment: Environment };
  /** Extra columns written with the move (transfer_completed_at, settlement_id). */
  set?: Partial<Pick<OrderRow, "settlementId">>;
}

/**
 * The order row locked FOR UPDATE for the rest of the transaction; with an
 * owner, another partner's or environment's order is not_found.
 */
export async function lockOrderOrThrow(
  tx: Transaction,
  orderId: string,
  owner?: { partnerId: string; environment: Environment },
): Promise<OrderRow> {
  const [order] = await tx
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.id, orderId),
        owner ? eq(orders.partnerId, owner.partnerId) : undefined,
        owner ? eq(orders.environment, owner.environment) : undefined,
      ),
    )
    .for("update");
  if (!order) throw new AppError("not_found", `order ${orderId} not found`);
  return order;
}

/** Applies one move inside `db`'s transaction (opening one if `db` is the pool). */
export async function transitionOrder(db: Db, input: TransitionInput): Promise<OrderRow> {
  return db.transaction(async (tx) => {
    const order = await lockOrderOrThrow(tx, input.orderId, input.owner);
    const to = nextStatus(order, input.action);
    if (!to) {
      throw new AppError("conflict", `cannot ${input.action.replace("_", " ")} an order in status ${order.status}`);
    }
    if (input.action === "cancel" && (await collectedPayment(tx, order.id))) {
      throw new AppError(
        "conflict",
        `order ${order.id} was paid on hosted checkout and the marketplace holds the buyer's payment: cancelling would keep it; refund the order instead, which returns the payment through the processor`,
      );
    }
    const now = clock.now();
    const [updated] = await tx
      .update(orders)
      .set({
        status: to,
        updatedAt: now,
        ...(to === "TRANSFER_COMPLETED" ? { transferCompletedAt: now } : {}),
        ...input.set,
      })
      .where(eq(orders.id, order.id))
      .returning();
    if (!updated) throw new Error("order update returned no row");
    await moveOrderCommission(tx, order.id, to, now);
    if (to === "REFUNDED" || to === "CANCELLED") {
      // The sale is undone: the domain goes back on the market (unless staff removed it meanwhile).
      await tx
        .update(domains)
        .set({ status: "listed", updatedAt: now })
        .where(and(eq(domains.id, order.domainId), inArray(domains.status, ["sold", "reserved"])));
    }
    await tx.insert(orderTimeline).values({ orderId: order.id, status: to, note: input.note, actor: input.actor.type, at: now });
    if (updated.partnerId) {
      await recordEvent(tx, {
        partnerId: updated.partnerId,
        environment: updated.environment,
        type: orderMoves[input.action].event,
        data: { order: serializeOrderSummary(updated) },
      });
    }
    await recordAudit(tx, input.actor, {
      action: `order.${input.action}`,
      targetType: "order",
      targetId: order.id,
      partnerId: order.partnerId,
      environment: order.environment,
      data: { from: order.status, to, note: input.note ?? null },
    }, now);
    return updated;
  });
}

/** The order's hosted-checkout payment the marketplace has taken and not refunded, if any. */
export async function collectedPayment(db: Db, orderId: string): Promise<{ id: string } | undefined> {
  const [payment] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.orderId, orderId), eq(payments.status, "succeeded")))
    .limit(1);
  return payment;
}

/**
 * Commission tied to an order (a referral's, and a non-MoR partner's sale
 * commission) follows it (DECISIONS "Links"): accrued -> pending when its
 * transfer completes, reversed when it is refunded or cancelled; paid_out is
 * the settlement run's move. A refund also marks the hosted-checkout payment
 * refunded: the record the processor refund is made against.
 */
async function moveOrderCommission(tx: Transaction, orderId: string, to: OrderStatus, now: Date): Promise<void> {
  const move =
    to === "TRANSFER_COMPLETED"
      ? { from: ["accrued"] as const, to: "pending" as const }
      : to === "REFUNDED" || to === "CANCELLED"
        ? { from: ["accrued", "pending"] as const, to: "reversed" as const }
        : null;
  if (!move) return;
  await tx
    .update(commissionLedger)
    .set({ state: move.to, updatedAt: now })
    .where(and(eq(commissionLedger.orderId, orderId), inArray(commissionLedger.state, [...move.from])));
  if (to === "REFUNDED") {
    await tx
      .update(payments)
      .set({ status: "refunded", updatedAt: now })
      .where(and(eq(payments.orderId, orderId), eq(payments.status, "succeeded")));
  }
}

/** The order fields of SPEC "Order" and of every order event's `data.order`. */
export function serializeOrderSummary(order: Pick<OrderRow, "id" | "domain" | "status" | "salePriceCents" | "currency">) {
  return {
    public_id: order.id,
    domain: order.domain,
    status: order.status,
    sale_price_cents: order.salePriceCents,
    currency: order.currency,
  };
}
