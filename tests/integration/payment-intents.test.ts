import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, afterEach, describe, it } from "node:test";
import { and, eq, like } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { orders, payments, refunds, sandboxProcessorCharges } from "@/db/schema";
import * as refundsRoute from "@/app/api/partner/v1/refunds/route";
import { clock } from "@/server/clock";
import { newId } from "@/server/ids";
import { createCheckoutSession, INTENT_STALE_MS, payCheckoutSession, payHooks, reconcilePaymentIntents } from "@/server/services/checkout";
import { addDomain } from "@/server/services/inventory";
import { refundOrder } from "@/server/services/refunds";
import { callRoute, createTestPartner } from "../helpers/partner";

// Hosted-checkout money paths: the charge happens outside any transaction
// between a committed intent and the recorded sale; a crash in between is
// finished by the reconciler from the processor's own record; refunds of sales
// the service collected go back through the processor, once.

const buyer = { email: "intent-buyer@example.com", name: "Ida Intent", country: "NL" };
const card = (number = "4242424242424242") => ({ number, expMonth: 12, expYear: 2040, cvc: "123" });
const tag = `pi${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join("")}`;
let n = 0;

async function openSession(partnerId: string | null = null) {
  const domain = `${tag}d${++n}.com`;
  await addDomain(getDb(), { environment: "sandbox", name: domain, priceCents: 42_000 });
  const created = await createCheckoutSession(getDb(), { partnerId, environment: "sandbox", domain });
  return { token: created.token, sessionId: created.row.id, domain };
}

const chargesOf = (sessionId: string) =>
  getDb().select().from(sandboxProcessorCharges).where(like(sandboxProcessorCharges.idempotencyKey, `${sessionId}:%`));
const paymentsOf = (sessionId: string) => getDb().select().from(payments).where(eq(payments.checkoutSessionId, sessionId));

afterEach(() => {
  payHooks.afterCharge = undefined;
  clock.reset();
});
after(closeDb);

describe("payment intents", () => {
  it("a crash between charge and record is finished by the reconciler: one charge, one order", async () => {
    const { token, sessionId } = await openSession();
    payHooks.afterCharge = async () => {
      throw new Error("simulated crash after the processor answered");
    };
    await assert.rejects(payCheckoutSession(getDb(), { token, buyer, card: card() }), /simulated crash/);
    payHooks.afterCharge = undefined;

    const [pending] = await paymentsOf(sessionId);
    assert.equal(pending?.status, "pending");
    assert.equal((await chargesOf(sessionId)).length, 1);
    // A second tab meanwhile is told to wait, and charges nothing.
    assert.equal((await payCheckoutSession(getDb(), { token, buyer, card: card() })).kind, "processing");
    assert.equal((await chargesOf(sessionId)).length, 1);

    // Young intents are left alone (their request may still be running).
    assert.deepEqual(await reconcilePaymentIntents(getDb()), { recorded: 0, abandoned: 0 });
    clock.advance(INTENT_STALE_MS + 1000);
    const reconciled = await reconcilePaymentIntents(getDb());
    assert.ok(reconciled.recorded >= 1);
    const [done] = await paymentsOf(sessionId);
    assert.equal(done?.status, "succeeded");
    assert.ok(done?.orderId);
    const sold = await getDb().select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
    assert.equal(sold.length, 1);
    assert.equal(sold[0]?.buyerEmail, buyer.email);
    assert.equal((await chargesOf(sessionId)).length, 1);
    // Running again changes nothing.
    await reconcilePaymentIntents(getDb());
    assert.equal((await getDb().select().from(orders).where(eq(orders.checkoutSessionId, sessionId))).length, 1);
  });

  it("an intent the processor never saw is abandoned, and the buyer can pay again", async () => {
    const { token, sessionId } = await openSession();
    const id = newId("payment");
    await getDb().insert(payments).values({
      id,
      checkoutSessionId: sessionId,
      environment: "sandbox",
      provider: "sandbox",
      idempotencyKey: `${sessionId}:${id}`,
      amountCents: 42_000,
      status: "pending",
      data: { buyer },
      createdAt: clock.now(),
    });
    clock.advance(INTENT_STALE_MS + 1000);
    await reconcilePaymentIntents(getDb());
    const [abandoned] = await getDb().select().from(payments).where(eq(payments.id, id));
    assert.equal(abandoned?.status, "failed");
    assert.equal(abandoned?.failureCode, "abandoned");
    clock.reset();
    assert.equal((await payCheckoutSession(getDb(), { token, buyer, card: card() })).kind, "succeeded");
  });

  it("concurrent pays of one session: one charge, the others wait or see it paid", async () => {
    const { token, sessionId } = await openSession();
    const outcomes = await Promise.all([0, 1, 2, 3].map(() => payCheckoutSession(getDb(), { token, buyer, card: card() })));
    assert.equal(outcomes.filter((o) => o.kind === "succeeded").length, 1);
    for (const o of outcomes) assert.ok(["succeeded", "processing", "paid"].includes(o.kind), o.kind);
    assert.equal((await chargesOf(sessionId)).length, 1);
  });

  it("a decline is recorded on its intent and leaves the session open", async () => {
    const { token, sessionId } = await openSession();
    const declined = await payCheckoutSession(getDb(), { token, buyer, card: card("4000000000000002") });
    assert.equal(declined.kind, "declined");
    assert.deepEqual((await paymentsOf(sessionId)).map((p) => p.status), ["declined"]);
    assert.equal((await payCheckoutSession(getDb(), { token, buyer, card: card() })).kind, "succeeded");
  });
});

describe("refunds of sales the service collected", () => {
  it("a partner may not refund a hosted-checkout sale, even its own; nothing changes", async () => {
    const seller = await createTestPartner({ paymentModel: "mor", scopes: ["embed", "buy"] });
    const { token } = await openSession(seller.partnerId);
    const paid = await payCheckoutSession(getDb(), { token, buyer, card: card() });
    assert.equal(paid.kind, "succeeded");
    if (paid.kind !== "succeeded") return;
    const res = await callRoute<{ error: { code: string; message: string } }>(refundsRoute.POST, {
      method: "POST",
      url: "/api/partner/v1/refunds",
      credential: seller.credential,
      body: { order_id: paid.order.id },
    });
    assert.equal(res.status, 403, JSON.stringify(res.body));
    assert.equal(res.body.error.code, "forbidden");
    assert.match(res.body.error.message, /merchant-of-record/);
    const [order] = await getDb().select().from(orders).where(eq(orders.id, paid.order.id));
    assert.equal(order?.status, paid.order.status);
    assert.equal((await getDb().select().from(refunds).where(eq(refunds.orderId, paid.order.id))).length, 0);
  });

  it("staff refund goes through the processor once, with the reference stored", async () => {
    const { token, sessionId } = await openSession();
    const paid = await payCheckoutSession(getDb(), { token, buyer, card: card() });
    assert.equal(paid.kind, "succeeded");
    if (paid.kind !== "succeeded") return;
    const result = await refundOrder(getDb(), { orderId: paid.order.id, actor: { type: "admin" }, reason: "buyer changed mind" });
    assert.equal(result.refund.status, "succeeded");
    assert.match(result.refund.providerRef ?? "", /^re_sbx_/);
    const [charge] = await chargesOf(sessionId);
    assert.equal(charge?.refundRef, result.refund.providerRef);
    assert.equal(charge?.refundKey, `refund:${result.refund.id}`);
    const [payment] = await getDb().select().from(payments).where(and(eq(payments.orderId, paid.order.id)));
    assert.equal(payment?.status, "refunded");
    // Again: refused, and the processor is not asked twice.
    await assert.rejects(refundOrder(getDb(), { orderId: paid.order.id, actor: { type: "admin" } }), /already refunded/);
    const [after] = await chargesOf(sessionId);
    assert.equal(after?.refundRef, result.refund.providerRef);
  });

  it("a refund whose processor call failed stays pending and the same command finishes it", async () => {
    const { token, sessionId } = await openSession();
    const paid = await payCheckoutSession(getDb(), { token, buyer, card: card() });
    if (paid.kind !== "succeeded") return assert.fail(paid.kind);
    // The processor refuses once: its record of the charge is briefly not "succeeded".
    await getDb().update(sandboxProcessorCharges).set({ status: "held" }).where(like(sandboxProcessorCharges.idempotencyKey, `${sessionId}:%`));
    await assert.rejects(refundOrder(getDb(), { orderId: paid.order.id, actor: { type: "admin" } }), /run the refund again/);
    const [pending] = await getDb().select().from(refunds).where(eq(refunds.orderId, paid.order.id));
    assert.equal(pending?.status, "pending");
    await getDb().update(sandboxProcessorCharges).set({ status: "succeeded" }).where(like(sandboxProcessorCharges.idempotencyKey, `${sessionId}:%`));
    const retried = await refundOrder(getDb(), { orderId: paid.order.id, actor: { type: "admin" } });
    assert.equal(retried.refund.id, pending?.id);
    assert.equal(retried.refund.status, "succeeded");
    assert.equal((await getDb().select().from(refunds).where(eq(refunds.orderId, paid.order.id))).length, 1);
  });
});
