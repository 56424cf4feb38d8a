import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, afterEach, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { checkoutSessions, commissionLedger, domains, events, orders, paymentDisputes, payments, processorEvents, refunds } from "@/db/schema";
import * as checkoutSessionRoute from "@/app/api/partner/v1/checkout-session/route";
import * as webhookRoute from "@/app/api/payments/stripe/webhook/route";
import { clock } from "@/server/clock";
import { resetEnv } from "@/server/env";
import { getCheckoutView, INTENT_STALE_MS } from "@/server/services/checkout";
import { intentProviderFor, openIntentPayment, reconcileIntentPayments } from "@/server/services/checkout-intents";
import { addDomain } from "@/server/services/inventory";
import { refundOrder } from "@/server/services/refunds";
import { StripeStandIn } from "../helpers/stripe-stand-in";
import { callRoute, createTestPartner } from "../helpers/partner";

// Live hosted checkout through Stripe, against a local stand-in of Stripe's API
// (tests/helpers/stripe-stand-in.ts) and events signed as Stripe signs them:
// one intent per session, the sale recorded once from the webhook however it
// is delivered, signatures enforced, the double payment refunded, refunds and
// disputes through Stripe, the reconciler for a missed webhook.

const stripe = new StripeStandIn();
const saved = { ...process.env };
const tag = `st${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join("")}`;
let n = 0;
let partner: Awaited<ReturnType<typeof createTestPartner>>;
const buyer = { email: "live-buyer@example.com", name: "Lia Live", country: "DE" };

before(async () => {
  await stripe.start();
  Object.assign(process.env, stripe.env());
  resetEnv();
  partner = await createTestPartner({ paymentModel: "non_mor", scopes: ["embed"], environment: "live" });
});
afterEach(() => clock.reset());
after(async () => {
  process.env = saved;
  resetEnv();
  await stripe.stop();
  await closeDb();
});

async function listDomain() {
  const domain = `${tag}d${++n}.com`;
  await addDomain(getDb(), { environment: "live", name: domain, priceCents: 125_000 });
  return domain;
}

/** POST /checkout-session with the partner's live key, then the session row and its token. */
async function createSession(domain?: string) {
  const name = domain ?? (await listDomain());
  const res = await callRoute<{ checkout_session_id: string; checkout_url: string }>(checkoutSessionRoute.POST, {
    method: "POST",
    url: "/api/partner/v1/checkout-session",
    credential: partner.credential,
    body: { domain: name },
  });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const token = new URL(res.body.checkout_url).searchParams.get("pt")!;
  return { token, sessionId: res.body.checkout_session_id, domain: name };
}

/** What the server does when it renders the live page. */
async function render(token: string) {
  const view = await getCheckoutView(getDb(), token);
  if (view.kind !== "open") return { view, payment: null };
  const provider = intentProviderFor(view.session);
  assert.ok(provider, "live pays through Stripe");
  return { view, payment: await openIntentPayment(getDb(), view.session, provider) };
}

async function intentOf(sessionId: string) {
  const [row] = await getDb().select().from(payments).where(eq(payments.checkoutSessionId, sessionId));
  assert.ok(row?.providerRef);
  return row;
}

async function deliver(type: string, object: object, options: { id?: string; timestamp?: number; secret?: string; header?: string | null } = {}) {
  const signed = stripe.event(type, object, options);
  const headers: Record<string, string> = { "content-type": "application/json" };
  const header = options.header === undefined ? signed.header : options.header;
  if (header !== null) headers["stripe-signature"] = header;
  const res = await webhookRoute.POST(new Request("http://localhost/api/payments/stripe/webhook", { method: "POST", headers, body: signed.payload }));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const ordersOf = (sessionId: string) => getDb().select().from(orders).where(eq(orders.checkoutSessionId, sessionId));
const eventsOf = (type: string) => getDb().select().from(events).where(and(eq(events.partnerId, partner.partnerId), eq(events.type, type as never)));

async function paidSession() {
  const session = await createSession();
  await render(session.token);
  const row = await intentOf(session.sessionId);
  const intent = stripe.succeed(row.providerRef!);
  assert.equal((await deliver("payment_intent.succeeded", intent)).status, 200);
  const [order] = await ordersOf(session.sessionId);
  assert.ok(order);
  return { ...session, intent, order };
}

describe("live checkout: one intent per session", () => {
  it("reloads, a second tab and concurrent renders reuse the one intent", async () => {
    const { token, sessionId, domain } = await createSession();
    const before = stripe.creates().length;
    const first = await render(token);
    assert.equal(first.view.kind, "open");
    assert.ok(first.payment?.clientSecret.startsWith("pi_"));
    assert.equal(first.payment?.publishableKey, stripe.publishableKey);
    assert.equal(first.payment?.status, "requires_payment");
    await render(token);
    const concurrent = await Promise.all([render(token), render(token), render(token)]);
    for (const again of concurrent) assert.equal(again.payment?.clientSecret, first.payment?.clientSecret);
    assert.equal(stripe.creates().length - before, 1);
    const rows = await getDb().select().from(payments).where(eq(payments.checkoutSessionId, sessionId));
    assert.equal(rows.length, 1);
    const intent = stripe.intents.get(rows[0]!.providerRef!)!;
    assert.equal(intent.amount, 125_000);
    assert.equal(intent.currency, "usd");
    assert.deepEqual(intent.automatic_payment_methods, { enabled: true });
    assert.deepEqual(intent.metadata, { checkout_session_id: sessionId, partner_id: partner.partnerId, domain, environment: "live" });
    const keys = stripe.requests.filter((r) => r.path === "/v1/payment_intents" && r.method === "POST").map((r) => r.idempotencyKey);
    assert.ok(keys.includes(`checkout_session:${sessionId}`));
  });
});

describe("the Stripe webhook records the sale once", () => {
  it("duplicated, out-of-order and concurrent deliveries make one order, one event, one commission", async () => {
    const { token, sessionId } = await createSession();
    await render(token);
    const row = await intentOf(sessionId);
    // A decline first, then success; then the old decline arrives again, late.
    stripe.decline(row.providerRef!);
    const failed = { ...stripe.intents.get(row.providerRef!)! };
    const succeeded = stripe.succeed(row.providerRef!);
    const results = await Promise.all([
      deliver("payment_intent.succeeded", succeeded, { id: "evt_dup_a" + sessionId }),
      deliver("payment_intent.succeeded", succeeded, { id: "evt_dup_a" + sessionId }),
      deliver("payment_intent.succeeded", succeeded, { id: "evt_dup_b" + sessionId }),
      deliver("payment_intent.succeeded", succeeded),
    ]);
    for (const r of results) assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.equal((await deliver("payment_intent.payment_failed", failed)).status, 200);
    assert.equal((await deliver("payment_intent.succeeded", succeeded, { id: "evt_dup_a" + sessionId })).body.result, "duplicate");

    const sold = await ordersOf(sessionId);
    assert.equal(sold.length, 1);
    const order = sold[0]!;
    assert.equal(order.status, "PAID");
    assert.equal(order.buyerEmail, "");
    assert.equal(order.commissionCents, 12_500);
    const paid = (await eventsOf("order.paid")).filter((e) => (e.data.order as { public_id: string }).public_id === order.id);
    assert.equal(paid.length, 1);
    const ledger = await getDb().select().from(commissionLedger).where(eq(commissionLedger.orderId, order.id));
    assert.deepEqual(ledger.map((l) => [l.state, l.amountCents]), [["accrued", 12_500]]);
    const [payment] = await getDb().select().from(payments).where(eq(payments.id, row.id));
    assert.equal(payment?.status, "succeeded");
    assert.equal(payment?.orderId, order.id);
    assert.equal((await render(token)).view.kind, "paid");
  });

  it("the buyer's details saved before confirming are on the order", async () => {
    const { saveIntentBuyer } = await import("@/server/services/checkout-intents");
    const { token, sessionId } = await createSession();
    await render(token);
    assert.equal(await saveIntentBuyer(getDb(), token, buyer), "saved");
    const row = await intentOf(sessionId);
    await deliver("payment_intent.succeeded", stripe.succeed(row.providerRef!));
    const [order] = await ordersOf(sessionId);
    assert.equal(order?.buyerEmail, buyer.email);
    assert.equal(order?.buyerCountry, "DE");
  });

  it("the return page records a success the webhook has not brought yet, from the intent read on the server", async () => {
    const { token, sessionId } = await createSession();
    await render(token);
    const row = await intentOf(sessionId);
    stripe.succeed(row.providerRef!);
    assert.equal((await render(token)).view.kind, "open"); // this render records it
    assert.equal((await render(token)).view.kind, "paid");
    assert.equal((await ordersOf(sessionId)).length, 1);
  });

  it("forged, stale and unsigned events are refused with 400 and record nothing", async () => {
    const { token, sessionId } = await createSession();
    await render(token);
    const row = await intentOf(sessionId);
    const intent = stripe.succeed(row.providerRef!);
    const forged = await deliver("payment_intent.succeeded", intent, { id: `evt_forged${sessionId}`, secret: "whsec_not_the_real_one" });
    const stale = await deliver("payment_intent.succeeded", intent, { id: `evt_stale${sessionId}`, timestamp: Math.floor(Date.now() / 1000) - 301 });
    const unsigned = await deliver("payment_intent.succeeded", intent, { id: `evt_unsigned${sessionId}`, header: null });
    const garbled = await deliver("payment_intent.succeeded", intent, { id: `evt_garbled${sessionId}`, header: "t=1,v1=abc" });
    for (const res of [forged, stale, unsigned, garbled]) {
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal((res.body.error as { code: string }).code, "validation_error");
    }
    assert.equal((await ordersOf(sessionId)).length, 0);
    for (const id of ["forged", "stale", "unsigned", "garbled"]) {
      assert.equal((await getDb().select().from(processorEvents).where(eq(processorEvents.id, `evt_${id}${sessionId}`))).length, 0);
    }
    // Inside the 300 s tolerance it is accepted.
    const recent = await deliver("payment_intent.succeeded", intent, { timestamp: Math.floor(Date.now() / 1000) - 200 });
    assert.equal(recent.status, 200);
    assert.equal((await ordersOf(sessionId)).length, 1);
  });

  it("a declined payment records nothing and the page stays open to try again", async () => {
    const { token, sessionId } = await createSession();
    await render(token);
    const row = await intentOf(sessionId);
    const declined = stripe.decline(row.providerRef!, "Your card has insufficient funds.");
    assert.equal((await deliver("payment_intent.payment_failed", declined)).status, 200);
    assert.equal((await ordersOf(sessionId)).length, 0);
    const again = await render(token);
    assert.equal(again.view.kind, "open");
    assert.equal(again.payment?.status, "requires_payment");
    assert.equal(again.payment?.lastError, "Your card has insufficient funds.");
    const [payment] = await getDb().select().from(payments).where(eq(payments.id, row.id));
    assert.equal(payment?.status, "pending");
  });

  it("card details posted to a live session's server action are refused unread; nothing is charged or stored", async () => {
    const { payCheckoutSession } = await import("@/server/services/checkout");
    const { token, sessionId } = await createSession();
    const outcome = await payCheckoutSession(getDb(), { token, buyer, card: { number: "4242424242424242", expMonth: 12, expYear: 2040, cvc: "123" } });
    assert.equal(outcome.kind, "declined");
    assert.equal(outcome.kind === "declined" && outcome.code, "card_not_accepted");
    assert.equal((await getDb().select().from(payments).where(eq(payments.checkoutSessionId, sessionId))).length, 0);
    assert.equal((await ordersOf(sessionId)).length, 0);
  });

  it("other event types are acknowledged and ignored", async () => {
    const res = await deliver("customer.created", { id: "cus_123", object: "customer" });
    assert.equal(res.status, 200);
    assert.equal(res.body.result, "ignored");
  });
});

/** Two buyers' checkout sessions for one listed domain, each page rendered once (so each has its intent). */
async function twoBuyersOfOneDomain() {
  const domain = await listDomain();
  const a = await createSession(domain);
  const b = await createSession(domain);
  await render(a.token);
  await render(b.token);
  return { domain, a, b };
}

describe("two buyers, one domain", () => {
  it("both may pay; the second success is refunded through Stripe and its page says why", async () => {
    const { domain, a, b } = await twoBuyersOfOneDomain();
    const intentA = stripe.succeed((await intentOf(a.sessionId)).providerRef!);
    const intentB = stripe.succeed((await intentOf(b.sessionId)).providerRef!);
    const [resA, resB] = await Promise.all([deliver("payment_intent.succeeded", intentA), deliver("payment_intent.succeeded", intentB)]);
    assert.equal(resA.status, 200);
    assert.equal(resB.status, 200);
    const sold = await getDb().select().from(orders).where(eq(orders.domain, domain));
    assert.equal(sold.length, 1);
    const loser = sold[0]!.checkoutSessionId === a.sessionId ? b : a;
    const loserIntent = loser === a ? intentA : intentB;
    const given = [...stripe.refunds.values()].filter((r) => r.payment_intent === loserIntent.id);
    assert.equal(given.length, 1);
    assert.equal(given[0]?.amount, 125_000);
    const [payment] = await getDb().select().from(payments).where(eq(payments.checkoutSessionId, loser.sessionId));
    assert.equal(payment?.status, "refunded");
    assert.equal((await getCheckoutView(getDb(), loser.token)).kind, "refunded");
    // A redelivery refunds nothing more.
    await deliver("payment_intent.succeeded", loserIntent);
    assert.equal([...stripe.refunds.values()].filter((r) => r.payment_intent === loserIntent.id).length, 1);
  });
});

describe("two buyers, one domain: the later buyer returns before the webhook", () => {
  it("the closed page reads the buyer's own intent, refunds it and says so instead of 'nothing was charged'", async () => {
    const { settleReturningIntent } = await import("@/server/services/checkout-intents");
    const { a, b } = await twoBuyersOfOneDomain();
    await deliver("payment_intent.succeeded", stripe.succeed((await intentOf(a.sessionId)).providerRef!));
    assert.equal((await getCheckoutView(getDb(), b.token)).kind, "unavailable"); // nothing of B's paid yet
    assert.equal(await settleReturningIntent(getDb(), b.token), "requires_payment");
    const intentB = stripe.succeed((await intentOf(b.sessionId)).providerRef!);
    assert.equal(await settleReturningIntent(getDb(), b.token), "succeeded");
    assert.equal((await getCheckoutView(getDb(), b.token)).kind, "refunded");
    assert.equal([...stripe.refunds.values()].filter((r) => r.payment_intent === intentB.id).length, 1);
    assert.equal(await settleReturningIntent(getDb(), b.token), null); // settled: nothing more to read
  });
});

describe("the refund of a name sold twice survives a Stripe outage", () => {
  it("the webhook answers 500 (Stripe retries), the payment stays refunding, and the worker's pass refunds it once", async () => {
    const { reconcilePaymentIntents } = await import("@/server/services/checkout");
    const { domain, a, b } = await twoBuyersOfOneDomain();
    await deliver("payment_intent.succeeded", stripe.succeed((await intentOf(a.sessionId)).providerRef!));
    const intentB = stripe.succeed((await intentOf(b.sessionId)).providerRef!);
    stripe.failNext = 3; // refunds.create and the SDK's two retries
    const failed = await deliver("payment_intent.succeeded", intentB);
    assert.equal(failed.status, 500);
    assert.equal((await intentOf(b.sessionId)).status, "refunding");
    assert.equal([...stripe.refunds.values()].filter((r) => r.payment_intent === intentB.id).length, 0);
    clock.advance(INTENT_STALE_MS + 1000);
    await reconcilePaymentIntents(getDb());
    assert.equal((await intentOf(b.sessionId)).status, "refunded");
    await reconcilePaymentIntents(getDb());
    assert.equal([...stripe.refunds.values()].filter((r) => r.payment_intent === intentB.id).length, 1);
    assert.equal((await getDb().select().from(orders).where(eq(orders.domain, domain))).length, 1);
  });
});

describe("refunds and disputes through Stripe", () => {
  it("a staff refund calls refunds.create once under our own key, and a retry after an outage never refunds twice", async () => {
    const { intent, order } = await paidSession();
    stripe.failNext = 3; // the first call and the SDK's two retries
    await assert.rejects(refundOrder(getDb(), { orderId: order.id, actor: { type: "admin" } }), /did not confirm/);
    const [pending] = await getDb().select().from(refunds).where(eq(refunds.orderId, order.id));
    assert.equal(pending?.status, "pending");
    const done = await refundOrder(getDb(), { orderId: order.id, actor: { type: "admin" } });
    assert.equal(done.refund.status, "succeeded");
    assert.ok(done.refund.providerRef?.startsWith("re_"));
    const made = [...stripe.refunds.values()].filter((r) => r.payment_intent === intent.id);
    assert.equal(made.length, 1);
    // Every attempt (the SDK's retries, our retry) carried our key derived from the refund row.
    const keys = stripe.requests.filter((r) => r.path === "/v1/refunds" && r.idempotencyKey?.startsWith("refund:")).map((r) => r.idempotencyKey);
    assert.ok(keys.length >= 4);
    assert.ok(keys.every((k) => k === `refund:${pending!.id}`), JSON.stringify(keys));
    await assert.rejects(refundOrder(getDb(), { orderId: order.id, actor: { type: "admin" } }), /already refunded/);
    assert.equal([...stripe.refunds.values()].filter((r) => r.payment_intent === intent.id).length, 1);
    const [after] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(after?.status, "REFUNDED");
    const ledger = await getDb().select().from(commissionLedger).where(eq(commissionLedger.orderId, order.id));
    assert.deepEqual(ledger.map((l) => l.state), ["reversed"]);
  });

  it("a refund Stripe accepted and then could not complete puts the order back in manual review, once", async () => {
    const { order, domain } = await paidSession();
    const done = await refundOrder(getDb(), { orderId: order.id, actor: { type: "admin" } });
    const refund = stripe.failRefund(done.refund.providerRef!);
    assert.equal((await deliver("refund.failed", refund)).status, 200);
    assert.equal((await deliver("refund.updated", refund)).status, 200); // the same news, another event
    const [row] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(row?.status, "MANUAL_REVIEW");
    const [failed] = await getDb().select().from(refunds).where(eq(refunds.id, done.refund.id));
    assert.equal(failed?.status, "failed");
    const events = (await eventsOf("order.refund_failed")).filter((e) => (e.data.order as { public_id: string }).public_id === order.id);
    assert.equal(events.length, 1);
    const [listing] = await getDb().select().from(domains).where(eq(domains.name, domain));
    assert.equal(listing?.status, "sold");
    // Staff refund again: a new refund through Stripe under a new key.
    const again = await refundOrder(getDb(), { orderId: order.id, actor: { type: "admin" } });
    assert.equal(again.refund.status, "succeeded");
    assert.notEqual(again.refund.id, done.refund.id);
  });

  it("a dispute holds the order and commission; lost reverses it", async () => {
    const { intent, order } = await paidSession();
    const opened = stripe.dispute(intent.id, "needs_response");
    assert.equal((await deliver("charge.dispute.created", opened)).status, 200);
    assert.equal((await deliver("charge.dispute.created", opened)).status, 200); // redelivered under a new event id
    let [row] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(row?.status, "MANUAL_REVIEW");
    let [ledger] = await getDb().select().from(commissionLedger).where(eq(commissionLedger.orderId, order.id));
    assert.ok(ledger?.heldAt);
    assert.equal(ledger?.state, "accrued");
    const disputed = (await eventsOf("order.disputed")).filter((e) => (e.data.order as { public_id: string }).public_id === order.id);
    assert.equal(disputed.length, 1);

    assert.equal((await deliver("charge.dispute.closed", stripe.dispute(intent.id, "lost", opened.id))).status, 200);
    [row] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(row?.status, "REFUNDED");
    [ledger] = await getDb().select().from(commissionLedger).where(eq(commissionLedger.orderId, order.id));
    assert.equal(ledger?.state, "reversed");
    const refunded = (await eventsOf("order.refunded")).filter((e) => (e.data.order as { public_id: string }).public_id === order.id);
    assert.equal(refunded.length, 1);
    const [dispute] = await getDb().select().from(paymentDisputes).where(eq(paymentDisputes.id, opened.id));
    assert.equal(dispute?.status, "lost");
  });

  it("a dispute won releases the order and the commission", async () => {
    const { intent, order } = await paidSession();
    const opened = stripe.dispute(intent.id, "needs_response");
    await deliver("charge.dispute.created", opened);
    await deliver("charge.dispute.closed", stripe.dispute(intent.id, "won", opened.id));
    await deliver("charge.dispute.closed", stripe.dispute(intent.id, "won", opened.id));
    const [row] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(row?.status, "PAID");
    const [ledger] = await getDb().select().from(commissionLedger).where(eq(commissionLedger.orderId, order.id));
    assert.equal(ledger?.heldAt, null);
    assert.equal(ledger?.state, "accrued");
    const won = (await eventsOf("order.dispute_won")).filter((e) => (e.data.order as { public_id: string }).public_id === order.id);
    assert.equal(won.length, 1);
  });
});

describe("the reconciler settles a missed webhook", () => {
  it("a succeeded intent with no webhook is recorded once by the worker's pass", async () => {
    const { token, sessionId } = await createSession();
    await render(token);
    const row = await intentOf(sessionId);
    stripe.succeed(row.providerRef!);
    assert.deepEqual(await reconcileIntentPayments(getDb()), { recorded: 0, abandoned: 0 }); // too young
    clock.advance(INTENT_STALE_MS + 1000);
    const done = await reconcileIntentPayments(getDb());
    assert.ok(done.recorded >= 1);
    assert.equal((await ordersOf(sessionId)).length, 1);
    await reconcileIntentPayments(getDb());
    assert.equal((await ordersOf(sessionId)).length, 1);
  });
});

describe("the stand-in speaks Stripe's idempotency", () => {
  it("a key replays its first answer; reused with other parameters it is Stripe's idempotency_error", async () => {
    const provider = intentProviderFor({ environment: "live" })!;
    const key = `${tag}-idem`;
    const request = { amountCents: 5_000, currency: "USD", idempotencyKey: key, description: "x", metadata: { a: "b" } };
    const first = await provider.createIntent(request);
    const again = await provider.createIntent(request);
    assert.equal(again.ref, first.ref);
    assert.ok(stripe.requests.some((r) => r.idempotencyKey === key && r.replayed));
    await assert.rejects(provider.createIntent({ ...request, amountCents: 5_001 }), (error: Error & { type?: string }) => {
      assert.equal(error.type, "StripeIdempotencyError");
      assert.match(error.message, /same parameters/);
      return true;
    });
  });
});

describe("sandbox on Stripe's test mode (STRIPE_TEST_*)", () => {
  it("a sandbox session pays through Stripe test mode when configured, else the built-in processor", async () => {
    assert.equal(intentProviderFor({ environment: "sandbox" }), null);
    Object.assign(process.env, stripe.env("STRIPE_TEST_"));
    resetEnv();
    try {
      const provider = intentProviderFor({ environment: "sandbox" });
      assert.equal(provider?.name, "stripe_test");
      const domain = `${tag}sbx.com`;
      await addDomain(getDb(), { environment: "sandbox", name: domain, priceCents: 9_900 });
      const { createCheckoutSession } = await import("@/server/services/checkout");
      const created = await createCheckoutSession(getDb(), { partnerId: null, environment: "sandbox", domain });
      const rendered = await render(created.token);
      assert.equal(rendered.payment?.status, "requires_payment");
      const row = await intentOf(created.row.id);
      assert.equal(row.provider, "stripe_test");
      await deliver("payment_intent.succeeded", stripe.succeed(row.providerRef!));
      const sold = await ordersOf(created.row.id);
      assert.equal(sold.length, 1);
      assert.equal(sold[0]?.channel, "marketplace");
    } finally {
      for (const key of ["STRIPE_TEST_SECRET_KEY", "STRIPE_TEST_PUBLISHABLE_KEY", "STRIPE_TEST_WEBHOOK_SECRET"]) delete process.env[key];
      resetEnv();
    }
  });
});

describe("without Stripe settings", () => {
  it("POST /checkout-session with a live key answers payments_unavailable and creates nothing", async () => {
    const domain = await listDomain();
    for (const key of Object.keys(stripe.env())) delete process.env[key];
    resetEnv();
    try {
      const res = await callRoute<{ error: { code: string; message: string } }>(checkoutSessionRoute.POST, {
        method: "POST",
        url: "/api/partner/v1/checkout-session",
        credential: partner.credential,
        body: { domain },
      });
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.error.code, "payments_unavailable");
      assert.match(res.body.error.message, /live payments are not configured/);
      assert.equal((await getDb().select().from(checkoutSessions).where(eq(checkoutSessions.domain, domain))).length, 0);
    } finally {
      Object.assign(process.env, stripe.env());
      resetEnv();
    }
  });
});
