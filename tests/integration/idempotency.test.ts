import assert from "node:assert/strict";
import { randomInt, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { and, eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { events, idempotencyKeys, orders, orderTimeline, type Environment } from "@/db/schema";
import * as ordersRoute from "@/app/api/partner/v1/orders/route";
import * as quotesRoute from "@/app/api/partner/v1/quotes/route";
import { clock } from "@/server/clock";
import { sha256Hex } from "@/server/crypto";
import type { Scope } from "@/server/http/contract";
import { idempotencyWait, purgeExpiredKeys } from "@/server/http/idempotency";
import { addDomain } from "@/server/services/inventory";
import { addCredential, BASE, createTestPartner, type TestCredential } from "../helpers/partner";
import { signRequest } from "@/server/signing/client";

// Idempotency-Key on POST /orders (DECISIONS "Idempotency"), against the real
// database: concurrency, replays byte for byte, what is and is not stored.

const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const tag = `ik${letters(8)}`;
let counter = 0;
const fresh = () => `${tag}${++counter}.com`;

interface Raw {
  status: number;
  text: string;
  headers: Headers;
}

interface Seller {
  partnerId: string;
  environment: Environment;
  pool: TestCredential[];
  next(): TestCredential;
}

const scopes: Scope[] = ["buy"];

async function seller(size: number, environment: Environment = "sandbox"): Promise<Seller> {
  const created = await createTestPartner({ scopes, environment });
  const pool = [created.credential];
  while (pool.length < size) pool.push(await addCredential(created.partnerId, environment, scopes));
  let i = 0;
  return { partnerId: created.partnerId, environment, pool, next: () => pool[i++ % pool.length]! };
}

/** Signs and sends exact bytes, and keeps the response text exact too. */
async function post(credential: TestCredential, body: string, key?: string, url = "/api/partner/v1/orders"): Promise<Raw> {
  const headers = new Headers({
    ...signRequest(credential, { method: "POST", url, body, timestamp: clock.nowSeconds() }),
    "content-type": "application/json",
  });
  if (key !== undefined) headers.set("idempotency-key", key);
  const handler = url.endsWith("/quotes") ? quotesRoute.POST : ordersRoute.POST;
  const response = await handler(new Request(`${BASE}${url}`, { method: "POST", headers, body }), { params: Promise.resolve({}) });
  return { status: response.status, text: await response.text(), headers: response.headers };
}

const orderJson = (domain: string, price: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ domain, expected_price: price, currency: "USD", buyer: { email: "buyer@example.com" }, ...extra });

const errorOf = (raw: Raw) => (JSON.parse(raw.text) as { error: { code: string; message: string; request_id: string } }).error;

async function listed(price = 10_000, environment: Environment = "sandbox") {
  const name = fresh();
  await addDomain(getDb(), { environment, name, priceCents: price });
  return name;
}

async function ordersFor(domain: string) {
  return getDb().select().from(orders).where(eq(orders.domain, domain));
}

let s: Seller;
before(async () => {
  s = await seller(10);
});
after(async () => {
  clock.reset();
  await closeDb();
});

/**
 * Holds a key row uncommitted in another transaction, as an in-flight request
 * would, until `release()`; then commits it, or rolls it back (`holder` resolves
 * to "rolled back"). Returns once the row is inserted.
 */
async function holdKey(
  key: string,
  body: string,
  row: { state: "in_progress" } | { state: "completed"; responseStatus: number; responseBody: string },
  outcome: "commit" | "roll back",
) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let inserted!: () => void;
  const ready = new Promise<void>((resolve) => (inserted = resolve));
  const done = getDb().transaction(async (tx) => {
    await tx.insert(idempotencyKeys).values({
      partnerId: s.partnerId,
      environment: "sandbox",
      key,
      fingerprint: sha256Hex(body),
      ...row,
      expiresAt: new Date(clock.nowMs() + 3_600_000),
    });
    inserted();
    await held;
    if (outcome === "roll back") throw new Error("the in-flight request fails");
  });
  const holder = outcome === "roll back" ? done.catch(() => "rolled back") : done;
  await ready;
  return { release, holder };
}

describe("Idempotency-Key on POST /orders", () => {
  it("50 concurrent identical requests record exactly one order and answer identically", async () => {
    const domain = await listed(77_700);
    const key = randomUUID();
    const body = orderJson(domain, 77_700);
    // Five credentials of one partner (keys are per partner), ten requests each: under the write limit.
    const many = await seller(5);
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => post(many.pool[i % 5]!, body, key)));
    const statuses = new Set(answers.map((a) => a.status));
    assert.deepEqual([...statuses], [201], answers.find((a) => a.status !== 201)?.text);
    assert.equal(new Set(answers.map((a) => a.text)).size, 1, "every answer is byte-identical");

    const rows = await ordersFor(domain);
    assert.equal(rows.length, 1);
    const order = rows[0]!;
    assert.equal(JSON.parse(answers[0]!.text).public_id, order.id);
    const timeline = await getDb().select().from(orderTimeline).where(eq(orderTimeline.orderId, order.id));
    assert.equal(timeline.length, 1);
    const recorded = await getDb()
      .select()
      .from(events)
      .where(and(eq(events.partnerId, many.partnerId), eq(events.type, "order.recorded")));
    assert.equal(recorded.length, 1);
    const [stored] = await getDb()
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.partnerId, many.partnerId), eq(idempotencyKeys.key, key)));
    assert.equal(stored?.state, "completed");
    assert.equal(stored?.responseStatus, 201);
    assert.equal(stored?.fingerprint, sha256Hex(body));
    const ttl = stored!.expiresAt.getTime() - stored!.createdAt.getTime();
    assert.equal(ttl, 24 * 3_600_000);
  });

  it("a later retry with the same key and body replays the same bytes, from any credential of the partner", async () => {
    const domain = await listed();
    const key = randomUUID();
    const body = orderJson(domain, 10_000);
    const first = await post(s.next(), body, key);
    assert.equal(first.status, 201);
    const again = await post(s.next(), body, key);
    assert.equal(again.status, 201);
    assert.equal(again.text, first.text);
    assert.notEqual(again.headers.get("x-request-id"), first.headers.get("x-request-id"));
    assert.equal((await ordersFor(domain)).length, 1);
  });

  it("the same key with a different body is 409 conflict, and the original still replays", async () => {
    const domain = await listed();
    const key = randomUUID();
    const body = orderJson(domain, 10_000);
    const first = await post(s.next(), body, key);
    assert.equal(first.status, 201);
    // Semantically equal but different bytes is a different body: the fingerprint is over the raw bytes.
    for (const other of [orderJson(domain, 10_000, { external_payment_ref: "x" }), `${body} `]) {
      const res = await post(s.next(), other, key);
      assert.equal(res.status, 409, res.text);
      assert.equal(errorOf(res).code, "conflict");
      assert.match(errorOf(res).message, /different request body/);
    }
    assert.equal((await post(s.next(), body, key)).text, first.text);
  });

  it("400 missing_idempotency_key without the header; 400 validation_error for a malformed key", async () => {
    const domain = await listed();
    const missing = await post(s.next(), orderJson(domain, 10_000));
    assert.equal(missing.status, 400);
    assert.equal(errorOf(missing).code, "missing_idempotency_key");
    for (const bad of ["has space", "x".repeat(256), "clé"]) {
      const res = await post(s.next(), orderJson(domain, 10_000), bad);
      assert.equal(res.status, 400, bad);
      assert.equal(errorOf(res).code, "validation_error");
    }
    assert.equal((await ordersFor(domain)).length, 0);
  });

  it("a 422 is stored: the retry gets the same 422 even once the price would match", async () => {
    const domain = await listed(5_000);
    const key = randomUUID();
    const body = orderJson(domain, 4_999);
    const first = await post(s.next(), body, key);
    assert.equal(first.status, 422);
    const again = await post(s.next(), body, key);
    assert.equal(again.status, 422);
    const [e1, e2] = [errorOf(first), errorOf(again)];
    assert.deepEqual({ ...e1, request_id: "" }, { ...e2, request_id: "" }, "same code and message");
    assert.equal(e2.request_id, again.headers.get("x-request-id"), "request_id names the request answered");
    assert.equal((await ordersFor(domain)).length, 0);
    // The key is spent on that body; the corrected body needs a new key.
    assert.equal((await post(s.next(), orderJson(domain, 5_000), key)).status, 409);
    assert.equal((await post(s.next(), orderJson(domain, 5_000), randomUUID())).status, 201);
  });

  it("a 409 and a 404 of the order logic are stored too", async () => {
    const sold = await listed(1_000);
    assert.equal((await post(s.next(), orderJson(sold, 1_000), randomUUID())).status, 201);
    const key = randomUUID();
    const conflict = await post(s.next(), orderJson(sold, 1_000), key);
    assert.equal(conflict.status, 409);
    assert.equal((await post(s.next(), orderJson(sold, 1_000), key)).status, 409);

    const later = fresh();
    const notFoundKey = randomUUID();
    assert.equal((await post(s.next(), orderJson(later, 1_000), notFoundKey)).status, 404);
    await addDomain(getDb(), { environment: "sandbox", name: later, priceCents: 1_000 });
    const replay = await post(s.next(), orderJson(later, 1_000), notFoundKey);
    assert.equal(replay.status, 404, "the stored outcome, not a fresh attempt");
    assert.equal((await ordersFor(later)).length, 0);
  });

  it("a 400 is not stored: after a body or quote validation error the same key runs afresh", async () => {
    const domain = await listed(2_000);
    const key = randomUUID();
    const invalid = await post(s.next(), orderJson(domain, 2_000, { buyer: { email: "nope" } }), key);
    assert.equal(invalid.status, 400);
    assert.equal(errorOf(invalid).code, "validation_error");
    const badQuote = await post(s.next(), orderJson(domain, 2_000, { quote_id: "qt_x.y.z" }), key);
    assert.equal(badQuote.status, 400, "a 400 from the order logic leaves no key behind either");
    const rows = await getDb().select().from(idempotencyKeys).where(and(eq(idempotencyKeys.partnerId, s.partnerId), eq(idempotencyKeys.key, key)));
    assert.equal(rows.length, 0);
    const ok = await post(s.next(), orderJson(domain, 2_000), key);
    assert.equal(ok.status, 201, ok.text);
  });

  it("keys are scoped to partner and environment", async () => {
    const key = randomUUID();
    const other = await seller(1);
    const live = await seller(1, "live");
    const domain = await listed(3_000);
    await addDomain(getDb(), { environment: "live", name: domain, priceCents: 3_000 });
    const mine = await post(s.next(), orderJson(domain, 3_000), key);
    assert.equal(mine.status, 201);
    // The same key and body from another partner is its own operation (and finds the domain sold).
    const theirs = await post(other.next(), orderJson(domain, 3_000), key);
    assert.equal(theirs.status, 409);
    assert.match(errorOf(theirs).message, /already sold/);
    const liveOrder = await post(live.next(), orderJson(domain, 3_000), key);
    assert.equal(liveOrder.status, 201);
    assert.notEqual(JSON.parse(liveOrder.text).public_id, JSON.parse(mine.text).public_id);
  });

  it("a key is forgotten after 24 hours and may then be reused; expired rows are purged", async () => {
    const key = randomUUID();
    const first = await listed(1_000);
    assert.equal((await post(s.next(), orderJson(first, 1_000), key)).status, 201);
    const second = await listed(1_000);
    assert.equal((await post(s.next(), orderJson(second, 1_000), key)).status, 409, "still remembered");
    // Fresh credentials sign in the future: the rate limiter keeps time by the same clock.
    const travellers = await Promise.all([addCredential(s.partnerId, "sandbox", scopes), addCredential(s.partnerId, "sandbox", scopes)]);
    clock.advance(24 * 3_600_000 + 1_000);
    try {
      const reused = await post(travellers[0]!, orderJson(second, 1_000), key);
      assert.equal(reused.status, 201, reused.text);
      assert.equal(JSON.parse(reused.text).domain, second);
      // This file's earlier keys are a day old now: purged (by the request above, or here).
      await purgeExpiredKeys(getDb(), true);
      const [left] = await getDb().execute<{ expired: number; mine: number }>(sql`
        select count(*) filter (where expires_at <= ${clock.now().toISOString()}::timestamptz)::int as expired,
               count(*) filter (where partner_id = ${s.partnerId})::int as mine
        from idempotency_keys`);
      assert.equal(left?.expired, 0);
      assert.equal(left?.mine, 1, "only the reused key is left for this partner");
    } finally {
      clock.reset();
    }
  });

  it("a request waits for an in-flight one with the same key, then replays what it committed", async () => {
    const domain = await listed(4_000);
    const key = randomUUID();
    const body = orderJson(domain, 4_000);
    const first = await post(s.next(), body, key);
    const stored = first.text;
    // Simulate an in-flight request: hold the key row uncommitted, with its answer, in another transaction.
    const otherKey = randomUUID();
    const otherDomain = await listed(4_000);
    const otherBody = orderJson(otherDomain, 4_000);
    const { release, holder } = await holdKey(otherKey, otherBody, { state: "completed", responseStatus: 201, responseBody: stored }, "commit");
    let settled = false;
    const waiting = post(s.next(), otherBody, otherKey).then((r) => {
      settled = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(settled, false, "blocked on the in-flight key");
    release();
    await holder;
    const answer = await waiting;
    assert.equal(answer.status, 201);
    assert.equal(answer.text, stored, "replayed what the in-flight request committed");
    assert.equal((await ordersFor(otherDomain)).length, 0, "and did not execute");
  });

  it("when the in-flight request rolls back, the waiting one executes", async () => {
    const domain = await listed(4_500);
    const key = randomUUID();
    const body = orderJson(domain, 4_500);
    const { release, holder } = await holdKey(key, body, { state: "in_progress" }, "roll back");
    const waiting = post(s.next(), body, key);
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    assert.equal(await holder, "rolled back");
    const answer = await waiting;
    assert.equal(answer.status, 201, answer.text);
    assert.equal((await ordersFor(domain)).length, 1);
  });

  it("gives up waiting after the wait limit with 409 conflict 'in progress', and stores nothing", async () => {
    const domain = await listed(4_600);
    const key = randomUUID();
    const body = orderJson(domain, 4_600);
    const { release, holder } = await holdKey(key, body, { state: "in_progress" }, "roll back");
    idempotencyWait.ms = 300;
    try {
      const answer = await post(s.next(), body, key);
      assert.equal(answer.status, 409, answer.text);
      assert.match(errorOf(answer).message, /in progress/);
    } finally {
      idempotencyWait.ms = 10_000;
      release();
    }
    assert.equal(await holder, "rolled back");
    // Nothing was stored for the impatient request: a retry now runs.
    assert.equal((await post(s.next(), body, key)).status, 201);
  });
});
