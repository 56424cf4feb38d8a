import assert from "node:assert/strict";
import { randomInt, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { closeDb, getDb } from "@/db/client";
import { auditLog, domains, events, orders, quotes, type Environment } from "@/db/schema";
import * as availabilityRoute from "@/app/api/partner/v1/availability/route";
import * as searchRoute from "@/app/api/partner/v1/domains/search/route";
import * as orderRoute from "@/app/api/partner/v1/orders/[public_id]/route";
import * as ordersRoute from "@/app/api/partner/v1/orders/route";
import * as quotesRoute from "@/app/api/partner/v1/quotes/route";
import * as refundsRoute from "@/app/api/partner/v1/refunds/route";
import { clock } from "@/server/clock";
import { orderListItem, orderSchema, quoteSchema, refundSchema } from "@/server/contracts/orders";
import type { Scope } from "@/server/http/contract";
import { addDomain, setDomainPrice } from "@/server/services/inventory";
import { transitionOrder } from "@/server/services/order-states";
import { createOrder, serializeOrderWithTimeline } from "@/server/services/orders";
import { createQuote } from "@/server/services/quotes";
import { addCredential, callRoute, createTestPartner, type CallResult, type TestCredential } from "../helpers/partner";

// Quotes, orders and refunds through the signed routes against the real
// database. Every run lists its own domains under a random tag, and each
// partner signs with a pool of credentials so the write limit (20/min per
// credential) never decides a test.

type Quote = z.infer<typeof quoteSchema>;
type Order = z.infer<typeof orderSchema>;
type Refund = z.infer<typeof refundSchema>;
type OrderList = { data: z.infer<typeof orderListItem>[]; next_cursor: string | null };
interface ErrorBody {
  error: { code: string; message: string; request_id: string; details?: { path: string; message: string }[] };
}

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const tag = `qo${letters(8)}`;
let counter = 0;
/** A fresh name for every listing. */
const fresh = (label = "d") => `${tag}${label}${++counter}.com`;

interface Seller {
  partnerId: string;
  environment: Environment;
  next(): TestCredential;
}

const scopes: Scope[] = ["search", "buy"];

async function seller(options: { paymentModel?: "mor" | "non_mor"; environment?: Environment; pool?: number } = {}): Promise<Seller> {
  const environment = options.environment ?? "sandbox";
  const created = await createTestPartner({ paymentModel: options.paymentModel, environment, scopes });
  return withPool(created.partnerId, environment, [created.credential], options.pool ?? 6);
}

async function withPool(partnerId: string, environment: Environment, pool: TestCredential[], size: number): Promise<Seller> {
  while (pool.length < size) pool.push(await addCredential(partnerId, environment, scopes));
  let i = 0;
  return { partnerId, environment, next: () => pool[i++ % pool.length]! };
}

/**
 * The same partner with brand-new credentials, for requests made while the
 * clock is moved: the rate limiter keeps time by the service clock, so a key
 * used in the future would stay limited once the clock is reset.
 */
const travel = (s: Seller) => withPool(s.partnerId, s.environment, [], 2);

async function list(name: string, priceCents: number, environment: Environment = "sandbox") {
  return addDomain(getDb(), { environment, name, priceCents });
}

// Signed with the service clock, so tests that move the clock still sign in time.
const signed = { get timestamp() { return clock.nowSeconds(); } };

const postQuote = (s: Seller, domain: string) =>
  callRoute<Quote>(quotesRoute.POST, { method: "POST", url: "/api/partner/v1/quotes", credential: s.next(), body: { domain }, timestamp: signed.timestamp });

const orderBody = (domain: string, price: number, extra: Record<string, unknown> = {}) => ({
  domain,
  expected_price: price,
  currency: "USD",
  buyer: { email: "buyer@example.com" },
  ...extra,
});

const postOrder = (s: Seller, body: unknown, key: string = randomUUID()) =>
  callRoute<Order>(ordersRoute.POST, {
    method: "POST",
    url: "/api/partner/v1/orders",
    credential: s.next(),
    body,
    headers: { "Idempotency-Key": key },
    timestamp: signed.timestamp,
  });

const getOrder = (s: Seller, id: string) =>
  callRoute<Order>(orderRoute.GET, { url: `/api/partner/v1/orders/${id}`, params: { public_id: id }, credential: s.next(), timestamp: signed.timestamp });

const listOrders = (s: Seller, query: string) =>
  callRoute<OrderList>(ordersRoute.GET, { url: `/api/partner/v1/orders?${query}`, credential: s.next(), timestamp: signed.timestamp });

const postRefund = (s: Seller, body: unknown) =>
  callRoute<Refund>(refundsRoute.POST, { method: "POST", url: "/api/partner/v1/refunds", credential: s.next(), body, timestamp: signed.timestamp });

const availabilityOf = (s: Seller, domain: string) =>
  callRoute<{ available: boolean; status: string }>(availabilityRoute.GET, {
    url: `/api/partner/v1/availability?domain=${domain}`,
    credential: s.next(),
    timestamp: signed.timestamp,
  });

function assertError(res: CallResult<unknown>, status: number, code: string, detailPath?: string): ErrorBody["error"] {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const error = (res.body as ErrorBody).error;
  assert.equal(error.code, code, error.message);
  assert.equal(error.request_id, res.headers.get("x-request-id"));
  if (detailPath) assert.equal(error.details?.[0]?.path, detailPath, JSON.stringify(error));
  return error;
}

/** Places an order at the listing price and returns it. */
async function sell(s: Seller, price = 10_000, extra: Record<string, unknown> = {}): Promise<Order> {
  const name = fresh();
  await list(name, price, s.environment);
  const res = await postOrder(s, orderBody(name, price, extra));
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body;
}

let a: Seller; // the partner under test
let b: Seller; // another MoR partner in the same environment
let live: Seller; // partner A's live twin is another partner: environments never mix anyway

before(async () => {
  a = await seller({ pool: 12 });
  b = await seller();
  live = await seller({ environment: "live" });
});

after(async () => {
  clock.reset();
  await closeDb();
});

describe("POST /quotes", () => {
  it("locks the listing price for 10 minutes with a signed token and a reservation row", async () => {
    const name = fresh("quote");
    await list(name, 123_456);
    const before = clock.nowMs();
    const res = await postQuote(a, name.toUpperCase());
    assert.equal(res.status, 201, JSON.stringify(res.body));
    quoteSchema.parse(res.body);
    assert.equal(res.body.domain, name);
    assert.equal(res.body.sale_price_cents, 123_456);
    assert.equal(res.body.currency, "USD");
    const ttl = Date.parse(res.body.expires_at) - before;
    assert.ok(ttl > 599_000 && ttl <= 601_000, `expires in ${ttl} ms`);
    assert.match(res.body.quote_id, /^qt_[0-9A-Za-z]{22}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    const [row] = await getDb().select().from(quotes).where(eq(quotes.id, res.body.quote_id.split(".")[0]!));
    assert.equal(row?.partnerId, a.partnerId);
    assert.equal(row?.salePriceCents, 123_456);
    assert.equal(row?.orderId, null);

    // Discovery honours the hold: reserved for B, still available to A.
    assert.equal((await availabilityOf(a, name)).body.available, true);
    const forB = await availabilityOf(b, name);
    assert.equal(forB.body.available, false);
    assert.equal(forB.body.status, "reserved");
    // B can neither quote nor buy it; A may quote again.
    assertError(await postQuote(b, name), 409, "conflict");
    assertError(await postOrder(b, orderBody(name, 123_456)), 409, "conflict");
    assert.equal((await postQuote(a, name)).status, 201);
  });

  it("404 for a domain that is not listed, 409 for a sold one, 400 for a malformed name", async () => {
    assertError(await postQuote(a, fresh("never")), 404, "not_found");
    const order = await sell(a);
    assertError(await postQuote(b, order.domain), 409, "conflict");
    assertError(await postQuote(a, order.domain), 409, "conflict");
    assertError(await postQuote(a, "not a domain"), 400, "validation_error", "domain");
  });

  it("a quote that waited for the listing's lock lives 10 minutes from when it was issued", async () => {
    const name = fresh("wait");
    await list(name, 7_000);
    const db = getDb();
    let quoted: ReturnType<typeof createQuote> | undefined;
    let released = 0;
    try {
      // Another transaction holds the listing (as a concurrent order would) while the clock moves a minute.
      await db.transaction(async (tx) => {
        await tx.execute(sql`select id from domains where environment = 'sandbox' and name = ${name} for update`);
        quoted = createQuote(db, { partnerId: a.partnerId, environment: "sandbox", domain: name });
        quoted.catch(() => {}); // awaited below
        for (let i = 0; i < 200; i++) {
          // From another session: pg_stat_activity is read once per transaction.
          const [waiting] = await db.execute<{ n: number }>(
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          );
          if (waiting!.n > 0) break;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        clock.advance(60_000);
        released = clock.nowMs();
      });
      const { row } = await quoted!;
      assert.ok(row.createdAt.getTime() >= released, `issued at ${row.createdAt.toISOString()}, the lock was released at ${new Date(released).toISOString()}`);
      assert.equal(row.expiresAt.getTime() - row.createdAt.getTime(), 10 * 60_000);
    } finally {
      clock.reset();
    }
  });

  it("the hold lapses when the quote expires", async () => {
    const name = fresh("lapse");
    await list(name, 5_000);
    assert.equal((await postQuote(b, name)).status, 201);
    assertError(await postQuote(a, name), 409, "conflict");
    const later = await travel(a);
    clock.advance(10 * 60_000 + 1_000);
    try {
      assert.equal((await availabilityOf(later, name)).body.available, true);
      assert.equal((await postQuote(later, name)).status, 201);
    } finally {
      clock.reset();
    }
  });
});

describe("POST /orders", () => {
  it("records a sale at the listing price: order, timeline, event, audit, domain sold", async () => {
    const name = fresh("sale");
    await list(name, 250_005);
    const res = await postOrder(
      a,
      orderBody(name, 250_005, {
        buyer: { email: "jane@example.com", name: "Jane Doe", country: "de" },
        return_url: "https://partner.example/return",
        cancel_url: "http://partner.example/cancel",
        external_payment_ref: "ch_123",
      }),
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    orderSchema.parse(res.body);
    const order = res.body;
    assert.match(order.public_id, /^ord_[0-9A-Za-z]{22}$/);
    assert.equal(order.status, "EXTERNALLY_PAID");
    assert.equal(order.channel, "mor");
    assert.equal(order.sale_price_cents, 250_005);
    assert.equal(order.commission_bps, 1000);
    assert.equal(order.commission_cents, 25_001, "10 % of 250005 is 25000.5, rounded half up");
    assert.deepEqual(order.buyer, { email: "jane@example.com", name: "Jane Doe", country: "DE" });
    assert.equal(order.return_url, "https://partner.example/return");
    assert.equal(order.external_payment_ref, "ch_123");
    assert.equal(order.quote_id, null);
    assert.equal(order.timeline.length, 1);
    assert.equal(order.timeline[0]?.status, "EXTERNALLY_PAID");
    assert.equal(order.timeline[0]?.at, order.created_at);

    const db = getDb();
    const recorded = await db.select().from(events).where(and(eq(events.partnerId, a.partnerId), eq(events.type, "order.recorded")));
    const mine = recorded.filter((e) => (e.data.order as { public_id: string }).public_id === order.public_id);
    assert.equal(mine.length, 1);
    assert.deepEqual(mine[0]?.data, {
      order: { public_id: order.public_id, domain: name, status: "EXTERNALLY_PAID", sale_price_cents: 250_005, currency: "USD" },
    });
    const [listing] = await db.select().from(domains).where(and(eq(domains.environment, "sandbox"), eq(domains.name, name)));
    assert.equal(listing?.status, "sold");
    const audits = await db.select().from(auditLog).where(eq(auditLog.targetId, order.public_id));
    assert.deepEqual(audits.map((r) => r.action), ["order.recorded"]);
  });

  it("takes the domain out of search and availability for everyone", async () => {
    const label = `gone${letters(4)}`;
    const name = `${tag}${label}.com`;
    await list(name, 7_000);
    const query = `/api/partner/v1/domains/search?q=${name}`;
    const before = await callRoute<{ results: { domain: string }[] }>(searchRoute.GET, { url: query, credential: a.next() });
    assert.equal(before.body.results[0]?.domain, name);
    assert.equal((await postOrder(a, orderBody(name, 7_000))).status, 201);
    const afterSale = await callRoute<{ results: { domain: string }[] }>(searchRoute.GET, { url: query, credential: a.next() });
    assert.ok(!afterSale.body.results.some((r) => r.domain === name));
    for (const who of [a, b]) {
      const res = await availabilityOf(who, name);
      assert.equal(res.body.available, false);
      assert.equal(res.body.status, "sold");
    }
  });

  it("prices an order carrying a quote at the quote, even after a reprice, and uses the quote up", async () => {
    const name = fresh("quoted");
    await list(name, 40_000);
    const quote = (await postQuote(a, name)).body;
    await setDomainPrice(getDb(), { environment: "sandbox", name, priceCents: 55_000 });
    const mismatch = assertError(await postOrder(a, orderBody(name, 55_000, { quote_id: quote.quote_id })), 422, "price_mismatch");
    assert.match(mismatch.message, /sale_price_cents 40000 USD of the quote/);
    const res = await postOrder(a, orderBody(name, 40_000, { quote_id: quote.quote_id }));
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.sale_price_cents, 40_000);
    assert.equal(res.body.quote_id, quote.quote_id);
    const [row] = await getDb().select().from(quotes).where(eq(quotes.id, quote.quote_id.split(".")[0]!));
    assert.equal(row?.orderId, res.body.public_id);
  });

  it("without a quote the listing price is in force: 422 price_mismatch on price or currency", async () => {
    const name = fresh("price");
    await list(name, 9_900);
    const wrong = assertError(await postOrder(a, orderBody(name, 9_899)), 422, "price_mismatch");
    assert.match(wrong.message, /expected_price 9899 USD does not match sale_price_cents 9900 USD of the listing/);
    assertError(await postOrder(a, orderBody(name, 9_900, { currency: "EUR" })), 422, "price_mismatch");
    assert.equal((await postOrder(a, orderBody(name, 9_900))).status, 201);
  });

  it("422 quote_expired once 10 minutes have passed (the clock moves, nothing sleeps)", async () => {
    const name = fresh("expiry");
    await list(name, 3_000);
    const quote = await postQuote(a, name);
    assert.equal(quote.status, 201);
    const later = await travel(a);
    clock.advance(10 * 60_000);
    try {
      const res = await postOrder(later, orderBody(name, 3_000, { quote_id: quote.body.quote_id }));
      assert.match(assertError(res, 422, "quote_expired").message, /request a new quote/);
      // Without the quote the listing price still buys it.
      assert.equal((await postOrder(later, orderBody(name, 3_000))).status, 201);
    } finally {
      clock.reset();
    }
  });

  it("400 validation_error for another partner's, another domain's, another environment's or a tampered quote", async () => {
    const name = fresh("foreign");
    const other = fresh("other");
    await list(name, 8_000);
    await list(other, 8_000);
    const bQuote = (await postQuote(b, name)).body.quote_id;
    const aQuote = (await postQuote(a, other)).body.quote_id;

    const foreign = assertError(await postOrder(a, orderBody(name, 8_000, { quote_id: bQuote })), 400, "validation_error", "quote_id");
    assert.match(foreign.message, /another partner/);
    assertError(await postOrder(a, orderBody(name, 8_000, { quote_id: aQuote })), 400, "validation_error", "quote_id");

    const [id, payload, signature] = aQuote.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString()) as Record<string, unknown>;
    const cheaper = Buffer.from(JSON.stringify({ ...claims, a: 1 })).toString("base64url");
    const tampered = assertError(
      await postOrder(a, orderBody(other, 1, { quote_id: `${id}.${cheaper}.${signature}` })),
      400,
      "validation_error",
      "quote_id",
    );
    assert.match(tampered.message, /altered/);
    assertError(await postOrder(a, orderBody(other, 8_000, { quote_id: "qt_nonsense" })), 400, "validation_error", "quote_id");

    // A sandbox quote presented with a live credential: never valid there.
    await list(other, 8_000, "live");
    assertError(await postOrder(live, orderBody(other, 8_000, { quote_id: aQuote })), 400, "validation_error", "quote_id");
  });

  it("409 conflict for a sold domain or one held by another partner's quote; 404 when unlisted", async () => {
    const sold = await sell(a);
    const again = assertError(await postOrder(a, orderBody(sold.domain, sold.sale_price_cents)), 409, "conflict");
    assert.match(again.message, /already sold/);
    assertError(await postOrder(b, orderBody(sold.domain, sold.sale_price_cents)), 409, "conflict");
    const held = fresh("held");
    await list(held, 1_000);
    assert.equal((await postQuote(b, held)).status, 201);
    assertError(await postOrder(a, orderBody(held, 1_000)), 409, "conflict");
    assertError(await postOrder(a, orderBody(fresh("nowhere"), 1_000)), 404, "not_found");
  });

  it("403 forbidden for a partner that is not merchant of record", async () => {
    const nonMor = await seller({ paymentModel: "non_mor", pool: 1 });
    const name = fresh("nonmor");
    await list(name, 1_000);
    const res = await postOrder(nonMor, orderBody(name, 1_000));
    assert.match(assertError(res, 403, "forbidden").message, /merchant-of-record/);
    assertError(await postRefund(nonMor, { order_id: "ord_0000000000000000000000" }), 403, "forbidden");
  });

  it("holds a sale above the risk threshold for manual review", async () => {
    const held = await sell(a, 1_000_001);
    assert.equal(held.status, "MANUAL_REVIEW");
    assert.equal(held.timeline[0]?.status, "MANUAL_REVIEW");
    assert.match(held.timeline[0]?.note ?? "", /manual review/);
    const atThreshold = await sell(a, 1_000_000);
    assert.equal(atThreshold.status, "EXTERNALLY_PAID");
  });

  it("validates the body: buyer email, country, URLs, unknown fields", async () => {
    const name = fresh("valid");
    await list(name, 1_000);
    assertError(await postOrder(a, orderBody(name, 1_000, { buyer: { email: "nope" } })), 400, "validation_error", "buyer.email");
    assertError(await postOrder(a, orderBody(name, 1_000, { buyer: { email: "a@b.co", country: "XX" } })), 400, "validation_error", "buyer.country");
    assertError(await postOrder(a, orderBody(name, 1_000, { return_url: "ftp://x.example/" })), 400, "validation_error", "return_url");
    assertError(await postOrder(a, orderBody(name, 1_000, { cancel_url: "/relative" })), 400, "validation_error", "cancel_url");
    assertError(await postOrder(a, orderBody(name, 1.5)), 400, "validation_error", "expected_price");
    assertError(await postOrder(a, { ...orderBody(name, 1_000), sale_price_cents: 1_000 }), 400, "validation_error");
    const { buyer: _buyer, ...noBuyer } = orderBody(name, 1_000);
    assertError(await postOrder(a, noBuyer), 400, "validation_error", "buyer");
    // The minimal accepted shape carries only buyer.email.
    const ok = await postOrder(a, orderBody(name, 1_000));
    assert.equal(ok.status, 201);
    assert.deepEqual(ok.body.buyer, { email: "buyer@example.com", name: null, country: null });
  });
});

describe("GET /orders and GET /orders/{public_id}", () => {
  let lister: Seller;
  const placed: Order[] = [];
  const base = Date.parse("2030-03-01T00:00:00Z");

  before(async () => {
    lister = await seller({ pool: 4 });
    // Seven orders a day apart in 2030 (the clock is frozen on each day), the last one held.
    for (let day = 0; day < 7; day++) placed.push(await sellAt(base + day * 86_400_000, day === 6 ? 2_000_000 : 1_000 + day));
  });

  /** Orders placed at a frozen instant through the service (the signed route is tested above). */
  async function sellAt(at: number, price: number): Promise<Order> {
    const name = fresh();
    await list(name, price);
    clock.freeze(at);
    try {
      const created = await createOrder(getDb(), {
        partnerId: lister.partnerId,
        environment: "sandbox",
        domain: name,
        expectedPriceCents: price,
        currency: "USD",
        buyer: { email: "buyer@example.com" },
        actor: { type: "partner" },
      });
      return serializeOrderWithTimeline(created) as Order;
    } finally {
      clock.reset();
    }
  }

  it("pages newest first with an opaque cursor, never skipping or repeating, even as orders arrive", async () => {
    const seen: string[] = [];
    let head: Order | undefined;
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `limit=2${cursor ? `&cursor=${cursor}` : ""}&from=2030-03-01&to=2030-03-08`;
      const res = await listOrders(lister, query);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      for (const item of res.body.data) orderListItem.parse(item);
      seen.push(...res.body.data.map((o) => o.public_id));
      cursor = res.body.next_cursor;
      if (pages++ === 0) {
        // Orders recorded mid-paging: one newer than the first page (it belongs to a fresh listing's head
        // and must not shift later pages) and one older than the cursor (listed in its place).
        head = await sellAt(base + 6 * 86_400_000 + 1, 4_241);
        placed.push(await sellAt(base + 3 * 86_400_000 + 1, 4_242));
      }
    } while (cursor);
    const expected = [...placed].sort((x, y) => (x.created_at < y.created_at ? 1 : -1));
    assert.deepEqual(seen, expected.map((o) => o.public_id));
    assert.equal(new Set(seen).size, seen.length);
    assert.equal(pages, 4);
    const fromTheTop = await listOrders(lister, "limit=1&from=2030-03-01");
    assert.equal(fromTheTop.body.data[0]?.public_id, head?.public_id);
    placed.push(head!);
  });

  it("filters by status, domain and a from-inclusive, to-exclusive date range", async () => {
    const held = await listOrders(lister, "status=MANUAL_REVIEW");
    assert.deepEqual(held.body.data.map((o) => o.public_id), [placed[6]!.public_id]);
    const both = await listOrders(lister, "status=MANUAL_REVIEW,EXTERNALLY_PAID&limit=100");
    assert.equal(both.body.data.length, placed.length);
    const byDomain = await listOrders(lister, `domain=${placed[2]!.domain.toUpperCase()}`);
    assert.deepEqual(byDomain.body.data.map((o) => o.public_id), [placed[2]!.public_id]);
    const window = await listOrders(lister, "from=2030-03-02&to=2030-03-04T00:00:00Z");
    assert.deepEqual(window.body.data.map((o) => o.domain), [placed[2]!.domain, placed[1]!.domain]);
    const exclusive = await listOrders(lister, `from=2030-03-01T12:00:00Z&to=${encodeURIComponent(placed[1]!.created_at)}`);
    assert.deepEqual(exclusive.body.data, []);
    const inclusive = await listOrders(lister, `from=${encodeURIComponent(placed[1]!.created_at)}&to=2030-03-02T00:00:00.001Z`);
    assert.deepEqual(inclusive.body.data.map((o) => o.public_id), [placed[1]!.public_id]);
    assertError(await listOrders(lister, "status=LOST"), 400, "validation_error", "status.0");
    assertError(await listOrders(lister, "from=yesterday"), 400, "validation_error", "from");
    assertError(await listOrders(lister, "from=2030-03-05&to=2030-03-01"), 400, "validation_error", "to");
    assertError(await listOrders(lister, "limit=101"), 400, "validation_error", "limit");
    assertError(await listOrders(lister, "cursor=garbage"), 400, "validation_error", "cursor");
  });

  it("returns one order with its timeline; another partner's or environment's order is 404", async () => {
    const target = placed[0]!;
    const res = await getOrder(lister, target.public_id);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    orderSchema.parse(res.body);
    assert.deepEqual(res.body, target);
    await transitionOrder(getDb(), { orderId: target.public_id, action: "start_transfer", actor: { type: "admin" }, note: "pushing" });
    const moved = await getOrder(lister, target.public_id);
    assert.deepEqual(
      moved.body.timeline.map((t) => [t.status, t.note]),
      [
        ["EXTERNALLY_PAID", "sale recorded by the partner"],
        ["TRANSFER_IN_PROGRESS", "pushing"],
      ],
    );

    // BOLA: the same id from another partner, or from the live environment, does not exist.
    assertError(await getOrder(b, target.public_id), 404, "not_found");
    assertError(await getOrder(live, target.public_id), 404, "not_found");
    assertError(await getOrder(lister, "ord_0000000000000000000000"), 404, "not_found");
    assertError(await postRefund(b, { order_id: target.public_id }), 404, "not_found");
    const bList = await listOrders(b, "limit=100");
    assert.ok(!bList.body.data.some((o) => o.public_id === target.public_id));
    assertError(await listOrders(b, `cursor=${Buffer.from(target.public_id).toString("base64url")}`), 400, "validation_error", "cursor");
  });
});

describe("sandbox and live", () => {
  it("keep separate inventories and orders", async () => {
    const name = fresh("twin");
    await list(name, 6_000, "sandbox");
    await list(name, 9_000, "live");
    const sandboxOrder = await postOrder(a, orderBody(name, 6_000));
    assert.equal(sandboxOrder.status, 201);
    // The live listing of the same name is untouched and sells at its own price.
    assertError(await postOrder(live, orderBody(name, 6_000)), 422, "price_mismatch");
    const liveOrder = await postOrder(live, orderBody(name, 9_000));
    assert.equal(liveOrder.status, 201, JSON.stringify(liveOrder.body));
    assertError(await getOrder(live, sandboxOrder.body.public_id), 404, "not_found");
    const liveList = await listOrders(live, "limit=100");
    assert.deepEqual(liveList.body.data.map((o) => o.public_id), [liveOrder.body.public_id]);
    const rows = await getDb().select({ env: orders.environment }).from(orders).where(eq(orders.domain, name)).orderBy(asc(orders.createdAt));
    assert.deepEqual(rows.map((r) => r.env), ["sandbox", "live"]);
  });
});

describe("POST /refunds", () => {
  it("refunds before the transfer starts, relists the domain, and refuses a second refund", async () => {
    const order = await sell(a, 5_000);
    const res = await postRefund(a, { order_id: order.public_id, reason: "buyer changed mind", amount_cents: 5_000 });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    refundSchema.parse(res.body);
    assert.match(res.body.refund_id, /^rf_/);
    assert.equal(res.body.amount_cents, 5_000);
    assert.equal(res.body.status, "succeeded");
    assert.equal(res.body.order.status, "REFUNDED");
    assert.deepEqual(res.body.order.timeline.map((t) => t.status), ["EXTERNALLY_PAID", "REFUNDED"]);
    assert.equal(res.body.order.timeline[1]?.note, "refunded: buyer changed mind");
    const refunded = await getDb().select().from(events).where(and(eq(events.partnerId, a.partnerId), eq(events.type, "order.refunded")));
    assert.ok(refunded.some((e) => (e.data.order as { public_id: string; status: string }).public_id === order.public_id));
    // Back in the inventory: available and sellable again, to anyone.
    assert.equal((await availabilityOf(b, order.domain)).body.available, true);
    assert.match(assertError(await postRefund(a, { order_id: order.public_id }), 409, "conflict").message, /already refunded/);
    assert.equal((await postOrder(b, orderBody(order.domain, 5_000))).status, 201);
  });

  it("refunds a held order; 409 once the transfer started; 400 for a partial amount", async () => {
    const held = await sell(a, 1_500_000);
    assertError(await postRefund(a, { order_id: held.public_id, amount_cents: 100 }), 400, "validation_error", "amount_cents");
    assert.equal((await postRefund(a, { order_id: held.public_id })).status, 201);

    const moving = await sell(a, 2_000);
    await transitionOrder(getDb(), { orderId: moving.public_id, action: "start_transfer", actor: { type: "admin" } });
    const refused = assertError(await postRefund(a, { order_id: moving.public_id }), 409, "conflict");
    assert.match(refused.message, /TRANSFER_IN_PROGRESS: a refund by request is allowed only before the transfer starts/);
    await transitionOrder(getDb(), { orderId: moving.public_id, action: "complete_transfer", actor: { type: "admin" } });
    assertError(await postRefund(a, { order_id: moving.public_id }), 409, "conflict");
    assertError(await postRefund(a, { order_id: "ord_0000000000000000000000" }), 404, "not_found");
    assertError(await postRefund(a, {}), 400, "validation_error", "order_id");
  });
});
