import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, afterEach, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { closeDb, getDb } from "@/db/client";
import { checkoutSessions, commissionLedger, domains, events, orders, orderTimeline, payments, referralLinks, referralSales } from "@/db/schema";
import * as checkoutRoute from "@/app/api/partner/v1/checkout-session/route";
import * as ordersRoute from "@/app/api/partner/v1/orders/route";
import { clock } from "@/server/clock";
import { newId } from "@/server/ids";
import { checkoutSessionSchema } from "@/server/contracts/checkout";
import { checkCard, luhnValid } from "@/server/payments/card";
import { getPaymentProvider } from "@/server/payments/provider";
import { sandboxProvider } from "@/server/payments/sandbox";
import {
  createCheckoutSession,
  getCheckoutView,
  payCheckoutSession,
  payHooks,
  verifyCheckoutToken,
  type PayCheckoutInput,
} from "@/server/services/checkout";
import { addDomain } from "@/server/services/inventory";
import { createQuote } from "@/server/services/quotes";
import { transitionOrder } from "@/server/services/order-states";
import { addCredential, callRoute, createTestPartner, type TestCredential } from "../helpers/partner";

// Hosted checkout against the real database: session creation through the
// signed route, the pt token, the sandbox provider and paying a session.
// Scope and authentication cases run in the shared auth table.

type Session = z.infer<typeof checkoutSessionSchema>;
interface ErrorBody {
  error: { code: string; message: string; details?: { path: string; message: string }[] };
}

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const tag = `co${letters(8)}`;
let counter = 0;
const fresh = () => `${tag}d${++counter}.com`;

const PRICE = 25_000;
const buyer = { email: "buyer@example.com", name: "Ada Buyer", country: "DE" };
const card = (number: string, extra: Partial<PayCheckoutInput["card"]> = {}) => ({ number, expMonth: 12, expYear: 2040, cvc: "123", ...extra });
const pt = (checkoutUrl: string) => new URL(checkoutUrl).searchParams.get("pt")!;

let partner: { partnerId: string; credential: TestCredential };
let creds: TestCredential[];
let i = 0;
const cred = () => creds[i++ % creds.length]!;

async function list(price = PRICE) {
  const name = fresh();
  await addDomain(getDb(), { environment: "sandbox", name, priceCents: price });
  return name;
}

const postSession = (body: unknown, credential = cred()) =>
  callRoute<Session>(checkoutRoute.POST, {
    method: "POST",
    url: "/api/partner/v1/checkout-session",
    credential,
    body,
    timestamp: clock.nowSeconds(),
  });

async function session(price = PRICE, extra: Record<string, unknown> = {}) {
  const domain = await list(price);
  const res = await postSession({ domain, ...extra });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { domain, body: res.body, token: pt(res.body.checkout_url) };
}

before(async () => {
  const created = await createTestPartner({ paymentModel: "non_mor", scopes: ["embed", "search"] });
  partner = created;
  creds = [created.credential];
  for (let n = 0; n < 5; n++) creds.push(await addCredential(created.partnerId, "sandbox", ["embed", "search"]));
});

afterEach(() => clock.reset());
after(() => closeDb());

describe("POST /checkout-session", () => {
  it("creates a session for a listed domain with a signed checkout_url valid 7 days", async () => {
    const { domain, body, token } = await session(PRICE, { return_url: "https://partner.example/thanks", buyer_email: "pre@example.com" });
    checkoutSessionSchema.parse(body);
    assert.equal(body.domain, domain);
    assert.equal(body.sale_price_cents, PRICE);
    assert.equal(body.currency, "USD");
    assert.match(body.checkout_session_id, /^cs_/);
    assert.match(body.checkout_url, /\/checkout\?pt=cs_/);
    const ttl = new Date(body.expires_at).getTime() - Date.now();
    assert.ok(Math.abs(ttl - 7 * 86_400_000) < 60_000, `ttl ${ttl}`);
    const claims = verifyCheckoutToken(token);
    assert.equal(claims?.sessionId, body.checkout_session_id);
    assert.equal(claims?.partnerId, partner.partnerId);
    assert.equal(claims?.buyerEmail, "pre@example.com");
    const [row] = await getDb().select().from(checkoutSessions).where(eq(checkoutSessions.id, body.checkout_session_id));
    assert.equal(row?.status, "open");
    assert.equal(row?.returnUrl, "https://partner.example/thanks");
    assert.equal(row?.environment, "sandbox");
  });

  it("validates the body: domain required, URLs absolute http(s), email shape, no unknown fields", async () => {
    for (const [body, path] of [
      [{}, "domain"],
      [{ domain: "x.com", return_url: "/relative" }, "return_url"],
      [{ domain: "x.com", cancel_url: "ftp://x.example/" }, "cancel_url"],
      [{ domain: "x.com", buyer_email: "nope" }, "buyer_email"],
    ] as const) {
      const res = await postSession(body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal((res.body as unknown as ErrorBody).error.details?.[0]?.path, path);
    }
    const extra = await postSession({ domain: "x.com", price: 1 });
    assert.equal(extra.status, 400);
  });

  it("404 for an unlisted domain, 409 for a sold one or one held by another partner's quote", async () => {
    const missing = await postSession({ domain: `${tag}-missing.com` });
    assert.equal(missing.status, 404);
    assert.equal((missing.body as unknown as ErrorBody).error.code, "not_found");

    const { token } = await session();
    const paid = await payCheckoutSession(getDb(), { token, buyer, card: card("4242424242424242") });
    assert.equal(paid.kind, "succeeded");
    const sold = await postSession({ domain: verifyCheckoutToken(token)!.domain });
    assert.equal(sold.status, 409);

    const quoted = await list();
    const other = await createTestPartner({ scopes: ["buy"] });
    await createQuote(getDb(), { partnerId: other.partnerId, environment: "sandbox", domain: quoted });
    const held = await postSession({ domain: quoted });
    assert.equal(held.status, 409);
    assert.equal((held.body as unknown as ErrorBody).error.code, "conflict");
  });

  it("a credential without embed is forbidden; a merchant-of-record partner with embed may create one", async () => {
    const noEmbed = await createTestPartner({ paymentModel: "non_mor", scopes: ["search", "buy"] });
    const domain = await list();
    const refused = await postSession({ domain }, noEmbed.credential);
    assert.equal(refused.status, 403);
    const mor = await createTestPartner({ paymentModel: "mor", scopes: ["embed"] });
    assert.equal((await postSession({ domain }, mor.credential)).status, 201);
  });
});

describe("the pt token", () => {
  it("any change to the token is refused and nothing is charged", async () => {
    const { token, body } = await session();
    const [id, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const cheaper = Buffer.from(JSON.stringify({ ...claims, a: 1 })).toString("base64url");
    for (const bad of [`${id}.${cheaper}.${signature}`, `${token}x`, token.slice(0, -2), "", "cs_x.y.z"]) {
      assert.equal(verifyCheckoutToken(bad), null);
      assert.equal((await getCheckoutView(getDb(), bad)).kind, "invalid");
      assert.equal((await payCheckoutSession(getDb(), { token: bad, buyer, card: card("4242424242424242") })).kind, "invalid");
    }
    const charged = await getDb().select().from(payments).where(eq(payments.checkoutSessionId, body.checkout_session_id));
    assert.equal(charged.length, 0);
    assert.equal((await getCheckoutView(getDb(), token)).kind, "open");
  });

  it("an expired session shows expired and refuses payment", async () => {
    const { token, body } = await session();
    clock.advance(7 * 86_400_000 + 1000);
    assert.equal((await getCheckoutView(getDb(), token)).kind, "expired");
    const outcome = await payCheckoutSession(getDb(), { token, buyer, card: card("4242424242424242") });
    assert.equal(outcome.kind, "expired");
    const charged = await getDb().select().from(payments).where(eq(payments.checkoutSessionId, body.checkout_session_id));
    assert.equal(charged.length, 0);
  });
});

describe("paying a session", () => {
  it("4242 pays: PAID checkout order for the partner, event, accrued commission, domain sold, session completed", async () => {
    const { token, body, domain } = await session(PRICE, { return_url: "https://partner.example/thanks?x=1" });
    const view = await getCheckoutView(getDb(), token);
    assert.equal(view.kind, "open");
    if (view.kind === "open") assert.match(view.partnerName ?? "", /^Test Partner/);

    const outcome = await payCheckoutSession(getDb(), { token, buyer, card: card("4242 4242 4242 4242") });
    assert.equal(outcome.kind, "succeeded");
    if (outcome.kind !== "succeeded") return;
    const { order } = outcome;
    assert.equal(outcome.returnUrl, "https://partner.example/thanks?x=1");
    assert.equal(order.status, "PAID");
    assert.equal(order.channel, "checkout");
    assert.equal(order.partnerId, partner.partnerId);
    assert.equal(order.environment, "sandbox");
    assert.equal(order.salePriceCents, PRICE);
    assert.equal(order.commissionBps, 1000);
    assert.equal(order.commissionCents, 2500);
    assert.equal(order.buyerCountry, "DE");
    assert.equal(order.checkoutSessionId, body.checkout_session_id);

    const db = getDb();
    const [timeline] = await db.select().from(orderTimeline).where(eq(orderTimeline.orderId, order.id));
    assert.equal(timeline?.status, "PAID");
    const paidEvents = await db.select().from(events).where(and(eq(events.partnerId, partner.partnerId), eq(events.type, "order.paid")));
    const event = paidEvents.find((e) => (e.data as { order: { public_id: string } }).order.public_id === order.id);
    assert.ok(event, "order.paid event");
    assert.deepEqual((event.data as { order: unknown }).order, {
      public_id: order.id,
      domain,
      status: "PAID",
      sale_price_cents: PRICE,
      currency: "USD",
    });
    const ledger = await db.select().from(commissionLedger).where(eq(commissionLedger.orderId, order.id));
    assert.equal(ledger.length, 1);
    assert.equal(ledger[0]?.source, "sale");
    assert.equal(ledger[0]?.state, "accrued");
    assert.equal(ledger[0]?.amountCents, 2500);
    assert.equal(ledger[0]?.partnerId, partner.partnerId);
    const [listing] = await db.select().from(domains).where(eq(domains.name, domain));
    assert.equal(listing?.status, "sold");
    const [sessionRow] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, body.checkout_session_id));
    assert.equal(sessionRow?.status, "completed");
    assert.equal(sessionRow?.orderId, order.id);
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, order.id));
    assert.equal(payment?.status, "succeeded");
    assert.equal(payment?.orderId, order.id);
    assert.equal(payment?.amountCents, PRICE);

    const view2 = await getCheckoutView(db, token);
    assert.deepEqual(view2.kind === "paid" ? view2.orderId : null, order.id);

    const listed = await callRoute<{ data: { public_id: string; status: string; channel: string }[] }>(ordersRoute.GET, {
      url: "/api/partner/v1/orders?status=PAID",
      credential: cred(),
      timestamp: clock.nowSeconds(),
    });
    assert.equal(listed.status, 200);
    const found = listed.body.data.find((o) => o.public_id === order.id);
    assert.equal(found?.status, "PAID");
    assert.equal(found?.channel, "checkout");
  });

  for (const [number, code] of [
    ["4000000000000002", "card_declined"],
    ["4000000000009995", "insufficient_funds"],
  ] as const) {
    it(`${number} is declined (${code}): nothing paid, session still open, a good card then pays`, async () => {
      const { token, body, domain } = await session();
      const outcome = await payCheckoutSession(getDb(), { token, buyer, card: card(number) });
      assert.equal(outcome.kind, "declined");
      if (outcome.kind === "declined") assert.equal(outcome.code, code);
      const db = getDb();
      assert.equal((await db.select().from(orders).where(eq(orders.domain, domain))).length, 0);
      const [row] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, body.checkout_session_id));
      assert.equal(row?.status, "open");
      const attempts = await db.select().from(payments).where(eq(payments.checkoutSessionId, body.checkout_session_id));
      assert.deepEqual(attempts.map((p) => [p.status, p.failureCode]), [["declined", code]]);
      assert.equal((await db.select().from(domains).where(eq(domains.name, domain)))[0]?.status, "listed");
      assert.equal((await getCheckoutView(db, token)).kind, "open");
      assert.equal((await payCheckoutSession(db, { token, buyer, card: card("4242424242424242") })).kind, "succeeded");
    });
  }

  it("a refund reverses the partner's sale commission and marks the payment refunded; transfer makes it pending", async () => {
    const db = getDb();
    const ledgerState = async (orderId: string) =>
      (await db.select().from(commissionLedger).where(eq(commissionLedger.orderId, orderId))).map((row) => row.state);

    const refunded = await payCheckoutSession(db, { token: (await session()).token, buyer, card: card("4242424242424242") });
    assert.equal(refunded.kind, "succeeded");
    if (refunded.kind !== "succeeded") return;
    await transitionOrder(db, { orderId: refunded.order.id, action: "refund", actor: { type: "admin" } });
    assert.deepEqual(await ledgerState(refunded.order.id), ["reversed"]);
    const [payment] = await db.select().from(payments).where(eq(payments.orderId, refunded.order.id));
    assert.equal(payment?.status, "refunded");

    const delivered = await payCheckoutSession(db, { token: (await session()).token, buyer, card: card("4242424242424242") });
    assert.equal(delivered.kind, "succeeded");
    if (delivered.kind !== "succeeded") return;
    await transitionOrder(db, { orderId: delivered.order.id, action: "start_transfer", actor: { type: "admin" } });
    await transitionOrder(db, { orderId: delivered.order.id, action: "complete_transfer", actor: { type: "admin" } });
    assert.deepEqual(await ledgerState(delivered.order.id), ["pending"]);
  });

  it("card problems are caught before any charge: Luhn, expired, CVC", async () => {
    const { token, body } = await session();
    const outcome = await payCheckoutSession(getDb(), { token, buyer, card: card("4242424242424241", { expYear: 2020, cvc: "12" }) });
    assert.equal(outcome.kind, "card_invalid");
    if (outcome.kind === "card_invalid") {
      assert.deepEqual(outcome.problems.map((p) => [p.field, p.code]), [
        ["card_number", "incorrect_number"],
        ["card_expiry", "expired_card"],
        ["card_cvc", "invalid_cvc"],
      ]);
    }
    assert.equal((await getDb().select().from(payments).where(eq(payments.checkoutSessionId, body.checkout_session_id))).length, 0);
  });

  it("double submit: two concurrent payments make one charge and one order", async () => {
    const { token, body, domain } = await session();
    const pay = () => payCheckoutSession(getDb(), { token, buyer, card: card("4242424242424242") });
    const results = await Promise.all([pay(), pay(), pay()]);
    // The winner charges; a loser that arrives while the charge is out sees
    // `processing`, one that arrives after it was recorded sees `paid`.
    const kinds = results.map((r) => r.kind);
    assert.equal(kinds.filter((k) => k === "succeeded").length, 1, kinds.join());
    assert.ok(kinds.every((k) => k === "succeeded" || k === "paid" || k === "processing"), kinds.join());
    const db = getDb();
    assert.equal((await db.select().from(orders).where(eq(orders.domain, domain))).length, 1);
    const charged = await db.select().from(payments).where(eq(payments.checkoutSessionId, body.checkout_session_id));
    assert.equal(charged.length, 1);
    const again = await pay();
    assert.equal(again.kind, "paid");
  });

  it("a second submit while the first is with the processor is told processing, and after it, paid", async () => {
    const { token, body } = await session();
    const pay = () => payCheckoutSession(getDb(), { token, buyer, card: card("4242424242424242") });
    let release!: () => void;
    let charged!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const reachedProcessor = new Promise<void>((resolve) => (charged = resolve));
    payHooks.afterCharge = async () => {
      payHooks.afterCharge = undefined;
      charged();
      await held;
    };
    try {
      const first = pay();
      await reachedProcessor;
      assert.equal((await pay()).kind, "processing");
      release();
      assert.equal((await first).kind, "succeeded");
    } finally {
      payHooks.afterCharge = undefined;
      release();
    }
    assert.equal((await pay()).kind, "paid");
    const attempts = await getDb().select().from(payments).where(eq(payments.checkoutSessionId, body.checkout_session_id));
    assert.deepEqual(attempts.map((p) => p.status), ["succeeded"]);
  });

  it("a domain sold elsewhere after the session was created is unavailable, and nothing is charged", async () => {
    const first = await session();
    const second = await postSession({ domain: first.domain });
    assert.equal(second.status, 201);
    assert.equal((await payCheckoutSession(getDb(), { token: first.token, buyer, card: card("4242424242424242") })).kind, "succeeded");
    const token2 = pt(second.body.checkout_url);
    assert.equal((await getCheckoutView(getDb(), token2)).kind, "unavailable");
    assert.equal((await payCheckoutSession(getDb(), { token: token2, buyer, card: card("4242424242424242") })).kind, "unavailable");
    const charged = await getDb().select().from(payments).where(eq(payments.checkoutSessionId, second.body.checkout_session_id));
    assert.equal(charged.length, 0);
  });

  it("a storefront session sells with channel marketplace, no partner and no commission", async () => {
    const domain = await list();
    const created = await createCheckoutSession(getDb(), { partnerId: null, environment: "sandbox", domain });
    const view = await getCheckoutView(getDb(), created.token);
    assert.equal(view.kind === "open" ? view.partnerName : "x", null);
    const outcome = await payCheckoutSession(getDb(), { token: created.token, buyer, card: card("4242424242424242") });
    assert.equal(outcome.kind, "succeeded");
    if (outcome.kind !== "succeeded") return;
    assert.equal(outcome.order.channel, "marketplace");
    assert.equal(outcome.order.partnerId, null);
    assert.equal(outcome.order.commissionCents, 0);
    assert.equal((await getDb().select().from(commissionLedger).where(eq(commissionLedger.orderId, outcome.order.id))).length, 0);
  });

  it("a storefront purchase by a referred visitor becomes a referral sale of the link's partner", async () => {
    const affiliate = await createTestPartner({ paymentModel: "non_mor", scopes: ["refer"], isAffiliate: true });
    const linkId = newId("link");
    await getDb().insert(referralLinks).values({
      id: linkId,
      partnerId: affiliate.partnerId,
      environment: "sandbox",
      code: `c${letters(10)}`,
      type: "generic",
      target: "/domains",
    });
    const domain = await list();
    const visitorId = "A".repeat(22);
    const created = await createCheckoutSession(getDb(), { partnerId: null, environment: "sandbox", domain, referral: { linkId, visitorId } });
    const outcome = await payCheckoutSession(getDb(), { token: created.token, buyer, card: card("4242424242424242") });
    assert.equal(outcome.kind, "succeeded");
    if (outcome.kind !== "succeeded") return;
    assert.equal(outcome.order.referralLinkId, linkId);
    const [sale] = await getDb().select().from(referralSales).where(eq(referralSales.orderId, outcome.order.id));
    assert.equal(sale?.partnerId, affiliate.partnerId);
    const ledger = await getDb().select().from(commissionLedger).where(eq(commissionLedger.orderId, outcome.order.id));
    assert.deepEqual(ledger.map((r) => [r.source, r.state, r.amountCents]), [["referral", "accrued", 2500]]);
  });
});

describe("sandbox payment provider", () => {
  it("is idempotent by key and never charges twice", async () => {
    const key = `test-${letters(10)}`;
    const request = { amountCents: 500, currency: "USD", card: card("4242424242424242"), idempotencyKey: key, description: "t" };
    const first = await sandboxProvider.charge(request);
    const second = await sandboxProvider.charge(request);
    assert.equal(first.status, "succeeded");
    assert.equal(second.providerRef, first.providerRef);
    await assert.rejects(sandboxProvider.charge({ ...request, amountCents: 501 }), /different charge parameters/);
    const refund = await sandboxProvider.refund({ providerRef: first.providerRef, amountCents: 500, idempotencyKey: `${key}-r` });
    assert.equal(refund.status, "succeeded");
    assert.deepEqual(await sandboxProvider.refund({ providerRef: first.providerRef, amountCents: 500, idempotencyKey: `${key}-r` }), refund);
  });

  it("declines unknown cards, validates Luhn/expiry/CVC, and live has no processor without STRIPE_* settings", async () => {
    const unknown = await sandboxProvider.charge({ amountCents: 500, currency: "USD", card: card("4111111111111111"), idempotencyKey: `u-${letters(8)}`, description: "t" });
    assert.equal(unknown.status, "declined");
    assert.equal(unknown.failureCode, "card_declined");
    assert.equal(luhnValid("4242424242424242"), true);
    assert.equal(luhnValid("4242424242424243"), false);
    const now = new Date("2030-06-15T00:00:00Z");
    assert.deepEqual(checkCard(card("4242424242424242", { expMonth: 6, expYear: 2030 }), now), []);
    assert.equal(checkCard(card("4242424242424242", { expMonth: 5, expYear: 2030 }), now)[0]?.code, "expired_card");
    assert.throws(() => getPaymentProvider("live"), /live payments are not configured/);
  });
});
