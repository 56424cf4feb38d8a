import { and, desc, eq, inArray } from "drizzle-orm";
import type { Database, Db } from "@/db/client";
import { brokerageCases, orders, referralLinks, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError, notFound } from "@/server/errors";
import { advanceBrokerageCase, type BrokerageStatus } from "./brokerage";
import { createCheckoutSession, payCheckoutSession } from "./checkout";
import { collectedPayment, transitionOrder, type OrderAction, type OrderRow, type OrderStatus } from "./order-states";
import type { Actor } from "./partners";
import { followLink, readAttribution } from "./referrals";
import { refundOrder } from "./refunds";
import { runSettlement, monthStart } from "./settlements";
import { listFeaturedDomains } from "./storefront";

// Sandbox simulators: what staff, buyers and registries do to a partner's
// sandbox data, done from the partner's dashboard so they can test their
// webhook handler without waiting for anyone. Each one calls the same service
// as the real thing (order state machine, settlement run, brokerage moves,
// referral click and storefront checkout), so the same events and webhooks
// follow. Live data is refused before anything is read.

export interface SandboxOwner {
  partnerId: string;
  environment: Environment;
}

export function requireSandbox(environment: Environment): void {
  if (environment !== "sandbox") {
    throw new AppError("forbidden", "Simulators work on sandbox data only; live orders and cases move when the real transfer, payment or deal does.");
  }
}

/** The move "advance" makes from each status an order can leave by itself. */
const advanceFrom: Partial<Record<OrderStatus, OrderAction>> = {
  MANUAL_REVIEW: "clear_review",
  EXTERNALLY_PAID: "start_transfer",
  PAID: "start_transfer",
  TRANSFER_IN_PROGRESS: "complete_transfer",
};

export type OrderSimulation = "advance" | "fail";

/** What each order may be simulated to do next (for the dashboard's buttons). */
export function simulationsFor(status: OrderStatus): { advance: OrderAction | "settle" | null; fail: boolean } {
  return {
    advance: status === "TRANSFER_COMPLETED" ? "settle" : (advanceFrom[status] ?? null),
    fail: ["EXTERNALLY_PAID", "PAID", "MANUAL_REVIEW", "TRANSFER_IN_PROGRESS"].includes(status),
  };
}

/**
 * Moves one sandbox order a step: review cleared, transfer started, transfer
 * completed; a completed transfer is settled by the partner's sandbox
 * settlement run (so a statement exists, as in live). "fail" is a failed
 * transfer: the order is cancelled and the buyer refunded.
 */
export async function simulateOrder(db: Database, owner: SandboxOwner, input: { orderId: string; simulation: OrderSimulation }, actor: Actor) {
  requireSandbox(owner.environment);
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, input.orderId), eq(orders.partnerId, owner.partnerId), eq(orders.environment, owner.environment)));
  if (!order) throw notFound("order");
  const next = simulationsFor(order.status);
  if (input.simulation === "fail") {
    if (!next.fail) throw new AppError("conflict", `order ${order.id} is ${order.status}; only an order before its transfer completes can fail`);
    // A hosted-checkout sale's payment goes back through the processor (a refund); a partner-collected sale is cancelled.
    if (await collectedPayment(db, order.id)) {
      return { order: (await refundOrder(db, { orderId: order.id, actor, reason: "Sandbox: the transfer failed" })).order.order };
    }
    return { order: await transitionOrder(db, { orderId: order.id, action: "cancel", actor, owner, note: "Sandbox: the transfer failed; the buyer is refunded." }) };
  }
  if (!next.advance) throw new AppError("conflict", `order ${order.id} is ${order.status}; it has no further step to simulate`);
  if (next.advance === "settle") {
    const run = await runSandboxSettlement(db, owner, actor);
    const [settled] = await db.select().from(orders).where(eq(orders.id, order.id));
    return { order: settled as OrderRow, settlement: run };
  }
  return { order: await transitionOrder(db, { orderId: order.id, action: next.advance, actor, owner, note: `Sandbox: ${next.advance.replace("_", " ")}.` }) };
}

/**
 * The partner's sandbox settlement, now: closes the running month early for
 * this partner's sandbox alone (statements, referral and brokerage payouts),
 * exactly as the monthly run does for everyone.
 */
export async function runSandboxSettlement(db: Db, owner: SandboxOwner, actor: Actor) {
  requireSandbox(owner.environment);
  const start = monthStart(clock.now());
  const nextMonth = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const result = await runSettlement(db, { asOf: nextMonth, actor, only: owner });
  return {
    statements: result.statements.map((s) => ({
      id: s.settlement.id,
      periodStart: s.settlement.periodStart,
      currency: s.settlement.currency,
      orderCount: s.settlement.orderCount,
      grossSoldCents: s.settlement.grossSoldCents,
      commissionRetainedCents: s.settlement.commissionRetainedCents,
    })),
    referralPayouts: result.referralPayouts.filter((p) => p.payoutId).length,
    brokeragePayouts: result.brokeragePayouts.length,
  };
}

export type BrokerageSimulation = "complete" | "close";

/**
 * Walks a sandbox case to its end through each state a real one passes
 * (researching, negotiating), then completes it at `finalPriceCents` or closes
 * it without a deal; the timeline, buyer progress page and events follow.
 */
export async function simulateBrokerage(
  db: Db,
  owner: SandboxOwner,
  input: { caseId: string; simulation: BrokerageSimulation; finalPriceCents?: number },
  actor: Actor,
) {
  requireSandbox(owner.environment);
  const [row] = await db
    .select({ id: brokerageCases.id, status: brokerageCases.status, budget: brokerageCases.budgetCents })
    .from(brokerageCases)
    .where(and(eq(brokerageCases.id, input.caseId), eq(brokerageCases.partnerId, owner.partnerId), eq(brokerageCases.environment, owner.environment)));
  if (!row) throw notFound("brokerage case");
  if (row.status === "COMPLETED" || row.status === "CLOSED_NO_DEAL") throw new AppError("conflict", `case ${row.id} is already ${row.status}`);
  if (input.simulation === "close") {
    return advanceBrokerageCase(db, { caseId: row.id, to: "CLOSED_NO_DEAL", actor, note: "Sandbox: the owner declined to sell." });
  }
  const path: BrokerageStatus[] = row.status === "OPEN" ? ["RESEARCHING", "NEGOTIATING"] : row.status === "RESEARCHING" ? ["NEGOTIATING"] : [];
  for (const to of path) await advanceBrokerageCase(db, { caseId: row.id, to, actor });
  const finalPriceCents = input.finalPriceCents ?? row.budget;
  return advanceBrokerageCase(db, { caseId: row.id, to: "COMPLETED", finalPriceCents, actor, note: "Sandbox: deal closed." });
}

/** A sandbox test card that always succeeds (server/payments/sandbox.ts). */
const SUCCEEDING_CARD = { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123" };

/**
 * A visitor follows the partner's sandbox referral link (a counted click) and,
 * with `buy`, buys an available storefront domain through hosted checkout with
 * a sandbox card, so the referral sale, commission and events are the real ones.
 */
export async function simulateReferral(db: Database, owner: SandboxOwner, input: { linkId: string; buy: boolean }) {
  requireSandbox(owner.environment);
  const [link] = await db
    .select({ id: referralLinks.id, code: referralLinks.code })
    .from(referralLinks)
    .where(and(eq(referralLinks.id, input.linkId), eq(referralLinks.partnerId, owner.partnerId), eq(referralLinks.environment, owner.environment)));
  if (!link) throw notFound("referral link");
  const followed = await followLink(db, { code: link.code, cookie: undefined, userAgent: "Mozilla/5.0 (sandbox simulator)" });
  if (!followed) throw notFound("referral link");
  if (!input.buy) return { counted: followed.counted, order: null };
  const attribution = readAttribution(followed.cookie);
  if (!attribution) throw new Error("a fresh attribution cookie did not read back");
  const candidates = await listFeaturedDomains(db, 25);
  for (const candidate of candidates.sort(() => Math.random() - 0.5)) {
    let token: string;
    try {
      token = (await createCheckoutSession(db, { partnerId: null, environment: owner.environment, domain: candidate.name, referral: attribution })).token;
    } catch (error) {
      if (error instanceof AppError && (error.code === "conflict" || error.code === "not_found")) continue; // sold meanwhile
      throw error;
    }
    const paid = await payCheckoutSession(db, {
      token,
      buyer: { email: "referred-buyer@sandbox.example", name: "Sandbox Buyer", country: "US" },
      card: SUCCEEDING_CARD,
    });
    if (paid.kind === "succeeded") return { counted: followed.counted, order: { id: paid.order.id, domain: paid.order.domain, status: paid.order.status } };
    if (paid.kind !== "unavailable") throw new AppError("conflict", `the simulated payment ended ${paid.kind}`);
  }
  throw new AppError("conflict", "No storefront domain is available to buy in the sandbox right now.");
}

/** Recent sandbox orders and open cases to pick from in the simulator page. */
export async function listSimulationTargets(db: Db, owner: SandboxOwner) {
  requireSandbox(owner.environment);
  const [recentOrders, openCases, links] = await Promise.all([
    db
      .select({ id: orders.id, domain: orders.domain, status: orders.status, createdAt: orders.createdAt })
      .from(orders)
      .where(and(eq(orders.partnerId, owner.partnerId), eq(orders.environment, owner.environment)))
      .orderBy(desc(orders.createdAt))
      .limit(20),
    db
      .select({ id: brokerageCases.id, domain: brokerageCases.domain, status: brokerageCases.status })
      .from(brokerageCases)
      .where(
        and(
          eq(brokerageCases.partnerId, owner.partnerId),
          eq(brokerageCases.environment, owner.environment),
          inArray(brokerageCases.status, ["OPEN", "RESEARCHING", "NEGOTIATING"]),
        ),
      )
      .orderBy(desc(brokerageCases.id))
      .limit(20),
    db
      .select({ id: referralLinks.id, code: referralLinks.code, target: referralLinks.target })
      .from(referralLinks)
      .where(and(eq(referralLinks.partnerId, owner.partnerId), eq(referralLinks.environment, owner.environment)))
      .orderBy(desc(referralLinks.id))
      .limit(20),
  ]);
  return {
    orders: recentOrders.map((o) => ({ ...o, createdAt: o.createdAt.toISOString(), simulations: simulationsFor(o.status) })),
    cases: openCases,
    links,
  };
}
