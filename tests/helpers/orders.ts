import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { commissionLedger, domains, orders, partners, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { newId } from "@/server/ids";
import { transitionOrder, type OrderRow } from "@/server/services/order-states";
import { commissionCents } from "@/server/services/orders";
import { uniqueSuffix } from "./partner";

// TEST FIXTURE ONLY: places orders for the settlement tests without POST /orders.
// It inserts a sold listing and an order row as the order services would record
// it (EXTERNALLY_PAID for a partner-collected sale, PAID for hosted checkout),
// with the order service's own commission rule (commissionCents), then moves
// it with the real state machine. Transfer completion happens at `completedAt` by
// freezing the clock there, so it lands in a chosen settlement period.
// It leaves the clock frozen; tests call clock.reset() before signed requests.

const fixtureActor = { type: "admin" as const, id: "test-fixture" };

export interface FixtureOrderInput {
  partnerId: string;
  environment?: Environment;
  channel?: "mor" | "checkout";
  priceCents: number;
  currency?: string;
  /** Defaults to the partner's sale commission rate. */
  commissionBps?: number;
  /** When the sale was recorded; defaults to a day before the transfer starts, else now. */
  createdAt?: Date;
  /** Start and complete the transfer at this instant. */
  completedAt?: Date;
  /** Only start the transfer (TRANSFER_IN_PROGRESS) at this instant. */
  transferStartedAt?: Date;
}

export async function setSaleCommissionBps(partnerId: string, bps: number): Promise<void> {
  await getDb().update(partners).set({ saleCommissionBps: bps }).where(eq(partners.id, partnerId));
}

export async function createFixtureOrder(input: FixtureOrderInput): Promise<OrderRow> {
  const db = getDb();
  const environment = input.environment ?? "sandbox";
  const channel = input.channel ?? "mor";
  const currency = input.currency ?? "USD";
  const [partner] = await db.select().from(partners).where(eq(partners.id, input.partnerId));
  if (!partner) throw new Error(`fixture: no partner ${input.partnerId}`);
  const bps = input.commissionBps ?? partner.saleCommissionBps;
  const startAt = input.completedAt ?? input.transferStartedAt;
  const at = input.createdAt ?? (startAt ? new Date(startAt.getTime() - 86_400_000) : clock.now());
  const label = `stl${uniqueSuffix()}`;
  const [listing] = await db
    .insert(domains)
    .values({
      id: newId("domain", at.getTime()),
      environment,
      name: `${label}.com`,
      label,
      tld: "com",
      status: "sold",
      priceCents: input.priceCents,
      currency,
      tokens: label,
    })
    .returning();
  if (!listing) throw new Error("fixture: listing insert returned no row");
  const [order] = await db
    .insert(orders)
    .values({
      id: newId("order", at.getTime()),
      partnerId: input.partnerId,
      environment,
      domainId: listing.id,
      domain: listing.name,
      status: channel === "mor" ? "EXTERNALLY_PAID" : "PAID",
      channel,
      salePriceCents: input.priceCents,
      currency,
      commissionBps: bps,
      commissionCents: commissionCents(input.priceCents, bps),
      buyerEmail: `buyer-${label}@test.example`,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  if (!order) throw new Error("fixture: order insert returned no row");
  if (channel === "checkout") {
    await db.insert(commissionLedger).values({
      id: newId("commission", at.getTime()),
      partnerId: input.partnerId,
      environment,
      source: "sale",
      sourceId: order.id,
      orderId: order.id,
      amountCents: order.commissionCents,
      currency,
    });
  }
  if (!startAt) return order;
  clock.freeze(startAt);
  const started = await transitionOrder(db, { orderId: order.id, action: "start_transfer", actor: fixtureActor });
  if (!input.completedAt) return started;
  return transitionOrder(db, { orderId: order.id, action: "complete_transfer", actor: fixtureActor });
}

/** Staff refund before transfer completion (the order then never settles). */
export async function refundFixtureOrder(orderId: string): Promise<OrderRow> {
  return transitionOrder(getDb(), { orderId, action: "refund", actor: fixtureActor });
}
