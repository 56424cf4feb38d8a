import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { checkoutSessions, commissionLedger, orders, payouts, referralClicks, referralSales } from "@/db/schema";
import * as analyticsRoute from "@/app/api/partner/v1/analytics/route";
import * as linksRoute from "@/app/api/partner/v1/links/route";
import * as clicksRoute from "@/app/api/partner/v1/me/clicks/route";
import * as commissionsRoute from "@/app/api/partner/v1/me/commissions/route";
import * as mePayoutsRoute from "@/app/api/partner/v1/me/payouts/route";
import * as salesRoute from "@/app/api/partner/v1/me/sales/route";
import * as redirectRoute from "@/app/r/[code]/route";
import { clock } from "@/server/clock";
import { getEnv } from "@/server/env";
import { newId } from "@/server/ids";
import { addDomain } from "@/server/services/inventory";
import { transitionOrder, type OrderRow } from "@/server/services/order-states";
import { readAttribution, recordReferralSale, signAttribution } from "@/server/services/referrals";
import { runSettlement } from "@/server/services/settlements";
import { createFixtureOrder } from "../helpers/orders";
import { callRoute, createTestPartner, uniqueSuffix, type TestCredential } from "../helpers/partner";

// The referral program against the real database: links, click counting at
// /r/{code}, attribution cookies, the commission ledger moving with the order
// state machine and the settlement run, and the reports. Ledger periods use a
// random past year so settlement runs of other suites and reruns stay apart.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const YEAR = 1981 + randomInt(15);
const at = (month: number, day: number) => new Date(Date.UTC(YEAR, month - 1, day, 12));
const admin = { type: "admin" as const, id: "referrals-test" };
const CHROMIUM_UA =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0.0.0 Safari/537.36";

let affiliateA: { partnerId: string; credential: TestCredential };
let affiliateB: { partnerId: string; credential: TestCredential };
let plain: { partnerId: string; credential: TestCredential };
let seller: { partnerId: string; credential: TestCredential };

const call = (handler: Parameters<typeof callRoute>[0], credential: TestCredential, url: string, body?: unknown) => {
  clock.reset();
  return callRoute<Json>(handler, { method: body === undefined ? "GET" : "POST", url, body, credential });
};

async function createLink(credential: TestCredential, body: Json) {
  return call(linksRoute.POST, credential, "/api/partner/v1/links", body);
}

/** Follows /r/{code} like a browser would; returns status, location, the cookie value and attributes. */
async function follow(code: string, options: { cookie?: string; userAgent?: string | null } = {}) {
  // Each follow from its own address: the per-address click limit has its own test.
  const headers = new Headers({ "x-client-ip": `10.1.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}` });
  if (options.userAgent !== null) headers.set("user-agent", options.userAgent ?? CHROMIUM_UA);
  if (options.cookie) headers.set("cookie", `other=1; pdm_ref=${options.cookie}`);
  const response = await redirectRoute.GET(new Request(`http://localhost:3000/r/${code}`, { headers }), {
    params: Promise.resolve({ code }),
  });
  const setCookie = response.headers.get("set-cookie") ?? "";
  return {
    status: response.status,
    location: response.headers.get("location"),
    setCookie,
    cookie: /^pdm_ref=([^;]+)/.exec(setCookie)?.[1],
    body: await response.text(),
  };
}

const codeOf = (url: string) => url.split("/r/")[1] ?? "";

before(async () => {
  affiliateA = await createTestPartner({ isAffiliate: true });
  affiliateB = await createTestPartner({ isAffiliate: true });
  plain = await createTestPartner({ isAffiliate: false });
  seller = await createTestPartner({ paymentModel: "non_mor" });
});

after(async () => {
  clock.reset();
  await closeDb();
});

describe("affiliate gate", () => {
  for (const [name, handler, url, body] of [
    ["POST /links", linksRoute.POST, "/api/partner/v1/links", { type: "generic" }],
    ["GET /links", linksRoute.GET, "/api/partner/v1/links", undefined],
    ["GET /me/sales", salesRoute.GET, "/api/partner/v1/me/sales", undefined],
    ["GET /me/commissions", commissionsRoute.GET, "/api/partner/v1/me/commissions", undefined],
    ["GET /analytics", analyticsRoute.GET, "/api/partner/v1/analytics", undefined],
  ] as const) {
    it(`${name}: a partner without an affiliate account gets 403 forbidden saying why`, async () => {
      const res = await call(handler, plain.credential, url, body);
      assert.equal(res.status, 403);
      assert.equal(res.body.error.code, "forbidden");
      assert.match(res.body.error.message, /needs? an affiliate account/);
    });
  }
});

describe("POST /links", () => {
  it("creates a generic link: url on APP_URL with a 10-character base62 code, target /domains", async () => {
    const res = await createLink(affiliateA.credential, { type: "generic", label: "Newsletter" });
    assert.equal(res.status, 201);
    assert.match(res.body.id, /^lnk_/);
    assert.match(res.body.url, new RegExp(`^${getEnv().APP_URL.replace(/[.]/g, "\\.")}/r/[0-9A-Za-z]{10}$`));
    assert.equal(res.body.target, "/domains");
    assert.equal(res.body.label, "Newsletter");
    assert.ok(res.body.created_at);
  });

  it("a domain link needs a domain listed in the credential's environment", async () => {
    const name = `ref-${uniqueSuffix()}.com`;
    await addDomain(getDb(), { environment: "sandbox", name, priceCents: 50_000 });
    const ok = await createLink(affiliateA.credential, { type: "domain", domain: name.toUpperCase() });
    assert.equal(ok.status, 201);
    assert.equal(ok.body.target, `/domains/${name}`);
    assert.equal(ok.body.domain, name);

    const unlisted = await createLink(affiliateA.credential, { type: "domain", domain: `nope-${uniqueSuffix()}.com` });
    assert.equal(unlisted.status, 400);
    assert.equal(unlisted.body.error.details[0].path, "domain");

    const live = `ref-live-${uniqueSuffix()}.com`;
    await addDomain(getDb(), { environment: "live", name: live, priceCents: 50_000 });
    const otherEnv = await createLink(affiliateA.credential, { type: "domain", domain: live });
    assert.equal(otherEnv.status, 400, "a live listing is not linkable with a sandbox key");
  });

  it("validates the type-specific fields", async () => {
    const cases: [Json, string][] = [
      [{ type: "domain" }, "domain"],
      [{ type: "product" }, "product"],
      [{ type: "product", product: "lottery" }, "product"],
      [{ type: "generic", domain: "example.com" }, "domain"],
      [{ type: "banner" }, "type"],
      [{ type: "generic", extra: 1 }, ""],
    ];
    for (const [body, path] of cases) {
      const res = await createLink(affiliateA.credential, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, "validation_error");
      if (path) assert.ok(res.body.error.details.some((d: Json) => d.path === path), JSON.stringify(res.body.error.details));
    }
  });

  it("product links point at the product page", async () => {
    const brokerage = await createLink(affiliateA.credential, { type: "product", product: "brokerage" });
    assert.equal(brokerage.body.target, "/brokerage");
    const marketplace = await createLink(affiliateA.credential, { type: "product", product: "marketplace" });
    assert.equal(marketplace.body.target, "/domains");
  });
});

describe("GET /r/{code}, clicks and attribution", () => {
  let link: Json;
  let visitorCookie: string;

  before(async () => {
    link = (await createLink(affiliateA.credential, { type: "generic", label: "clicks" })).body;
  });

  it("an unknown code is a 404 page", async () => {
    const res = await follow("ZZZZZZZZZZ");
    assert.equal(res.status, 404);
    assert.match(res.body, /Link not found/);
    assert.equal(res.setCookie, "");
    assert.equal((await follow("../etc")).status, 404);
  });

  it("counts the click, sets the signed 30-day cookie and redirects to the target", async () => {
    clock.reset();
    const res = await follow(codeOf(link.url));
    assert.equal(res.status, 302);
    assert.equal(res.location, "/domains");
    assert.match(res.setCookie, /; Path=\/; Max-Age=2592000; HttpOnly; SameSite=Lax/);
    assert.equal(/Secure/.test(res.setCookie), getEnv().APP_URL.startsWith("https:"));
    const attribution = readAttribution(res.cookie);
    assert.equal(attribution?.linkId, link.id);
    visitorCookie = res.cookie!;
  });

  it("dedupes the same visitor within a UTC day, counts them again the next day", async () => {
    await follow(codeOf(link.url), { cookie: visitorCookie });
    await follow(codeOf(link.url), { cookie: visitorCookie });
    let clicks = await call(clicksRoute.GET, affiliateA.credential, "/api/partner/v1/me/clicks");
    assert.equal(clicks.body.clicks, 1);

    clock.advance(86_400_000);
    const nextDay = await follow(codeOf(link.url), { cookie: visitorCookie });
    assert.equal(readAttribution(nextDay.cookie)?.visitorId, readAttribution(visitorCookie)?.visitorId, "the visitor keeps their id");
    clicks = await call(clicksRoute.GET, affiliateA.credential, "/api/partner/v1/me/clicks?interval=day");
    assert.equal(clicks.body.clicks, 2);
    assert.equal(clicks.body.series.length, 2);
    assert.deepEqual(
      clicks.body.series.map((s: Json) => s.clicks),
      [1, 1],
    );
  });

  it("a new visitor (no cookie, or a tampered one) is a new click", async () => {
    await follow(codeOf(link.url));
    const [linkId, visitorId, mac] = visitorCookie.split(".");
    const forged = `${linkId}.${"A".repeat(22)}.${mac}`;
    assert.equal(readAttribution(forged), null);
    const res = await follow(codeOf(link.url), { cookie: forged });
    assert.notEqual(readAttribution(res.cookie)?.visitorId, visitorId);
    const clicks = await call(clicksRoute.GET, affiliateA.credential, "/api/partner/v1/me/clicks");
    assert.equal(clicks.body.clicks, 4);
  });

  it("bots are recorded but never counted; headless Chromium counts as a person", async () => {
    for (const ua of ["curl/8.5.0", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Wget/1.21", null]) {
      const res = await follow(codeOf(link.url), { userAgent: ua });
      assert.equal(res.status, 302, "bots are still redirected");
    }
    const rows = await getDb().select().from(referralClicks).where(eq(referralClicks.linkId, link.id));
    assert.equal(rows.filter((r) => r.isBot).length, 4);
    const clicks = await call(clicksRoute.GET, affiliateA.credential, "/api/partner/v1/me/clicks");
    assert.equal(clicks.body.clicks, 4);
    assert.equal(clicks.body.bot_clicks, 4);
    const listed = await call(linksRoute.GET, affiliateA.credential, "/api/partner/v1/links?limit=100");
    assert.equal(listed.body.data.find((l: Json) => l.id === link.id).clicks, 4);
  });

  it("cookie signatures: any change to link, visitor or MAC is no attribution", () => {
    const good = signAttribution("lnk_0000000000000000000000", "B".repeat(22));
    assert.deepEqual(readAttribution(good), { linkId: "lnk_0000000000000000000000", visitorId: "B".repeat(22) });
    const [l, v, m] = good.split(".") as [string, string, string];
    for (const bad of [
      `lnk_0000000000000000000001.${v}.${m}`,
      `${l}.${"C".repeat(22)}.${m}`,
      // A different last hex digit (appending "0" would change nothing when the MAC already ends in 0).
      `${l}.${v}.${m.slice(0, -1)}${m.endsWith("0") ? "1" : "0"}`,
      `${l}.${v}`,
      `${good}.x`,
      "",
      undefined,
    ]) {
      assert.equal(readAttribution(bad), null, String(bad));
    }
  });
});

describe("ledger: referral sale -> accrued -> pending -> paid_out, or reversed", () => {
  let link: Json;
  let sold: OrderRow;
  let refunded: OrderRow;
  let open: OrderRow;

  async function attributedOrder(priceCents: number, createdAt: Date) {
    const order = await createFixtureOrder({ partnerId: seller.partnerId, channel: "checkout", priceCents, createdAt });
    clock.freeze(createdAt);
    await getDb().transaction((tx) => recordReferralSale(tx, { order, linkId: link.id, visitorId: "V".repeat(22) }));
    return order;
  }

  const ledgerOf = async (orderId: string) =>
    getDb()
      .select()
      .from(commissionLedger)
      .where(and(eq(commissionLedger.orderId, orderId), eq(commissionLedger.source, "referral")));

  before(async () => {
    link = (await createLink(affiliateA.credential, { type: "generic", label: "ledger" })).body;
  });

  it("recordReferralSale writes the sale and an accrued commission at the partner's rate, once", async () => {
    sold = await attributedOrder(123_45, at(3, 2));
    const [sale] = await getDb().select().from(referralSales).where(eq(referralSales.orderId, sold.id));
    assert.equal(sale?.partnerId, affiliateA.partnerId);
    assert.equal(sale?.commissionCents, 12_35, "10 % of 123.45, halves up");
    assert.equal(sale?.buyerEmail, sold.buyerEmail);
    const [entry] = await ledgerOf(sold.id);
    assert.equal(entry?.state, "accrued");
    assert.equal(entry?.amountCents, 12_35);
    assert.equal(entry?.partnerId, affiliateA.partnerId);
    const [order] = await getDb().select().from(orders).where(eq(orders.id, sold.id));
    assert.equal(order?.referralLinkId, link.id);

    await getDb().transaction((tx) => recordReferralSale(tx, { order: sold, linkId: link.id, visitorId: "V".repeat(22) }));
    assert.equal((await ledgerOf(sold.id)).length, 1, "a second call for the same order is a no-op");
  });

  it("no commission on one's own sale, on another environment's link, or on an unknown link", async () => {
    const own = await createFixtureOrder({ partnerId: affiliateA.partnerId, priceCents: 10_000 });
    await getDb().transaction((tx) => recordReferralSale(tx, { order: own, linkId: link.id, visitorId: "V".repeat(22) }));
    assert.equal((await ledgerOf(own.id)).length, 0);
    const live = await createFixtureOrder({ partnerId: seller.partnerId, channel: "checkout", priceCents: 10_000, environment: "live" });
    await getDb().transaction((tx) => recordReferralSale(tx, { order: live, linkId: link.id, visitorId: "V".repeat(22) }));
    assert.equal((await ledgerOf(live.id)).length, 0);
    await getDb().transaction((tx) => recordReferralSale(tx, { order: live, linkId: "lnk_0000000000000000000000", visitorId: "V".repeat(22) }));
    assert.equal((await ledgerOf(live.id)).length, 0);
  });

  it("transfer completion makes it pending; refund and cancel reverse it", async () => {
    refunded = await attributedOrder(20_000, at(3, 3));
    open = await attributedOrder(5_000, at(3, 4));
    clock.freeze(at(3, 10));
    await transitionOrder(getDb(), { orderId: sold.id, action: "start_transfer", actor: admin });
    assert.equal((await ledgerOf(sold.id))[0]?.state, "accrued", "transfer started is not yet pending");
    await transitionOrder(getDb(), { orderId: sold.id, action: "complete_transfer", actor: admin });
    assert.equal((await ledgerOf(sold.id))[0]?.state, "pending");
    await transitionOrder(getDb(), { orderId: refunded.id, action: "refund", actor: admin });
    assert.equal((await ledgerOf(refunded.id))[0]?.state, "reversed");
    assert.equal((await ledgerOf(open.id))[0]?.state, "accrued");
  });

  it("the settlement run pays pending referral commission once, as a payout of kind referral", async () => {
    clock.freeze(at(4, 2));
    const first = await runSettlement(getDb(), { asOf: at(4, 2) });
    const mine = first.referralPayouts.filter((p) => p.partnerId === affiliateA.partnerId);
    assert.equal(mine.length, 1);
    assert.equal(mine[0]?.amountCents, 12_35);
    assert.equal(mine[0]?.periodStart, `${YEAR}-03-01`);
    const [entry] = await ledgerOf(sold.id);
    assert.equal(entry?.state, "paid_out");
    assert.equal(entry?.payoutId, mine[0]?.payoutId);
    const [payout] = await getDb().select().from(payouts).where(eq(payouts.id, entry!.payoutId!));
    assert.equal(payout?.kind, "referral");
    assert.equal(payout?.partnerId, affiliateA.partnerId);

    const again = await runSettlement(getDb(), { asOf: at(4, 2) });
    assert.equal(again.referralPayouts.filter((p) => p.partnerId === affiliateA.partnerId).length, 0, "paid once");
    clock.reset();
  });

  it("GET /me/commissions: states, running balance and totals", async () => {
    const res = await call(commissionsRoute.GET, affiliateA.credential, `/api/partner/v1/me/commissions?from=${YEAR}-01-01&to=${YEAR + 1}-01-01`);
    assert.equal(res.status, 200);
    const rows = res.body.data as Json[];
    assert.deepEqual(
      rows.map((r) => [r.order_id, r.state, r.amount_cents]),
      [
        [open.id, "accrued", 5_00],
        [refunded.id, "reversed", 20_00],
        [sold.id, "paid_out", 12_35],
      ],
    );
    // Oldest first: paid_out adds nothing, reversed adds nothing, accrued adds 500.
    assert.deepEqual(
      rows.map((r) => r.balance_cents),
      [5_00, 0, 0],
    );
    assert.deepEqual(res.body.totals, [{ currency: "USD", accrued_cents: 5_00, pending_cents: 0, paid_out_cents: 12_35, reversed_cents: 20_00 }]);

    const paged = await call(commissionsRoute.GET, affiliateA.credential, `/api/partner/v1/me/commissions?limit=2&from=${YEAR}-01-01&to=${YEAR + 1}-01-01`);
    assert.equal(paged.body.data.length, 2);
    const rest = await call(
      commissionsRoute.GET,
      affiliateA.credential,
      `/api/partner/v1/me/commissions?limit=2&from=${YEAR}-01-01&to=${YEAR + 1}-01-01&cursor=${paged.body.next_cursor}`,
    );
    assert.deepEqual(
      rest.body.data.map((r: Json) => r.id),
      [rows[2]!.id],
    );
    assert.equal(rest.body.next_cursor, null);
  });

  it("GET /me/sales lists the attributed sales with buyer, status and commission state", async () => {
    const res = await call(salesRoute.GET, affiliateA.credential, `/api/partner/v1/me/sales?from=${YEAR}-01-01&to=${YEAR + 1}-01-01`);
    assert.equal(res.status, 200);
    const byOrder = new Map((res.body.data as Json[]).map((s) => [s.order_id, s]));
    assert.equal(byOrder.size, 3);
    assert.equal(byOrder.get(sold.id)?.order_status, "SETTLED");
    assert.equal(byOrder.get(sold.id)?.commission_state, "paid_out");
    assert.equal(byOrder.get(sold.id)?.buyer_email, sold.buyerEmail);
    assert.equal(byOrder.get(refunded.id)?.order_status, "REFUNDED");
    assert.equal(byOrder.get(open.id)?.amount_cents, 5_000);
  });

  it("GET /me/payouts shows the referral payout and the total paid", async () => {
    const res = await call(mePayoutsRoute.GET, affiliateA.credential, "/api/partner/v1/me/payouts");
    assert.equal(res.status, 200);
    assert.equal(res.body.data.length, 1);
    assert.equal(res.body.data[0].kind, "referral");
    assert.deepEqual(res.body.total_paid, [{ currency: "USD", amount_cents: 12_35 }]);
  });

  it("GET /analytics: funnel clicks -> checkouts -> sales, GMV and commission", async () => {
    clock.reset();
    // Two human clicks today, one checkout started, inside a window around the sales' year and today.
    await follow(codeOf(link.url));
    await follow(codeOf(link.url));
    const [domain] = await getDb().select().from(orders).where(eq(orders.id, open.id));
    await getDb()
      .insert(checkoutSessions)
      .values({
        id: newId("checkoutSession"),
        referralLinkId: link.id,
        environment: "sandbox",
        domainId: domain!.domainId,
        domain: domain!.domain,
        salePriceCents: 5_000,
        expiresAt: new Date(Date.now() + 3_600_000),
      });
    const res = await call(analyticsRoute.GET, affiliateA.credential, `/api/partner/v1/analytics?from=${YEAR}-01-01&to=2100-01-01`);
    assert.equal(res.status, 200);
    // Clicks of every affiliate-A link in the window: 4 (clicks suite) + 2.
    assert.equal(res.body.clicks, 6);
    assert.equal(res.body.checkouts, 1);
    assert.equal(res.body.sales, 2);
    assert.equal(res.body.reversed_sales, 1);
    assert.equal(res.body.conversion_rate, 0.3333);
    assert.deepEqual(res.body.revenue, [{ currency: "USD", gmv_cents: 123_45 + 5_000, commission_cents: 12_35 + 5_00 }]);

    const links = await call(linksRoute.GET, affiliateA.credential, "/api/partner/v1/links?limit=100");
    const mine = (links.body.data as Json[]).find((l) => l.id === link.id)!;
    assert.equal(mine.clicks, 2);
    assert.equal(mine.checkouts, 1);
    assert.equal(mine.conversions, 2);
    assert.deepEqual(mine.revenue, [{ currency: "USD", gmv_cents: 173_45, commission_cents: 17_35 }]);

    const empty = await call(analyticsRoute.GET, affiliateA.credential, "/api/partner/v1/analytics?from=2020-01-02&to=2020-01-01");
    assert.equal(empty.status, 400, "to before from");
  });

  it("BOLA: another affiliate never sees A's links, clicks, sales, commissions or payouts", async () => {
    const b = affiliateB.credential;
    const links = await call(linksRoute.GET, b, "/api/partner/v1/links?limit=100");
    assert.equal(links.body.data.length, 0);
    assert.equal((await call(clicksRoute.GET, b, "/api/partner/v1/me/clicks")).body.clicks, 0);
    assert.equal((await call(salesRoute.GET, b, "/api/partner/v1/me/sales?limit=100")).body.data.length, 0);
    const commissions = await call(commissionsRoute.GET, b, "/api/partner/v1/me/commissions?limit=100");
    assert.equal(commissions.body.data.length, 0);
    assert.deepEqual(commissions.body.totals, []);
    assert.equal((await call(mePayoutsRoute.GET, b, "/api/partner/v1/me/payouts")).body.data.length, 0);
    const analytics = await call(analyticsRoute.GET, b, "/api/partner/v1/analytics?from=1980-01-01&to=2100-01-01");
    assert.deepEqual([analytics.body.clicks, analytics.body.checkouts, analytics.body.sales], [0, 0, 0]);
  });
});
