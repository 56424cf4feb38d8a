import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { and, eq, inArray } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { brokerageCases, brokerageTimeline, commissionLedger, events, orders, referralClicks, referralSales, settlements, users, type Environment } from "@/db/schema";
import type { SessionUser } from "@/server/auth/session";
import { clock } from "@/server/clock";
import { createBrokerageCase } from "@/server/services/brokerage";
import { addDomain } from "@/server/services/inventory";
import { createLink } from "@/server/services/referrals";
import { setSiteProbe } from "@/server/services/site-probe";
import { createCaller } from "@/server/trpc/routers/_app";
import { createFixtureOrder } from "../helpers/orders";
import { createTestPartner, uniqueSuffix } from "../helpers/partner";
import { isCode } from "../helpers/trpc";

// Sandbox simulators against the real database: each goes through the real
// service (state machine, settlement run, brokerage moves, referral click and
// storefront checkout) and so records the same events the webhooks carry;
// live is refused with nothing changed; viewers and finance cannot run them.

before(() => setSiteProbe(async () => ({ active: false, detail: "test: no site" })));
after(async () => {
  setSiteProbe();
  await closeDb();
});
afterEach(() => clock.reset());

async function member(partnerId: string, partnerRole: SessionUser["partnerRole"] = "owner"): Promise<SessionUser> {
  const [row] = await getDb().select().from(users).where(eq(users.partnerId, partnerId));
  assert.ok(row);
  return { id: row.id, email: row.email, name: row.name, role: "partner", partnerId, partnerRole };
}

const callerFor = (user: SessionUser, environment: Environment = "sandbox") => createCaller({ db: getDb(), user, environment });

async function eventTypes(partnerId: string): Promise<string[]> {
  return (await getDb().select({ type: events.type }).from(events).where(eq(events.partnerId, partnerId)).orderBy(events.id)).map((e) => e.type);
}

describe("sandbox simulators", () => {
  it("an order goes through transfer and settlement, one step per press, with the real events and a statement", async () => {
    const { partnerId } = await createTestPartner();
    const sandbox = callerFor(await member(partnerId));
    const order = await createFixtureOrder({ partnerId, priceCents: 12_000 });
    clock.reset();
    const targets = await sandbox.sandbox.targets();
    assert.deepEqual(targets.orders.map((o) => [o.id, o.simulations.advance]), [[order.id, "start_transfer"]]);

    assert.equal((await sandbox.sandbox.order({ orderId: order.id, simulation: "advance" })).status, "TRANSFER_IN_PROGRESS");
    assert.equal((await sandbox.sandbox.order({ orderId: order.id, simulation: "advance" })).status, "TRANSFER_COMPLETED");
    const settled = await sandbox.sandbox.order({ orderId: order.id, simulation: "advance" });
    assert.equal(settled.status, "SETTLED");
    assert.equal(settled.settlement?.statements.length, 1);
    assert.equal(settled.settlement?.statements[0]?.grossSoldCents, 12_000);
    await assert.rejects(sandbox.sandbox.order({ orderId: order.id, simulation: "advance" }), isCode("conflict"));
    await assert.rejects(sandbox.sandbox.order({ orderId: order.id, simulation: "fail" }), isCode("conflict"));
    const types = await eventTypes(partnerId);
    for (const type of ["order.transfer_started", "order.transfer_completed", "order.settled"]) {
      assert.ok(types.includes(type), `${type} in ${types.join()}`);
    }
    const [statement] = await getDb().select().from(settlements).where(eq(settlements.partnerId, partnerId));
    assert.equal(statement?.environment, "sandbox");
  });

  it("a failed transfer cancels the order and refunds; the settlement run touches only this partner's sandbox", async () => {
    const { partnerId } = await createTestPartner();
    const other = await createTestPartner();
    const sandbox = callerFor(await member(partnerId));
    const failing = await createFixtureOrder({ partnerId, priceCents: 5_000 });
    const theirs = await createFixtureOrder({ partnerId: other.partnerId, priceCents: 5_000, completedAt: new Date(Date.now() - 60_000) });
    const mineLive = await createFixtureOrder({ partnerId, environment: "live", priceCents: 5_000, completedAt: new Date(Date.now() - 60_000) });
    clock.reset();
    assert.equal((await sandbox.sandbox.order({ orderId: failing.id, simulation: "fail" })).status, "CANCELLED");
    assert.ok((await eventTypes(partnerId)).includes("order.refunded"));
    await sandbox.sandbox.settle();
    const statuses = await getDb().select({ id: orders.id, status: orders.status }).from(orders).where(inArray(orders.id, [theirs.id, mineLive.id]));
    assert.deepEqual(statuses.map((o) => o.status).sort(), ["TRANSFER_COMPLETED", "TRANSFER_COMPLETED"], "nobody else's orders settled");
    // Another partner's order is not found.
    await assert.rejects(sandbox.sandbox.order({ orderId: theirs.id, simulation: "advance" }), isCode("not_found"));
  });

  it("a brokerage case walks researching and negotiating to completed, or closes", async () => {
    const { partnerId } = await createTestPartner();
    const sandbox = callerFor(await member(partnerId));
    const open = async () =>
      (
        await createBrokerageCase(getDb(), {
          partnerId,
          environment: "sandbox",
          domain: `sim-${uniqueSuffix()}.com`,
          tier: "managed",
          buyerEmail: "buyer@test.example",
          budgetCents: 400_000,
          currency: "USD",
          actor: { type: "partner" },
        })
      ).row;
    const won = await open();
    const done = await sandbox.sandbox.brokerage({ caseId: won.id, simulation: "complete", finalPriceCents: 350_000 });
    assert.equal(done.status, "COMPLETED");
    assert.equal(done.finalPriceCents, 350_000);
    const steps = (await getDb().select().from(brokerageTimeline).where(eq(brokerageTimeline.caseId, won.id)).orderBy(brokerageTimeline.at)).map((t) => t.status);
    assert.deepEqual(steps, ["OPEN", "RESEARCHING", "NEGOTIATING", "COMPLETED"]);
    assert.ok((await eventTypes(partnerId)).includes("brokerage.case_completed"));

    const lost = await open();
    assert.equal((await sandbox.sandbox.brokerage({ caseId: lost.id, simulation: "close" })).status, "CLOSED_NO_DEAL");
    await assert.rejects(sandbox.sandbox.brokerage({ caseId: lost.id, simulation: "complete" }), isCode("conflict"));
    const [row] = await getDb().select().from(brokerageCases).where(eq(brokerageCases.id, lost.id));
    assert.equal(row?.status, "CLOSED_NO_DEAL");
  });

  it("a referral click is counted and a simulated sale is the link's referral sale with its commission", async () => {
    const { partnerId } = await createTestPartner({ isAffiliate: true });
    const sandbox = callerFor(await member(partnerId));
    const link = await createLink(getDb(), { partnerId, environment: "sandbox", type: "generic" });
    // Something to buy: a short, cheap .com as the storefront features.
    await addDomain(getDb(), { environment: "sandbox", name: `s${uniqueSuffix().slice(-8)}.com`, priceCents: 1_500 });
    const click = await sandbox.sandbox.referral({ linkId: link.id, buy: false });
    assert.equal(click.counted, true);
    const sale = await sandbox.sandbox.referral({ linkId: link.id, buy: true });
    assert.ok(sale.order);
    assert.equal((await getDb().select().from(referralClicks).where(eq(referralClicks.linkId, link.id))).length, 2);
    const [referred] = await getDb().select().from(referralSales).where(eq(referralSales.orderId, sale.order.id));
    assert.equal(referred?.partnerId, partnerId);
    const ledger = await getDb()
      .select()
      .from(commissionLedger)
      .where(and(eq(commissionLedger.orderId, sale.order.id), eq(commissionLedger.source, "referral")));
    assert.equal(ledger.length, 1);
    // A storefront sale is the marketplace's order: like a real one, it emits no event to the referrer.
  });

  it("live is refused with nothing changed; viewers and finance cannot simulate", async () => {
    const { partnerId } = await createTestPartner();
    const order = await createFixtureOrder({ partnerId, environment: "live", priceCents: 9_000 });
    clock.reset();
    const live = callerFor(await member(partnerId), "live");
    await assert.rejects(live.sandbox.order({ orderId: order.id, simulation: "advance" }), isCode("forbidden"));
    await assert.rejects(live.sandbox.settle(), isCode("forbidden"));
    await assert.rejects(live.sandbox.targets(), isCode("forbidden"));
    const [after] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(after?.status, order.status);
    for (const role of ["viewer", "finance"] as const) {
      const caller = callerFor(await member(partnerId, role));
      await assert.rejects(caller.sandbox.settle(), isCode("forbidden"), role);
    }
  });
});
