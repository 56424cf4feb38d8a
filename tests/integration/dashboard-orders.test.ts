import assert from "node:assert/strict";
import { randomInt } from "node:crypto";
import { after, afterEach, describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, checkoutSessions, orders, partners, users, type Environment } from "@/db/schema";
import * as ordersRoute from "@/app/api/partner/v1/orders/route";
import type { SessionUser } from "@/server/auth/session";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { csvStream, escapeFormula, formatAmount, keysetBatches } from "@/server/services/csv";
import { sequenceEvents } from "@/server/services/events";
import { startExport, type ExportReader } from "@/server/services/exports";
import { addDomain } from "@/server/services/inventory";
import { maskEmail } from "@/server/services/order-console";
import { transitionOrder } from "@/server/services/order-states";
import { createOrder } from "@/server/services/orders";
import { setEndpointUrl } from "@/server/services/webhook-console";
import { createCaller } from "@/server/trpc/routers/_app";
import { createFixtureOrder } from "../helpers/orders";
import { callRoute, createTestPartner } from "../helpers/partner";
import { isCode } from "../helpers/trpc";

// The dashboard's orders against the real database: the list shares GET
// /orders' query (filters, keyset paging), an order's page shows what it caused,
// refunds and checkout links keep the REST rules, other partners' orders are
// not found, viewers read (masked) but change nothing, and the CSV export
// streams keyset batches with decimal amounts and formula-safe text.

// The order page's deliveries go to a loopback endpoint that is never called (no worker runs here).
process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";

after(closeDb);
afterEach(() => clock.reset());

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const tag = `do${letters(8)}`;
let counter = 0;
const fresh = (label = "d") => `${tag}${label}${++counter}.com`;
const system = { type: "system" as const };

async function userOf(partnerId: string, role: "owner" | "developer" | "viewer" = "owner"): Promise<SessionUser> {
  const [row] = await getDb().select().from(users).where(eq(users.partnerId, partnerId));
  assert.ok(row);
  return { id: row.id, email: row.email, name: row.name, role: "partner", partnerId, partnerRole: role };
}

function callerFor(user: SessionUser, environment: Environment = "sandbox") {
  return createCaller({ db: getDb(), user, environment });
}

/** A real MoR sale through the order service (event, audit and all), recorded at `at`. */
async function sell(partnerId: string, options: { name?: string; price?: number; at?: Date; buyer?: { email: string; name?: string }; ref?: string; environment?: Environment } = {}) {
  const environment = options.environment ?? "sandbox";
  const name = options.name ?? fresh();
  const price = options.price ?? 12_345;
  await addDomain(getDb(), { environment, name, priceCents: price });
  if (options.at) clock.freeze(options.at);
  const { order } = await createOrder(getDb(), {
    partnerId,
    environment,
    domain: name,
    expectedPriceCents: price,
    currency: "USD",
    buyer: options.buyer ?? { email: "alice@example.com", name: "Alice Buyer" },
    externalPaymentRef: options.ref,
    actor: system,
  });
  clock.reset();
  return order;
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

const csvRows = (text: string) => parse(text, { columns: true, record_delimiter: "\r\n" }) as Record<string, string>[];

describe("orders list: the GET /orders query with the dashboard's filters", () => {
  it("filters by status, channel, part of the domain and a date range; REST takes the same filters", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["buy"] });
    const day = (d: number) => new Date(Date.UTC(2024, 0, d, 12));
    const shop = await sell(partnerId, { name: `${tag}bestshop.com`, at: day(2) });
    const pizza = await sell(partnerId, { name: `${tag}pizza.com`, at: day(5) });
    const refunded = await sell(partnerId, { name: `${tag}shopfront.com`, at: day(9) });
    await transitionOrder(getDb(), { orderId: refunded.id, action: "refund", actor: system });
    const checkout = await createFixtureOrder({ partnerId, channel: "checkout", priceCents: 5000, createdAt: day(7) });
    const caller = callerFor(await userOf(partnerId));
    const ids = async (input: Parameters<typeof caller.orders.list>[0]) => (await caller.orders.list(input)).orders.map((o) => o.id);

    assert.deepEqual(await ids({}), [refunded.id, checkout.id, pizza.id, shop.id], "newest first");
    assert.deepEqual(await ids({ status: "REFUNDED" }), [refunded.id]);
    assert.deepEqual(await ids({ status: "EXTERNALLY_PAID,PAID" }), [checkout.id, pizza.id, shop.id]);
    assert.deepEqual(await ids({ channel: "checkout" }), [checkout.id]);
    assert.deepEqual(await ids({ q: "SHOP" }), [refunded.id, shop.id], "case-insensitive substring");
    assert.deepEqual(await ids({ q: `${tag}pi` }), [pizza.id], "prefix");
    assert.deepEqual(await ids({ q: "%" }), [], "LIKE wildcards match themselves");
    assert.deepEqual(await ids({ from: "2024-01-05", to: "2024-01-08" }), [checkout.id, pizza.id], "from inclusive, to exclusive");
    assert.deepEqual(await ids({ q: "shop", channel: "mor", status: "EXTERNALLY_PAID" }), [shop.id], "filters combine with AND");
    await assert.rejects(caller.orders.list({ from: "2024-01-08", to: "2024-01-05" }), isCode("validation_error"));
    await assert.rejects(caller.orders.list({ status: "SHIPPED" }), isCode("validation_error"));

    const rest = await callRoute<{ data: { public_id: string }[] }>(ordersRoute.GET, { url: "/api/partner/v1/orders?q=shop&channel=mor", credential });
    assert.equal(rest.status, 200);
    assert.deepEqual(rest.body.data.map((o) => o.public_id), [refunded.id, shop.id]);
    const exact = await callRoute<{ data: { public_id: string }[] }>(ordersRoute.GET, { url: `/api/partner/v1/orders?domain=${tag}pizza.com`, credential });
    assert.deepEqual(exact.body.data.map((o) => o.public_id), [pizza.id], "domain stays an exact match");
  });

  it("keyset pages on (created_at, id): ties on the same instant never skip or repeat, and a filter keeps its place", async () => {
    const { partnerId } = await createTestPartner({ scopes: ["buy"] });
    const same = new Date(Date.UTC(2024, 2, 1));
    const made: string[] = [];
    for (let i = 0; i < 7; i++) made.push((await createFixtureOrder({ partnerId, priceCents: 1000 + i, createdAt: same })).id);
    for (let i = 0; i < 4; i++) made.push((await createFixtureOrder({ partnerId, priceCents: 2000 + i, createdAt: new Date(same.getTime() + (i + 1) * 1000) })).id);
    const caller = callerFor(await userOf(partnerId));
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await caller.orders.list({ limit: 3, cursor });
      seen.push(...page.orders.map((o) => o.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    assert.equal(seen.length, made.length);
    assert.equal(new Set(seen).size, made.length, "no order twice");
    const [rows] = [await getDb().select({ id: orders.id, at: orders.createdAt }).from(orders).where(eq(orders.partnerId, partnerId))];
    const expected = rows.sort((a, b) => b.at.getTime() - a.at.getTime() || (a.id < b.id ? 1 : -1)).map((r) => r.id);
    assert.deepEqual(seen, expected, "(created_at desc, id desc)");

    // With a filter, paging keeps to the filtered rows.
    for (const id of made.slice(0, 5)) await transitionOrder(getDb(), { orderId: id, action: "refund", actor: system });
    const refunded: string[] = [];
    cursor = undefined;
    do {
      const page = await caller.orders.list({ limit: 2, cursor, status: "REFUNDED" });
      refunded.push(...page.orders.map((o) => o.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    assert.deepEqual(refunded, expected.filter((id) => made.slice(0, 5).includes(id)));

    // A cursor of another partner is refused, as on REST.
    const other = await createTestPartner({ scopes: ["buy"] });
    const first = await caller.orders.list({ limit: 1 });
    await assert.rejects(callerFor(await userOf(other.partnerId)).orders.list({ cursor: first.nextCursor! }), isCode("validation_error"));
  });
});

describe("one order: what it caused, masked for viewers, another partner's is not found", () => {
  it("shows the timeline, the events it caused and the deliveries that carried them", async () => {
    const { partnerId } = await createTestPartner({ scopes: ["buy", "webhook"] });
    const owner = { partnerId, environment: "sandbox" as const };
    await setEndpointUrl(getDb(), { ...owner, url: "http://127.0.0.1:9/hooks" }, system);
    const order = await sell(partnerId, { buyer: { email: "alice@example.com", name: "Alice Buyer" } });
    await transitionOrder(getDb(), { orderId: order.id, action: "start_transfer", actor: { type: "admin" } });
    await sequenceEvents(getDb());

    const view = await callerFor(await userOf(partnerId)).orders.get({ id: order.id });
    assert.deepEqual(view.timeline.map((t) => t.status), ["EXTERNALLY_PAID", "TRANSFER_IN_PROGRESS"]);
    assert.deepEqual(view.events.map((e) => e.type), ["order.recorded", "order.transfer_started"]);
    assert.ok(view.events.every((e) => e.deliveries.length === 1 && e.deliveries[0]!.url === "http://127.0.0.1:9/hooks"));
    assert.match(view.events[0]!.deliveries[0]!.id, /^whd_/);
    assert.deepEqual(view.buyer, { email: "alice@example.com", name: "Alice Buyer", country: null, masked: false });
    assert.match(view.refundBlocker ?? "", /transfer has started/);

    const asViewer = await callerFor(await userOf(partnerId, "viewer")).orders.get({ id: order.id });
    assert.deepEqual(asViewer.buyer, { email: "a***@example.com", name: "A***", country: null, masked: true });
    assert.equal(maskEmail("x@y.example"), "x***@y.example");
  });

  it("another partner's or environment's order is not found for reading, refunding", async () => {
    const a = await createTestPartner({ scopes: ["buy"] });
    const b = await createTestPartner({ scopes: ["buy"] });
    const order = await sell(b.partnerId);
    const asA = callerFor(await userOf(a.partnerId));
    await assert.rejects(asA.orders.get({ id: order.id }), isCode("not_found"));
    await assert.rejects(asA.orders.refund({ orderId: order.id, reason: "not mine" }), isCode("not_found"));
    assert.ok(!(await asA.orders.list({})).orders.some((o) => o.id === order.id));
    const bLive = callerFor(await userOf(b.partnerId), "live");
    await assert.rejects(bLive.orders.get({ id: order.id }), isCode("not_found"));
    await assert.rejects(bLive.orders.refund({ orderId: order.id, reason: "wrong environment" }), isCode("not_found"));
    const [row] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(row?.status, "EXTERNALLY_PAID", "nothing changed");
  });
});

describe("refunds from the dashboard follow POST /refunds", () => {
  it("refunds a MoR sale with its reason on the timeline, audited as the person; a second refund is a conflict", async () => {
    const { partnerId } = await createTestPartner({ scopes: ["buy"] });
    const order = await sell(partnerId, { price: 250_000 });
    const user = await userOf(partnerId, "developer");
    const result = await callerFor(user).orders.refund({ orderId: order.id, reason: "  buyer changed their mind  " });
    assert.deepEqual({ status: result.status, amount: result.amountCents, currency: result.currency }, { status: "REFUNDED", amount: 250_000, currency: "USD" });
    const view = await callerFor(user).orders.get({ id: order.id });
    assert.equal(view.timeline.at(-1)?.note, "refunded: buyer changed their mind");
    assert.deepEqual(view.refunds.map((r) => [r.amountCents, r.reason, r.requestedBy]), [[250_000, "buyer changed their mind", "partner"]]);
    assert.equal(view.events.at(-1)?.type, "order.refunded");
    const audit = await getDb().select().from(auditLog).where(and(eq(auditLog.targetId, order.id), eq(auditLog.action, "order.partner_refund")));
    assert.equal(audit[0]?.actorId, user.id, "the audit names the person");
    await assert.rejects(callerFor(user).orders.refund({ orderId: order.id, reason: "again" }), isCode("conflict"));
  });

  it("refuses a viewer, an empty reason, a started transfer, a hosted-checkout sale and a non-MoR partner", async () => {
    const { partnerId } = await createTestPartner({ scopes: ["buy"] });
    const order = await sell(partnerId);
    await assert.rejects(callerFor(await userOf(partnerId, "viewer")).orders.refund({ orderId: order.id, reason: "viewer" }), isCode("forbidden"));
    const owner = callerFor(await userOf(partnerId));
    await assert.rejects(owner.orders.refund({ orderId: order.id, reason: "   " }), isCode("validation_error"));
    const [unchanged] = await getDb().select().from(orders).where(eq(orders.id, order.id));
    assert.equal(unchanged?.status, "EXTERNALLY_PAID", "the viewer changed nothing");

    const started = await sell(partnerId);
    await transitionOrder(getDb(), { orderId: started.id, action: "start_transfer", actor: { type: "admin" } });
    await assert.rejects(owner.orders.refund({ orderId: started.id, reason: "late" }), isCode("conflict"));

    const collected = await createFixtureOrder({ partnerId, channel: "checkout", priceCents: 9000 });
    await assert.rejects(owner.orders.refund({ orderId: collected.id, reason: "support does this" }), isCode("forbidden"));
    assert.match((await owner.orders.get({ id: collected.id })).refundBlocker ?? "", /hosted checkout/);

    const nonMor = await createTestPartner({ paymentModel: "non_mor", scopes: ["embed"] });
    const sale = await createFixtureOrder({ partnerId: nonMor.partnerId, channel: "checkout", priceCents: 9000 });
    await assert.rejects(callerFor(await userOf(nonMor.partnerId)).orders.refund({ orderId: sale.id, reason: "x" }), isCode("forbidden"));
  });
});

describe("checkout links from the dashboard use the POST /checkout-session service", () => {
  it("creates a 7-day link for a listed domain, audited; unlisted, sold, viewer and unapproved live are refused", async () => {
    const { partnerId } = await createTestPartner({ paymentModel: "non_mor", scopes: ["embed"] });
    const name = fresh("cs");
    await addDomain(getDb(), { environment: "sandbox", name, priceCents: 77_700 });
    const user = await userOf(partnerId);
    const link = await callerFor(user).orders.createCheckoutLink({ domain: name.toUpperCase(), return_url: "https://partner.example/thanks" });
    assert.equal(link.domain, name);
    assert.equal(link.sale_price_cents, 77_700);
    assert.match(link.checkout_url, /\/checkout\?pt=cs_/);
    assert.ok(Math.abs(Date.parse(link.expires_at) - Date.now() - 7 * 86_400_000) < 60_000);
    const [session] = await getDb().select().from(checkoutSessions).where(eq(checkoutSessions.id, link.checkout_session_id));
    assert.equal(session?.partnerId, partnerId);
    assert.equal(session?.returnUrl, "https://partner.example/thanks");
    const audit = await getDb().select().from(auditLog).where(eq(auditLog.targetId, link.checkout_session_id));
    assert.equal(audit[0]?.actorId, user.id);

    await assert.rejects(callerFor(user).orders.createCheckoutLink({ domain: fresh("none") }), isCode("not_found"));
    await assert.rejects(callerFor(user).orders.createCheckoutLink({ domain: name, return_url: "javascript:alert(1)" }), isCode("validation_error"));
    await assert.rejects(callerFor(await userOf(partnerId, "viewer")).orders.createCheckoutLink({ domain: name }), isCode("forbidden"));
    await getDb().update(partners).set({ liveApprovedAt: null }).where(eq(partners.id, partnerId));
    await assert.rejects(callerFor(user, "live").orders.createCheckoutLink({ domain: name }), isCode("forbidden"));

    // A merchant-of-record partner may make links too; a sold domain is a conflict.
    const mor = await createTestPartner({ scopes: ["buy"] });
    const sold = await sell(mor.partnerId);
    await assert.rejects(callerFor(await userOf(mor.partnerId)).orders.createCheckoutLink({ domain: sold.domain }), isCode("conflict"));
  });
});

describe("CSV export", () => {
  const reader = (partnerId: string, extra: Partial<ExportReader> = {}): ExportReader => ({
    partnerId,
    environment: "sandbox",
    paymentModel: "mor",
    isAffiliate: false,
    viewer: false,
    ...extra,
  });

  it("escapes cells a spreadsheet would run as formulas and writes money as decimal currency units", () => {
    for (const [input, output] of [
      ["=HYPERLINK(\"http://x\")", "'=HYPERLINK(\"http://x\")"],
      ["+1+1", "'+1+1"],
      ["-2+3", "'-2+3"],
      ["@SUM(A1)", "'@SUM(A1)"],
      ["\tleading tab", "'\tleading tab"],
      ["\rcarriage", "'\rcarriage"],
      ["-12.50", "-12.50"],
      ["plain = text", "plain = text"],
      ["", ""],
    ] as const) {
      assert.equal(escapeFormula(input), output, JSON.stringify(input));
    }
    assert.equal(formatAmount(123_456, "USD"), "1234.56");
    assert.equal(formatAmount(5, "USD"), "0.05");
    assert.equal(formatAmount(0, "EUR"), "0.00");
    assert.equal(formatAmount(1500, "JPY"), "1500");
    assert.equal(formatAmount(1234, "KWD"), "1.234");
    assert.equal(formatAmount(-250, "USD"), "-2.50");
    assert.equal(formatAmount(Number.MAX_SAFE_INTEGER, "USD"), "90071992547409.91");
  });

  it("exports orders with the list's filters: header, RFC 4180 quoting, decimal amounts, escaped buyer text, masked for viewers", async () => {
    const { partnerId } = await createTestPartner({ scopes: ["buy"] });
    const evil = await sell(partnerId, {
      name: fresh("csv"),
      price: 100_005,
      buyer: { email: "bob@example.com", name: "=HYPERLINK(\"http://evil.example\",\"click\")" },
      ref: "+cmd|' /C calc'!A0",
    });
    const quoted = await sell(partnerId, { name: fresh("csv"), price: 99, buyer: { email: "carol@example.com", name: "Carol, \"the\" buyer" }, ref: "@SUM(1)" });
    await createFixtureOrder({ partnerId, channel: "checkout", priceCents: 1 });

    const started = await startExport(getDb(), {
      list: "orders",
      reader: reader(partnerId),
      params: new URLSearchParams({ channel: "mor" }),
      now: new Date("2025-03-04T10:00:00Z"),
      logTag: "test",
    });
    assert.equal(started.filename, "orders-sandbox-2025-03-04.csv");
    const text = await readAll(started.stream);
    assert.ok(text.startsWith("order_id,created_at,domain,status,channel,currency,sale_price,commission_bps,commission,buyer_email,buyer_name,"));
    assert.ok(text.endsWith("\r\n") && !/[^\r]\n/.test(text.replace(/"[^"]*"/g, "")), "CRLF between records");
    const rows = csvRows(text);
    assert.deepEqual(rows.map((r) => r.order_id), [quoted.id, evil.id], "the channel filter applied, newest first");
    const e = rows[1]!;
    assert.equal(e.sale_price, "1000.05");
    assert.equal(e.commission, "100.01", "10 % of 100005 cents, halves up");
    assert.equal(e.currency, "USD");
    assert.equal(e.buyer_name, "'=HYPERLINK(\"http://evil.example\",\"click\")");
    assert.equal(e.external_payment_ref, "'+cmd|' /C calc'!A0");
    assert.equal(e.buyer_email, "bob@example.com");
    assert.equal(rows[0]!.buyer_name, "Carol, \"the\" buyer", "commas and quotes survive the round trip");
    assert.equal(rows[0]!.sale_price, "0.99");
    assert.equal(rows[0]!.external_payment_ref, "'@SUM(1)");

    const masked = csvRows(await readAll((await startExport(getDb(), { list: "orders", reader: reader(partnerId, { viewer: true }), params: new URLSearchParams({ q: evil.domain }), now: new Date(), logTag: "test" })).stream));
    assert.deepEqual(masked.map((r) => [r.buyer_email, r.buyer_name]), [["b***@example.com", "'=***"]], "masked, and the mask is escaped too");
  });

  it("streams keyset batches: every row once in list order, the next batch only when the reader wants it", async () => {
    const { partnerId } = await createTestPartner({ scopes: ["buy"] });
    const base = Date.UTC(2024, 5, 1);
    for (let i = 0; i < 23; i++) await createFixtureOrder({ partnerId, priceCents: 100 + i, createdAt: new Date(base + Math.floor(i / 3) * 1000) });
    const text = await readAll((await startExport(getDb(), { list: "orders", reader: reader(partnerId), params: new URLSearchParams(), now: new Date(), batchSize: 5, logTag: "test" })).stream);
    const exported = csvRows(text).map((r) => r.order_id);
    const listed: string[] = [];
    let cursor: string | undefined;
    const caller = callerFor(await userOf(partnerId));
    do {
      const page = await caller.orders.list({ limit: 100, cursor });
      listed.push(...page.orders.map((o) => o.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    assert.equal(exported.length, 23);
    assert.deepEqual(exported, listed, "the export is the list, batch after batch");

    // Lazy: 50 batches of 1,000 rows available, one chunk read -> only the first few fetched; cancel stops the rest.
    let fetched = 0;
    const batches = await keysetBatches(async (c) => {
      fetched++;
      const n = Number(c ?? 0);
      return { rows: Array.from({ length: 1000 }, (_, i) => ({ id: `row-${n * 1000 + i}`, note: "x".repeat(40) })), nextCursor: n < 49 ? String(n + 1) : null };
    });
    const stream = csvStream([{ header: "id", value: (r: { id: string }) => r.id }, { header: "note", value: (r: { note: string }) => r.note }], batches, "test");
    const reader2 = stream.getReader();
    const first = await reader2.read();
    assert.ok(first.value && first.value.byteLength > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.ok(fetched <= 3, `only the batches the buffer needed were fetched (${fetched})`);
    await reader2.cancel();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const afterCancel = fetched;
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(fetched, afterCancel, "no batch is fetched after the reader went away");
    assert.ok(fetched < 50);
  });

  it("refuses bad filters before streaming; settlements and commissions keep their REST rules; other lists export", async () => {
    const { partnerId } = await createTestPartner({ scopes: ["buy"] });
    await createFixtureOrder({ partnerId, priceCents: 4200 });
    const run = (list: "orders" | "transactions" | "settlements" | "payouts" | "commissions", params: Record<string, string>, extra: Partial<ExportReader> = {}) =>
      startExport(getDb(), { list, reader: reader(partnerId, extra), params: new URLSearchParams(params), now: new Date(), logTag: "test" });
    await assert.rejects(run("orders", { status: "SHIPPED" }), (e: unknown) => e instanceof AppError && e.code === "validation_error" && /status/.test(e.message));
    await assert.rejects(run("orders", { from: "2025-02-01", to: "2025-01-01" }), (e: unknown) => e instanceof AppError && e.code === "validation_error");
    await assert.rejects(run("settlements", {}, { paymentModel: "non_mor" }), (e: unknown) => e instanceof AppError && e.code === "forbidden");
    await assert.rejects(run("commissions", {}), (e: unknown) => e instanceof AppError && e.code === "forbidden");

    const transactions = csvRows(await readAll((await run("transactions", { payment_model: "mor" })).stream));
    assert.equal(transactions.length, 1);
    assert.equal(transactions[0]!.sale_price, "42.00");
    assert.equal(transactions[0]!.commission, "4.20");
    for (const list of ["settlements", "payouts"] as const) {
      const text = await readAll((await run(list, {})).stream);
      assert.equal(csvRows(text).length, 0);
      assert.match(text, /^id,/, `${list} has its header even when empty`);
    }
    assert.match(await readAll((await run("commissions", { state: "accrued" }, { isAffiliate: true })).stream), /^id,created_at,source,/);
  });
});
