import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { events, partners, refunds, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { AppError, notFound } from "@/server/errors";
import { getOrderOrThrow, type OrderOwner, type TimelineRow } from "./orders";
import { nextStatus, type OrderRow } from "./order-states";

// The dashboard's view of orders: rows for the list, one order with what it
// caused (events, the webhook deliveries that carried them, refunds), buyer
// details masked for viewers, and whether a refund may be asked for. Reads only;
// refunds go through refunds.ts like POST /refunds.

/** What the signed-in person may see: viewers get masked buyer details. */
export interface ConsoleReader extends OrderOwner {
  viewer: boolean;
}

/** `alice@example.com` -> `a***@example.com`: enough to recognise, not to contact. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "***";
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** `Alice Buyer` -> `A***`. */
export function maskName(name: string | null): string | null {
  return name ? `${Array.from(name.trim())[0] ?? ""}***` : null;
}

export function buyerOf(order: OrderRow, viewer: boolean) {
  return {
    email: viewer ? maskEmail(order.buyerEmail) : order.buyerEmail,
    name: viewer ? maskName(order.buyerName) : order.buyerName,
    country: order.buyerCountry,
    masked: viewer,
  };
}

/** One row of the dashboard's list: no buyer details, money as integer minor units. */
export function serializeOrderRow(order: OrderRow) {
  return {
    id: order.id,
    domain: order.domain,
    status: order.status,
    channel: order.channel,
    salePriceCents: order.salePriceCents,
    commissionCents: order.commissionCents,
    currency: order.currency,
    createdAt: order.createdAt.toISOString(),
  };
}

export async function getPartnerTraitsOrThrow(db: Db, partnerId: string) {
  const [partner] = await db
    .select({ paymentModel: partners.paymentModel, isAffiliate: partners.isAffiliate, liveApprovedAt: partners.liveApprovedAt })
    .from(partners)
    .where(eq(partners.id, partnerId));
  if (!partner) throw notFound("partner");
  return partner;
}

/**
 * Hosted-checkout links from the dashboard follow POST /checkout-session: any
 * partner, merchant-of-record or not (the dashboard user stands for the partner,
 * who may give any of its keys the `embed` scope), and live only once
 * production access is approved, as a live key would need.
 */
export function requireEnvironmentAccess(partner: { liveApprovedAt: Date | null }, environment: OrderOwner["environment"]): void {
  if (environment === "live" && !partner.liveApprovedAt) {
    throw new AppError("forbidden", "Live needs production access: request it on the Organisation page, or switch to sandbox.");
  }
}

/** Why a refund cannot be asked for here, or null when it can (the same rules as POST /refunds). */
export function refundBlocker(order: OrderRow, partner: { paymentModel: "mor" | "non_mor" }, viewer: boolean): string | null {
  if (order.status === "REFUNDED" || order.status === "CANCELLED") return `This order is already ${order.status.toLowerCase()}.`;
  if (partner.paymentModel !== "mor" || order.channel !== "mor") {
    return "The marketplace collected this payment on hosted checkout, so marketplace support refunds it through the payment processor.";
  }
  if (!nextStatus(order, "partner_refund")) {
    return `The transfer has started (${order.status}): a refund by request is allowed only before that. Contact support for a clawback.`;
  }
  if (viewer) return "Viewers can look but not change anything; ask an owner for the developer role.";
  return null;
}

export interface OrderEventView {
  id: string;
  type: string;
  createdAt: string;
  deliveries: { id: string; status: string; attempts: number; url: string; createdAt: string }[];
}

/**
 * The events the order caused (data.order.public_id, indexed) with the
 * deliveries that carried them, oldest first. Test events name a sample order,
 * never a real one, so they do not appear.
 */
export async function orderEvents(db: Db, input: OrderOwner & { orderId: string }): Promise<OrderEventView[]> {
  const rows = await db
    .select({ id: events.id, type: events.type, createdAt: events.createdAt })
    .from(events)
    .where(
      and(
        sql`(${events.data} -> 'order' ->> 'public_id') = ${input.orderId}`,
        eq(events.partnerId, input.partnerId),
        eq(events.environment, input.environment),
      ),
    )
    .orderBy(asc(events.createdAt), asc(events.id));
  if (rows.length === 0) return [];
  const deliveries = await db
    .select({
      id: webhookDeliveries.id,
      eventId: webhookDeliveries.eventId,
      status: webhookDeliveries.status,
      attempts: webhookDeliveries.attemptCount,
      url: webhookEndpoints.url,
      createdAt: webhookDeliveries.createdAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        inArray(
          webhookDeliveries.eventId,
          rows.map((r) => r.id),
        ),
        eq(webhookEndpoints.partnerId, input.partnerId),
        eq(webhookEndpoints.environment, input.environment),
      ),
    )
    .orderBy(asc(webhookDeliveries.createdAt), asc(webhookDeliveries.id));
  return rows.map((row) => ({
    id: row.id,
    type: row.type,
    createdAt: row.createdAt.toISOString(),
    deliveries: deliveries
      .filter((d) => d.eventId === row.id)
      .map((d) => ({ id: d.id, status: d.status, attempts: d.attempts, url: d.url, createdAt: d.createdAt.toISOString() })),
  }));
}

function serializeTimeline(timeline: TimelineRow[]) {
  return timeline.map((entry) => ({ status: entry.status, at: entry.at.toISOString(), note: entry.note, actor: entry.actor }));
}

/** One order for its dashboard page; another partner's or environment's order is not_found. */
export async function getOrderConsoleOrThrow(db: Db, input: ConsoleReader & { orderId: string }) {
  const [{ order, timeline }, partner] = await Promise.all([getOrderOrThrow(db, input), getPartnerTraitsOrThrow(db, input.partnerId)]);
  const [caused, refundRows] = await Promise.all([
    orderEvents(db, { ...input, orderId: order.id }),
    db.select().from(refunds).where(eq(refunds.orderId, order.id)).orderBy(asc(refunds.createdAt)),
  ]);
  return {
    ...serializeOrderRow(order),
    commissionBps: order.commissionBps,
    updatedAt: order.updatedAt.toISOString(),
    transferCompletedAt: order.transferCompletedAt?.toISOString() ?? null,
    settlementId: order.settlementId,
    externalPaymentRef: order.externalPaymentRef,
    checkoutSessionId: order.checkoutSessionId,
    returnUrl: order.returnUrl,
    cancelUrl: order.cancelUrl,
    buyer: buyerOf(order, input.viewer),
    timeline: serializeTimeline(timeline),
    events: caused,
    refunds: refundRows.map((r) => ({
      id: r.id,
      amountCents: r.amountCents,
      currency: r.currency,
      reason: r.reason,
      status: r.status,
      requestedBy: r.requestedBy,
      createdAt: r.createdAt.toISOString(),
    })),
    refundBlocker: refundBlocker(order, partner, input.viewer),
  };
}

export type OrderConsoleView = Awaited<ReturnType<typeof getOrderConsoleOrThrow>>;
