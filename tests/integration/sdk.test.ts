
import assert from "node:assert/strict";
import { randomInt, randomUUID } from "node:crypto";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, it } from "node:test";
import { Webhook } from "standardwebhooks";
import { closeDb, getDb } from "@/db/client";
import { clock } from "@/server/clock";
import { resetEnv } from "@/server/env";
import { addDomain } from "@/server/services/inventory";
import { generateWebhookSecret } from "@/server/services/webhooks";
import { startWebhookWorker } from "@/server/webhooks/worker";
import { refillsSince } from "@/reliability/lib/gcra";
import { dispatch } from "@/reliability/lib/routes";
import { createPartnerClient, PartnerApiError, verifyWebhook, type RetryInfo } from "@/sdk/src/index";
import { createTestPartner, type TestCredential } from "../helpers/partner";

// The SDK against the real route handlers (in-process, through the same
// dispatcher the gate server uses) and the real database: search, quote, order
// with an idempotent replay, cursor pages, a 429 retried after Retry-After, and
// a real webhook delivery verified by the SDK and by the standardwebhooks library.

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
resetEnv();

const BASE = "http://localhost:3000";
const letters = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + randomInt(26))).join("");
const tag = `sdk${letters(8)}`;

/** A client whose requests reach the route handlers without a socket; its waits move the service's clock instead of sleeping. */
function clientFor(credential: TestCredential, retries: RetryInfo[] = []) {
  return createPartnerClient({
    baseUrl: BASE,
    keyId: credential.keyId,
    secret: credential.secret,
    fetch: (request) => dispatch(request),
    sleep: async (ms) => clock.advance(ms),
    onRetry: (info) => retries.push(info),
  });
}

async function list(name: string, priceCents: number) {
  return addDomain(getDb(), { environment: "sandbox", name, priceCents });
}

before(() => clock.reset());
after(async () => {
  clock.reset();
  await closeDb();
});

describe("the SDK against the server", () => {
  it("searches, quotes and records an order; the same Idempotency-Key replays it", async () => {
    const { credential } = await createTestPartner({ scopes: ["search", "buy"] });
    const client = clientFor(credential);
    const name = `${tag}pizza.com`;
    await list(name, 125_00);

    const search = await client.searchDomains(name);
    assert.ok(search.results.some((r) => r.domain === name), `search found ${name}`);
    const availability = await client.getAvailability(name);
    assert.equal(availability.available, true);

    const quote = await client.createQuote({ domain: name });
    assert.equal(quote.sale_price_cents, 125_00);
    const input = { domain: name, expected_price: quote.sale_price_cents, currency: quote.currency, quote_id: quote.quote_id, buyer: { email: "buyer@test.example" } };
    const key = randomUUID();
    const order = await client.createOrder(input, { idempotencyKey: key });
    assert.equal(order.status, "EXTERNALLY_PAID");
    const replay = await client.createOrder(input, { idempotencyKey: key });
    assert.deepEqual(replay, order, "the stored response is replayed");

    // A different body under the same key is a typed conflict.
    const conflict = await client.createOrder({ ...input, external_payment_ref: "other" }, { idempotencyKey: key }).catch((e: unknown) => e);
    assert.ok(conflict instanceof PartnerApiError);
    assert.equal(conflict.status, 409);
    assert.equal(conflict.code, "conflict");
    assert.match(conflict.requestId ?? "", /^req_/);

    const read = await client.getOrder(order.public_id);
    assert.equal(read.public_id, order.public_id);
  });

  it("creates an Idempotency-Key itself when none is given, and errors come back typed", async () => {
    const { credential } = await createTestPartner({ scopes: ["search", "buy"] });
    const client = clientFor(credential);
    const name = `${tag}auto.com`;
    await list(name, 40_00);
    const order = await client.createOrder({ domain: name, expected_price: 40_00, currency: "USD", buyer: { email: "b@test.example" } });
    assert.equal(order.domain, name);

    const missing = await client.getPricing(`${tag}unlisted.com`).catch((e: unknown) => e);
    assert.ok(missing instanceof PartnerApiError && missing.code === "not_found" && missing.status === 404, String(missing));
    const invalid = await client.getAvailability("not a domain").catch((e: unknown) => e);
    assert.ok(invalid instanceof PartnerApiError);
    assert.equal(invalid.code, "validation_error");
    assert.equal(invalid.details[0]?.path, "domain");
  });

  it("iterates every order across cursor pages", async () => {
    const { credential } = await createTestPartner({ scopes: ["search", "buy"] });
    const client = clientFor(credential);
    const names = [1, 2, 3, 4, 5].map((i) => `${tag}page${i}.com`);
    for (const name of names) {
      await list(name, 10_00);
      await client.createOrder({ domain: name, expected_price: 10_00, currency: "USD", buyer: { email: "p@test.example" } });
    }
    const firstPage = await client.listOrders({ limit: 2 });
    assert.equal(firstPage.data.length, 2);
    assert.ok(firstPage.next_cursor);
    const seen: string[] = [];
    for await (const order of client.orders({ limit: 2 })) seen.push(order.domain);
    assert.deepEqual([...seen].sort(), [...names].sort(), "three pages of 2, 2 and 1, each order once");
  });

  it("waits out a 429 (Retry-After) and then succeeds, with a fresh nonce", async () => {
    const { credential } = await createTestPartner({ scopes: ["search"] });
    const retries: RetryInfo[] = [];
    const client = clientFor(credential, retries);
    const name = `${tag}limit.com`;
    await list(name, 10_00);
    // Empty the search bucket (60 a minute) without retrying.
    const raw = createPartnerClient({ baseUrl: BASE, ...credential, fetch: (r) => dispatch(r), retry: { maxRetries: 0 } });
    let limited: Response | undefined;
    let accepted = 0;
    const started = performance.now();
    for (let i = 0; i < 120 && !limited; i++) {
      const { response } = await raw.api.GET("/api/partner/v1/availability", { params: { query: { domain: name } } });
      if (response.status === 429) limited = response;
      else accepted += 1;
    }
    assert.ok(limited, "the bucket ran dry");
    // The limit's worth, plus one per refill (one a second) while they ran on a busy machine.
    const refills = refillsSince(started, 60);
    assert.ok(accepted >= 60 && accepted <= 60 + refills, `${accepted} accepted, ${refills} refill(s)`);
    // The server remembers every verified nonce, so the retry only succeeds when it is signed afresh.
    const retryAfter = Number(limited.headers.get("retry-after"));
    try {
      const result = await client.getAvailability(name);
      assert.equal(result.domain, name);
      assert.equal(retries[0]?.status, 429);
      assert.ok((retries[0]?.delayMs ?? 0) >= retryAfter * 1000, `waited ${retries[0]?.delayMs} ms for Retry-After ${retryAfter}`);
    } finally {
      clock.reset();
    }
  });

  it("verifies a real delivery with the SDK and with the standardwebhooks library", async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => (received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") }), res.end("ok")));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { partnerId, credential } = await createTestPartner({ scopes: ["search", "buy", "webhook"] });
    const client = clientFor(credential);
    const secret = generateWebhookSecret(); // the form the dashboard shows
    const worker = await startWebhookWorker({ partnerIds: [partnerId], log: () => {}, pollMs: 50 });
    try {
      await client.registerWebhook({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`, secret });
      const name = `${tag}hook.com`;
      await list(name, 99_00);
      const order = await client.createOrder({ domain: name, expected_price: 99_00, currency: "USD", buyer: { email: "h@test.example" } });
      const deadline = Date.now() + 10_000;
      while (received.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const delivery = received[0];
      assert.ok(delivery, "a delivery arrived");

      const event = verifyWebhook({ secret, body: delivery.body, headers: delivery.headers });
      assert.equal(event.type, "order.recorded");
      assert.equal((event.data.order as { public_id: string }).public_id, order.public_id);
      assert.deepEqual(verifyWebhook({ secret, body: delivery.body, headers: delivery.headers, scheme: "service" }), event);
      assert.deepEqual(new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>), event);

      assert.throws(() => verifyWebhook({ secret: generateWebhookSecret(), body: delivery.body, headers: delivery.headers }), /no webhook-signature matches/);
      assert.throws(() => verifyWebhook({ secret, body: delivery.body.replace(name, "evil.com"), headers: delivery.headers }), /no webhook-signature matches/);
      assert.throws(() => verifyWebhook({ secret, body: delivery.body, headers: delivery.headers, now: Math.floor(Date.now() / 1000) + 301 }), /more than 300 s/);
      // Events history: the same event, through the cursor iterator.
      const history = [];
      for await (const e of client.events()) history.push(e.id);
      assert.ok(history.includes(event.id));
    } finally {
      await worker.stop();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
