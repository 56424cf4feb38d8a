import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { checkoutSessions, referralClicks, requestLog, users, webhookDeliveries, webhookEndpoints, type Environment } from "@/db/schema";
import * as analyticsRoute from "@/app/api/partner/v1/analytics/route";
import * as linksRoute from "@/app/api/partner/v1/links/route";
import * as commissionsRoute from "@/app/api/partner/v1/me/commissions/route";
import * as payoutsRoute from "@/app/api/partner/v1/payouts/route";
import * as settlementsRoute from "@/app/api/partner/v1/settlements/route";
import * as transactionsRoute from "@/app/api/partner/v1/transactions/route";
import type { SessionUser } from "@/server/auth/session";
import { clock } from "@/server/clock";
import { newId } from "@/server/ids";
import { recordEvent } from "@/server/services/events";
import { transitionOrder, type OrderRow } from "@/server/services/order-states";
import { homeWindows, percentChange, pointsChange } from "@/server/services/partner-home";
import { recordReferralSale } from "@/server/services/referrals";
import { runSettlement } from "@/server/services/settlements";
import { createCaller } from "@/server/trpc/routers/_app";
import { createFixtureOrder, refundFixtureOrder } from "../helpers/orders";
import { callRoute, createTestPartner, type TestCredential } from "../helpers/partner";
import { isCode } from "../helpers/trpc";

// The dashboard's home figures and Finance area against the real database and
// the REST reports: the home's GMV, orders and commission equal GET
// /transactions totals and GET /analytics revenue to the cent, the sparklines
// and chart buckets add up to them, the Finance lists are the REST lists, and
// nobody else sees any of it. Dates are in a random past year, so settlement
// runs of other suites and reruns on one database stay apart.

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// After 1970 (ids carry the creation time) and before the years of the referral (1981+) and settlement (2001+) suites.
const YEAR = 1971 + randomInt(10);
const at = (month: number, day: number, hour = 12) => new Date(Date.UTC(YEAR, month - 1, day, hour));
const ymd = (month: number, day: number) => `${YEAR}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
/** "Today" for the home: 30d is May 17 .. June 15, the previous 30d April 17 .. May 16. */
const NOW = at(6, 15, 18);
const admin = { type: "admin" as const, id: "finance-dashboard-test" };

interface Partner {
  partnerId: string;
  credential: TestCredential;
}
let a: Partner; // MoR and affiliate: the one with data
let b: Partner; // another MoR partner
let seller: Partner; // non-MoR, whose storefront-like sales A's link refers
const placed: Record<string, OrderRow> = {};

async function userOf(partnerId: string): Promise<SessionUser> {
  const [row] = await getDb().select().from(users).where(eq(users.partnerId, partnerId));
  assert.ok(row);
  return { id: row.id, email: row.email, name: row.name, role: "partner", partnerId, partnerRole: "viewer" };
}

async function callerFor(partnerId: string, environment: Environment = "sandbox") {
  return createCaller({ db: getDb(), user: await userOf(partnerId), environment });
}

/** Home figures as of NOW (the clock is frozen only for this call). */
async function homeFigures(partnerId: string, period: "7d" | "30d" | "90d" = "30d", environment: Environment = "sandbox") {
  const caller = await callerFor(partnerId, environment);
  clock.freeze(NOW);
  try {
    return await caller.home.figures({ period });
  } finally {
    clock.reset();
  }
}

function rest(handler: Parameters<typeof callRoute>[0], credential: TestCredential, url: string) {
  clock.reset(); // signatures are checked against the real time
  return callRoute<Json>(handler, { url, credential });
}

const sum = (values: (number | null)[]) => values.reduce<number>((n, v) => n + (v ?? 0), 0);

async function attributed(linkId: string, priceCents: number, createdAt: Date) {
  const order = await createFixtureOrder({ partnerId: seller.partnerId, channel: "checkout", priceCents, createdAt });
  clock.freeze(createdAt);
  await getDb().transaction((tx) => recordReferralSale(tx, { order, linkId, visitorId: "F".repeat(22) }));
  clock.reset();
  return order;
}

async function session(partnerId: string, order: OrderRow, createdAt: Date, paid: boolean) {
  await getDb()
    .insert(checkoutSessions)
    .values({
      id: newId("checkoutSession", createdAt.getTime()),
      partnerId,
      environment: "sandbox",
      domainId: order.domainId,
      domain: order.domain,
      salePriceCents: order.salePriceCents,
      status: paid ? "completed" : "open",
      orderId: paid ? order.id : null,
      expiresAt: new Date(createdAt.getTime() + 7 * 86_400_000),
      createdAt,
    });
}

async function deliveries(partnerId: string, endpointId: string, createdAt: Date, statuses: ("succeeded" | "failed" | "pending")[]) {
  clock.freeze(createdAt);
  for (const status of statuses) {
    const event = await recordEvent(getDb(), { partnerId, environment: "sandbox", type: "order.paid", data: { test: true } });
    await getDb()
      .insert(webhookDeliveries)
      .values({ id: newId("webhookDelivery", createdAt.getTime()), eventId: event.id, endpointId, status, attemptCount: 1, createdAt, updatedAt: createdAt });
  }
  clock.reset();
}

async function requests(partnerId: string, keyId: string, createdAt: Date, statuses: number[]) {
  await getDb()
    .insert(requestLog)
    .values(
      statuses.map((status, i) => ({
        requestId: `req_finance_${i}_${createdAt.getTime()}`,
        partnerId,
        environment: "sandbox" as const,
        keyId,
        method: "GET",
        path: "/api/partner/v1/transactions",
        status,
        errorCode: status >= 400 ? "not_found" : null,
        latencyMs: 5,
        clientIp: null,
        createdAt,
      })),
    );
}

before(async () => {
  a = await createTestPartner({ paymentModel: "mor", isAffiliate: true });
  b = await createTestPartner({ paymentModel: "mor" });
  seller = await createTestPartner({ paymentModel: "non_mor" });
  const place = async (key: string, input: Parameters<typeof createFixtureOrder>[0]) => {
    placed[key] = await createFixtureOrder(input);
    clock.reset();
  };

  // This period (May 17 .. June 15).
  await place("usd1", { partnerId: a.partnerId, priceCents: 12_345, createdAt: at(6, 1) }); // commission 1234.5 -> 1235
  await place("usd2", { partnerId: a.partnerId, priceCents: 9_999, createdAt: at(6, 10), completedAt: at(6, 11) }); // 999.9 -> 1000
  await place("checkout", { partnerId: a.partnerId, channel: "checkout", priceCents: 8_001, createdAt: at(6, 15, 9), completedAt: at(6, 15, 10) }); // 800.1 -> 800
  await place("eur", { partnerId: a.partnerId, priceCents: 5_000, currency: "EUR", createdAt: at(6, 5) });
  await place("refunded", { partnerId: a.partnerId, priceCents: 3_000, createdAt: at(6, 2) });
  placed.refunded = await refundFixtureOrder(placed.refunded!.id);
  clock.reset();
  await place("firstDay", { partnerId: a.partnerId, priceCents: 101, createdAt: new Date(Date.UTC(YEAR, 4, 17)) }); // the first instant of the period
  // The previous period (April 17 .. May 16), and its last millisecond.
  await place("before", { partnerId: a.partnerId, priceCents: 10_000, createdAt: at(5, 1) });
  await place("lastMsBefore", { partnerId: a.partnerId, priceCents: 200, createdAt: new Date(Date.UTC(YEAR, 4, 17) - 1) });
  // Elsewhere: A's live environment, another partner.
  await place("live", { partnerId: a.partnerId, environment: "live", priceCents: 777, createdAt: at(6, 3) });
  await place("otherPartner", { partnerId: b.partnerId, priceCents: 50_000, createdAt: at(6, 3) });

  // Referral: A's link refers two of the seller's sales this period (one refunded) and one before.
  const link = await callRoute<Json>(linksRoute.POST, { method: "POST", url: "/api/partner/v1/links", credential: a.credential, body: { type: "generic" } });
  assert.equal(link.status, 201);
  const linkId = link.body.id as string;
  placed.referred = await attributed(linkId, 20_000, at(6, 12)); // commission 2000
  const reversed = await attributed(linkId, 7_000, at(6, 13));
  await transitionOrder(getDb(), { orderId: reversed.id, action: "refund", actor: admin });
  await attributed(linkId, 4_000, at(5, 2)); // previous period: 400
  await getDb()
    .insert(referralClicks)
    .values(
      [at(6, 11), at(6, 12), at(6, 12, 13)].map((createdAt, i) => ({
        linkId,
        visitorHash: `visitor-${i}`,
        day: createdAt.toISOString().slice(0, 10),
        createdAt,
      })),
    );

  // Hosted checkout links of A: 1 of 3 paid this period, 1 of 1 before.
  await session(a.partnerId, placed.checkout!, at(6, 14), true);
  await session(a.partnerId, placed.usd1!, at(6, 14), false);
  await session(a.partnerId, placed.usd2!, at(6, 1), false);
  await session(a.partnerId, placed.before!, at(5, 1), true);
  await session(b.partnerId, placed.otherPartner!, at(6, 3), true);

  // Webhook deliveries: 3 succeeded and 1 failed this period (1 pending, not counted), 1 of 2 before.
  // An endpoint row (no DNS here), turned off so that no worker delivers this suite's events.
  const [endpoint] = await getDb()
    .insert(webhookEndpoints)
    .values({
      id: newId("webhookEndpoint"),
      partnerId: a.partnerId,
      environment: "sandbox",
      url: "https://hooks.example/finance",
      secretSealed: "not-used-here",
      active: false,
      disabledReason: "partner",
    })
    .returning();
  assert.ok(endpoint);
  await deliveries(a.partnerId, endpoint.id, at(6, 3), ["succeeded", "succeeded", "failed"]);
  await deliveries(a.partnerId, endpoint.id, at(6, 9), ["succeeded", "pending"]);
  await deliveries(a.partnerId, endpoint.id, at(5, 9), ["succeeded", "failed"]);

  // Request log: 2 errors in 5 this period (one a 500), 1 in 4 before.
  await requests(a.partnerId, a.credential.keyId, at(6, 4), [200, 200, 404, 500]);
  await requests(a.partnerId, a.credential.keyId, at(6, 8), [201]);
  await requests(a.partnerId, a.credential.keyId, at(5, 4), [200, 200, 200, 400]);
  await requests(b.partnerId, b.credential.keyId, at(6, 4), [500, 500]);
});

after(async () => {
  clock.reset();
  await closeDb();
});

describe("home figures", () => {
  it("the period is N whole UTC days ending today; the previous one the N days before", () => {
    const { current, previous } = homeWindows("30d", NOW);
    assert.equal(current.from.toISOString(), `${ymd(5, 17)}T00:00:00.000Z`);
    assert.equal(current.to.toISOString(), `${ymd(6, 16)}T00:00:00.000Z`);
    assert.equal(previous.from.toISOString(), `${ymd(4, 17)}T00:00:00.000Z`);
    assert.equal(previous.to.toISOString(), current.from.toISOString());
    const week = homeWindows("7d", NOW);
    assert.equal(week.current.from.toISOString(), `${ymd(6, 9)}T00:00:00.000Z`);
  });

  it("GMV, orders and commission equal GET /transactions totals and GET /analytics revenue to the cent", async () => {
    const home = await homeFigures(a.partnerId);
    assert.equal(home.currency, "USD");
    for (const [from, to, figure] of [
      [home.from, home.to, "current"],
      [home.previousFrom, home.previousTo, "previous"],
    ] as const) {
      const query = `from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`;
      const transactions = await rest(transactionsRoute.GET, a.credential, `/api/partner/v1/transactions?limit=1&${query}`);
      const analytics = await rest(analyticsRoute.GET, a.credential, `/api/partner/v1/analytics?${query}`);
      assert.equal(transactions.status, 200);
      assert.equal(analytics.status, 200);
      const totals = new Map((transactions.body.totals as Json[]).map((t) => [t.currency, t]));
      const referral = new Map((analytics.body.revenue as Json[]).map((r) => [r.currency, r]));
      const pick = figure === "current" ? ("cents" as const) : ("previousCents" as const);
      for (const entry of home.gmv.byCurrency) assert.equal(entry[pick], totals.get(entry.currency)?.gmv_cents ?? 0, `${figure} GMV ${entry.currency}`);
      for (const entry of home.commission.byCurrency) {
        const expected = (totals.get(entry.currency)?.commission_cents ?? 0) + (referral.get(entry.currency)?.commission_cents ?? 0);
        assert.equal(entry[pick], expected, `${figure} commission ${entry.currency}`);
      }
      const count = (transactions.body.totals as Json[]).reduce((n, t) => n + (t.count as number), 0);
      assert.equal(figure === "current" ? home.orders.value : home.orders.previous, count, `${figure} orders`);
      if (figure === "current") {
        assert.equal(home.commission.salesCents, totals.get("USD")?.commission_cents);
        assert.equal(home.commission.referralCents, referral.get("USD")?.commission_cents);
      }
    }
    // And the figures themselves, worked out by hand.
    assert.equal(home.gmv.value, 12_345 + 9_999 + 8_001 + 101, "refunded, EUR, live and another partner's sales are not in USD GMV");
    assert.deepEqual(home.gmv.byCurrency, [
      { currency: "EUR", cents: 5_000, previousCents: 0 },
      { currency: "USD", cents: 30_446, previousCents: 10_200 },
    ]);
    assert.equal(home.orders.value, 6, "every status counts, refunded included; both currencies");
    assert.equal(home.commission.salesCents, 1235 + 1000 + 800 + 10);
    assert.equal(home.commission.referralCents, 2_000, "the reversed referral sale is not counted");
    assert.equal(home.commission.value, 3045 + 2000);
    assert.equal(home.commission.previous, 1000 + 20 + 400);
  });

  it("conversion, webhook success and API error rate, with changes against the previous period", async () => {
    const home = await homeFigures(a.partnerId);
    assert.deepEqual(
      { created: home.checkoutConversion.created, paid: home.checkoutConversion.paid, value: home.checkoutConversion.value, previous: home.checkoutConversion.previous },
      { created: 3, paid: 1, value: 1 / 3, previous: 1 },
    );
    assert.deepEqual(home.checkoutConversion.change, { kind: "points", value: -66.7 });
    assert.deepEqual(
      { succeeded: home.webhookSuccess.succeeded, failed: home.webhookSuccess.failed, pending: home.webhookSuccess.pending, value: home.webhookSuccess.value },
      { succeeded: 3, failed: 1, pending: 1, value: 0.75 },
    );
    assert.deepEqual(home.webhookSuccess.change, { kind: "points", value: 25 });
    assert.deepEqual(
      { total: home.apiErrors.total, errors: home.apiErrors.errors, serverErrors: home.apiErrors.serverErrors, value: home.apiErrors.value },
      { total: 5, errors: 2, serverErrors: 1, value: 0.4 },
    );
    assert.deepEqual(home.apiErrors.change, { kind: "points", value: 15 });
    assert.deepEqual(home.gmv.change, percentChange(30_446, 10_200));
    assert.deepEqual(home.gmv.change, { kind: "percent", value: 198.5 });
    assert.deepEqual(home.orders.change, { kind: "percent", value: 200 }, "6 orders against 2");
    assert.equal(percentChange(5, 0), null, "no change against nothing");
    assert.equal(pointsChange(0.5, null), null);
  });

  it("the daily sparklines cover every day of the period and add up to the totals", async () => {
    const home = await homeFigures(a.partnerId);
    assert.equal(home.dates.length, 30);
    assert.equal(home.dates[0], ymd(5, 17));
    assert.equal(home.dates.at(-1), ymd(6, 15));
    for (const figure of [home.gmv, home.orders, home.commission, home.checkoutConversion, home.webhookSuccess, home.apiErrors]) assert.equal(figure.series.length, 30);
    assert.equal(sum(home.gmv.series), home.gmv.value);
    assert.equal(sum(home.orders.series), home.orders.value);
    assert.equal(sum(home.commission.series), home.commission.value);
    const day = (date: string) => home.dates.indexOf(date);
    assert.equal(home.gmv.series[day(ymd(6, 1))], 12_345);
    assert.equal(home.gmv.series[day(ymd(6, 2))], 0, "the refunded sale adds no GMV");
    assert.equal(home.orders.series[day(ymd(6, 2))], 1, "but is an order");
    assert.equal(home.gmv.series[0], 101, "the first instant of the period is in it");
    assert.equal(home.commission.series[day(ymd(6, 12))], 2_000, "referral commission on its sale day");
    assert.equal(home.checkoutConversion.series[day(ymd(6, 14))], 0.5);
    assert.equal(home.checkoutConversion.series[day(ymd(6, 13))], null, "no links that day: no rate");
    assert.equal(home.webhookSuccess.series[day(ymd(6, 3))], 2 / 3);
    assert.equal(home.apiErrors.series[day(ymd(6, 4))], 0.5);
  });

  it("7 days: only this week's sales, against the week before", async () => {
    const home = await homeFigures(a.partnerId, "7d");
    assert.equal(home.gmv.value, 9_999 + 8_001);
    assert.equal(home.gmv.previous, 0, "June 2 .. 8 sold nothing in USD that stands (a refund, a EUR sale)");
    assert.equal(home.gmv.change, null);
    assert.equal(home.orders.previous, 2);
    assert.equal(home.dates.length, 7);
  });
});

describe("finance charts", () => {
  it("buckets by day, ISO week and month in UTC; every bucket sums what the orders hold", async () => {
    const caller = await callerFor(a.partnerId);
    const window = { from: ymd(5, 1), to: ymd(7, 1) };
    const transactions = await rest(transactionsRoute.GET, a.credential, `/api/partner/v1/transactions?limit=1&from=${window.from}&to=${window.to}`);
    const usd = (transactions.body.totals as Json[]).find((t) => t.currency === "USD")!;

    const days = await caller.finance.charts({ ...window, granularity: "day" });
    assert.equal(days.buckets.length, 61);
    const monthly = await caller.finance.charts({ ...window, granularity: "month" });
    assert.deepEqual(monthly.buckets, [ymd(5, 1), ymd(6, 1)]);
    const weekly = await caller.finance.charts({ ...window, granularity: "week" });
    for (const bucket of weekly.buckets) assert.equal(new Date(`${bucket}T00:00:00Z`).getUTCDay(), 1, `${bucket} is a Monday`);
    assert.ok(weekly.buckets[0]! <= window.from && weekly.buckets.at(-1)! < window.to);

    for (const chart of [days, weekly, monthly]) {
      const points = chart.series.find((s) => s.currency === "USD")!.points;
      assert.equal(points.length, chart.buckets.length);
      assert.equal(sum(points.map((p) => p.gmvCents)), usd.gmv_cents, `${chart.granularity}: GMV adds up to GET /transactions`);
      assert.equal(sum(points.map((p) => p.commissionCents)), usd.commission_cents);
      assert.equal(sum(points.map((p) => p.referralCommissionCents)), 2_000 + 400);
      assert.deepEqual(
        chart.series.map((s) => s.currency),
        ["EUR", "USD"],
      );
    }
    const june = monthly.series.find((s) => s.currency === "USD")!.points[1]!;
    assert.deepEqual(june, { bucket: ymd(6, 1), orders: 4, gmvCents: 12_345 + 9_999 + 8_001, commissionCents: 1235 + 1000 + 800, referralCommissionCents: 2_000 });

    assert.deepEqual(
      monthly.statuses.map((s) => [s.status, s.count]),
      [
        ["EXTERNALLY_PAID", 5],
        ["TRANSFER_COMPLETED", 2],
        ["REFUNDED", 1],
      ],
    );
    assert.equal(sum(monthly.statuses.map((s) => s.count)), (transactions.body.totals as Json[]).reduce((n, t) => n + (t.count as number), 0));

    const analytics = await rest(analyticsRoute.GET, a.credential, `/api/partner/v1/analytics?from=${window.from}&to=${window.to}`);
    assert.deepEqual(monthly.funnel, {
      clicks: analytics.body.clicks,
      checkouts: analytics.body.checkouts,
      sales: analytics.body.sales,
      reversedSales: analytics.body.reversed_sales,
      conversionRate: analytics.body.conversion_rate,
    });
    assert.equal(monthly.funnel?.clicks, 3);
    assert.equal(monthly.funnel?.sales, 2);
  });

  it("refuses an inverted range and a range of too many buckets", async () => {
    const caller = await callerFor(a.partnerId);
    await assert.rejects(caller.finance.charts({ from: ymd(6, 1), to: ymd(5, 1), granularity: "day" }), isCode("validation_error"));
    await assert.rejects(caller.finance.charts({ from: `${YEAR - 3}-01-01`, to: ymd(6, 1), granularity: "day" }), isCode("validation_error"));
    const months = await caller.finance.charts({ from: `${YEAR - 3}-01-01`, to: ymd(6, 1), granularity: "month" });
    assert.equal(months.buckets.length, 36 + 5);
  });
});

describe("finance lists are the REST lists", () => {
  let statementId: string;

  before(async () => {
    // Close June (and anything else ended): usd2 becomes a MoR statement, the checkout sale a payout.
    clock.freeze(at(7, 2));
    await runSettlement(getDb(), { asOf: at(7, 2) });
    clock.reset();
  });

  it("transactions: the same rows, cursor and totals for the same filter", async () => {
    const caller = await callerFor(a.partnerId);
    const query = { from: ymd(4, 1), to: ymd(7, 1), status: "EXTERNALLY_PAID,SETTLED,REFUNDED", payment_model: "mor", limit: 3 };
    const mine = await caller.finance.transactions(query);
    const theirs = await rest(transactionsRoute.GET, a.credential, `/api/partner/v1/transactions?${new URLSearchParams({ ...query, limit: "3" })}`);
    assert.deepEqual(mine, theirs.body);
    assert.equal(mine.data.length, 3);
    const next = await caller.finance.transactions({ ...query, cursor: mine.next_cursor! });
    const theirNext = await rest(transactionsRoute.GET, a.credential, `/api/partner/v1/transactions?${new URLSearchParams({ ...query, limit: "3", cursor: mine.next_cursor! })}`);
    assert.deepEqual(next, theirNext.body);
  });

  it("settlements: the statements of GET /settlements with totals, and each statement's orders", async () => {
    const caller = await callerFor(a.partnerId);
    const mine = await caller.finance.settlements({ from: ymd(1, 1), to: `${YEAR + 1}-01-01` });
    const theirs = await rest(settlementsRoute.GET, a.credential, `/api/partner/v1/settlements?from=${ymd(1, 1)}&to=${YEAR + 1}-01-01`);
    assert.deepEqual(mine.data, theirs.body.data);
    assert.equal(mine.data.length, 1);
    const statement = mine.data[0]!;
    statementId = statement.id;
    assert.deepEqual(
      { gross: statement.gross_sold_cents, commission: statement.commission_retained_cents, owed: statement.amount_owed_cents, orders: statement.order_count },
      { gross: 9_999, commission: 1000, owed: 8_999, orders: 1 },
    );
    assert.deepEqual(mine.totals, [{ currency: "USD", statements: 1, order_count: 1, gross_sold_cents: 9_999, commission_retained_cents: 1000, amount_owed_cents: 8_999 }]);
    assert.deepEqual(await caller.finance.statement({ id: statementId }), statement);
    const lines = await caller.finance.statementOrders({ id: statementId });
    assert.deepEqual(
      lines.data.map((o) => [o.id, o.status, o.sale_price_cents, o.settlement_id]),
      [[placed.usd2!.id, "SETTLED", 9_999, statementId]],
    );
    const none = await caller.finance.settlements({ from: ymd(1, 1), to: ymd(6, 1) });
    assert.deepEqual(none, { data: [], next_cursor: null, totals: [] });
  });

  it("payouts: GET /payouts with totals; the checkout sale's commission was paid", async () => {
    const caller = await callerFor(a.partnerId);
    const mine = await caller.finance.payouts({ kind: "commission" });
    const theirs = await rest(payoutsRoute.GET, a.credential, "/api/partner/v1/payouts?kind=commission");
    assert.deepEqual(mine.data, theirs.body.data);
    assert.equal(mine.data.length, 1);
    assert.deepEqual(mine.totals, [{ currency: "USD", count: 1, amount_cents: 800 }]);
  });

  it("commissions: GET /me/commissions, ledger and totals", async () => {
    const caller = await callerFor(a.partnerId);
    const query = { from: ymd(1, 1), to: `${YEAR + 1}-01-01` };
    const mine = await caller.finance.commissions(query);
    const theirs = await rest(commissionsRoute.GET, a.credential, `/api/partner/v1/me/commissions?${new URLSearchParams(query)}`);
    assert.deepEqual(mine, theirs.body);
    assert.ok(mine.totals.length > 0);
  });

  it("another partner sees none of it: zero figures, empty lists, A's statement is not found", async () => {
    const other = await callerFor(b.partnerId);
    const home = await homeFigures(b.partnerId);
    assert.equal(home.gmv.value, 50_000, "only its own sale");
    assert.equal(home.orders.value, 1);
    assert.equal(home.apiErrors.total, 2);
    assert.equal(home.webhookSuccess.value, null, "no deliveries: no rate");
    assert.equal(home.checkoutConversion.created, 1);
    const all = { from: ymd(1, 1), to: `${YEAR + 1}-01-01` };
    assert.deepEqual(
      (await other.finance.transactions(all)).data.map((o) => o.id),
      [placed.otherPartner!.id],
    );
    assert.deepEqual((await other.finance.settlements(all)).data, []);
    assert.deepEqual((await other.finance.payouts(all)).data, []);
    await assert.rejects(other.finance.statement({ id: statementId }), isCode("not_found"));
    await assert.rejects(other.finance.statementOrders({ id: statementId }), isCode("not_found"));
    const charts = await other.finance.charts({ from: ymd(5, 1), to: ymd(7, 1), granularity: "month" });
    assert.deepEqual(
      charts.series.map((s) => [s.currency, sum(s.points.map((p) => p.gmvCents))]),
      [["USD", 50_000]],
    );
    assert.equal(charts.funnel, null, "not an affiliate: no funnel");
    await assert.rejects(other.finance.commissions(all), isCode("forbidden"), "the ledger is for affiliates, as on REST");

    // A's own live environment is another world too.
    const live = await homeFigures(a.partnerId, "30d", "live");
    assert.equal(live.gmv.value, 777);
    assert.equal(live.apiErrors.total, 0);
    const liveCaller = await callerFor(a.partnerId, "live");
    await assert.rejects(liveCaller.finance.statement({ id: statementId }), isCode("not_found"));
  });

  it("a hosted-checkout (non-MoR) partner has no statements: forbidden, as GET /settlements", async () => {
    const caller = await callerFor(seller.partnerId);
    await assert.rejects(caller.finance.settlements({}), isCode("forbidden"));
    await assert.rejects(caller.finance.statement({ id: statementId }), isCode("forbidden"));
  });
});
