import { and, desc, eq, ilike, lt, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { orders, partners, type Environment } from "@/db/schema";
import { AppError } from "@/server/errors";
import { collectedPayment, nextStatus, type OrderAction, type OrderRow, type OrderStatus } from "./order-states";
import { getOrderByIdOrThrow } from "./orders";

// Orders as staff see them: across partners and environments, newest first
// (order ids sort by time, so the primary key is the keyset), and the moves
// the state machine allows from where each order is. The moves themselves are
// the services the CLI's order:* commands call (transitionOrder, refundOrder).

/** The moves staff make by hand; `settle` is the settlement run's, `partner_refund` the partner's. */
export const staffActions = ["clear_review", "start_transfer", "complete_transfer", "cancel", "refund"] as const satisfies readonly OrderAction[];
export type StaffAction = (typeof staffActions)[number];

export function allowedStaffActions(order: OrderRow): StaffAction[] {
  return staffActions.filter((action) => nextStatus(order, action) !== null);
}

export interface StaffOrderSearch {
  status?: OrderStatus;
  environment?: Environment;
  partnerId?: string;
  /** Part of the domain name. */
  q?: string;
  cursor?: string | null;
  limit: number;
}

const ORDER_ID = /^ord_[0-9A-Za-z]{22}$/;

export async function searchOrdersForStaff(db: Db, input: StaffOrderSearch) {
  if (input.cursor && !ORDER_ID.test(input.cursor)) throw new AppError("validation_error", "cursor is not an order id of this listing");
  const filters: (SQL | undefined)[] = [
    input.status ? eq(orders.status, input.status) : undefined,
    input.environment ? eq(orders.environment, input.environment) : undefined,
    input.partnerId ? eq(orders.partnerId, input.partnerId) : undefined,
    input.q ? ilike(orders.domain, `%${input.q.toLowerCase().replace(/[%_\\]/g, "\\$&")}%`) : undefined,
    input.cursor ? lt(orders.id, input.cursor) : undefined,
  ];
  const rows = await db
    .select({ order: orders, partnerName: partners.name })
    .from(orders)
    .leftJoin(partners, eq(partners.id, orders.partnerId))
    .where(and(...filters))
    .orderBy(desc(orders.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    orders: page.map(({ order, partnerName }) => ({
      id: order.id,
      domain: order.domain,
      status: order.status,
      channel: order.channel,
      environment: order.environment,
      partnerId: order.partnerId,
      partnerName,
      salePriceCents: order.salePriceCents,
      currency: order.currency,
      createdAt: order.createdAt.toISOString(),
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.order.id ?? null) : null,
  };
}

export async function getOrderForStaff(db: Db, orderId: string) {
  const { order, timeline } = await getOrderByIdOrThrow(db, orderId);
  const [[partner], collected] = await Promise.all([
    order.partnerId ? db.select({ name: partners.name }).from(partners).where(eq(partners.id, order.partnerId)) : [],
    collectedPayment(db, order.id),
  ]);
  return {
    order: {
      id: order.id,
      domain: order.domain,
      status: order.status,
      channel: order.channel,
      environment: order.environment,
      partnerId: order.partnerId,
      partnerName: partner?.name ?? null,
      salePriceCents: order.salePriceCents,
      commissionCents: order.commissionCents,
      currency: order.currency,
      buyerEmail: order.buyerEmail,
      buyerName: order.buyerName,
      createdAt: order.createdAt.toISOString(),
      updatedAt: order.updatedAt.toISOString(),
    },
    timeline: timeline.map((t) => ({ status: t.status, note: t.note, actor: t.actor, at: t.at.toISOString() })),
    // A sale whose payment the marketplace holds is refunded, not cancelled (transitionOrder refuses it).
    actions: allowedStaffActions(order).filter((action) => !(action === "cancel" && collected)),
  };
}
