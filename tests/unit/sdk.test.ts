import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import fc from "fast-check";

process.env.SECRET_KEY ??= "unit-test-secret-key-unit-test-secret-key";
const { GENERATED_DIR, generateSdkFiles } = await import("@/sdk/scripts/openapi-types");
const sdk = await import("@/sdk/src/index");
const built = await import("@/sdk/dist/index.js");
const { signRequest: serverSign } = await import("@/server/signing/client");
const { standardWebhooksKey: serverKey, webhookHeaders } = await import("@/server/webhooks/signing");

// The SDK package without a server: its generated files are current, its
// signer agrees with the server's own client, the transport's retry rules,
// the error envelope, and webhook verification. tests/integration/sdk.test.ts
// runs it against the route handlers.

describe("SDK generated files", () => {
  it("match the current OpenAPI document (run `npm run sdk:generate` when this fails)", async () => {
    for (const [name, text] of Object.entries(await generateSdkFiles())) {
      assert.equal(readFileSync(new URL(name, GENERATED_DIR), "utf8"), text, `sdk/src/generated/${name} is stale`);
    }
  });

  it("the package built by tsc (sdk/dist) exports the client and signs like the sources", () => {
    assert.equal(typeof built.createPartnerClient, "function");
    assert.equal(typeof built.verifyWebhook, "function");
    const input = { method: "GET", path: "/api/partner/v1/availability", query: "?domain=a.com", timestamp: 1767225600, nonce: "n" };
    assert.deepEqual(built.signRequest({ keyId: "pk_sandbox_x", secret: "s" }, input), sdk.signRequest({ keyId: "pk_sandbox_x", secret: "s" }, input));
  });
});

describe("SDK signer", () => {
  const queryChar = fc.constantFrom(..."aZ09 -_.~!'()*%+&=?/:@ é€😀".split(""), "%2", "%zz", "%20", "&&", "==");
  const query = fc.array(fc.tuple(fc.string({ unit: queryChar, maxLength: 6 }), fc.string({ unit: queryChar, maxLength: 6 })), { maxLength: 5 });

  it("produces exactly the server's client signatures for the same inputs", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "get", "head"),
        fc.constantFrom("/api/partner/v1/orders", "/api/partner/v1/domains/caf%C3%A9.com", "/api/partner/webhooks"),
        query,
        fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.uuid(),
        fc.string({ minLength: 1, maxLength: 64 }),
        (method, path, pairs, body, timestamp, nonce, secret) => {
          const raw = pairs.map(([k, v]) => `${k}=${v}`).join("&");
          const url = `${path}${raw ? `?${raw}` : ""}`;
          const credentials = { keyId: "pk_sandbox_0123456789abcdefghijklmn", secret };
          // The SDK's transport reads path and query from the URL it sends, as here.
          const parsed = new URL(url, "http://sdk.invalid");
          const ours = sdk.signRequest(credentials, { method, path: parsed.pathname, query: parsed.search, body, timestamp, nonce });
          assert.deepEqual(ours, serverSign(credentials, { method, url, body, timestamp, nonce }));
        },
      ),
      { numRuns: 300 },
    );
  });

  it("signs the API reference's worked example to its canonical string", () => {
    const canonical = sdk.canonicalString({
      method: "GET",
      path: "/api/partner/v1/domains/search",
      query: "q=pizza%20shop&limit=3",
      timestamp: 1767225600,
      nonce: "6f1c0a52-3b7e-4d7e-9a51-2d0c8f1e9b44",
    });
    assert.equal(
      canonical,
      "GET\n/api/partner/v1/domains/search\nlimit=3&q=pizza%20shop\n1767225600\n6f1c0a52-3b7e-4d7e-9a51-2d0c8f1e9b44\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
  });
});

/** A scripted server for the transport: answers in turn, records what each attempt carried. */
function scripted(answers: (Response | Error)[]) {
  const seen: { method: string; url: string; headers: Headers; body: string }[] = [];
  const fetch = async (request: Request) => {
    seen.push({ method: request.method, url: request.url, headers: request.headers, body: await request.text() });
    const next = answers.shift();
    if (!next) throw new Error("no more scripted answers");
    if (next instanceof Error) throw next;
    return next;
  };
  return { seen, fetch };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
const envelope = (code: string, message = code) => ({ error: { code, message, request_id: "req_test" } });
const order = { public_id: "ord_1", domain: "a.com", status: "EXTERNALLY_PAID", sale_price_cents: 100, currency: "USD" };

function client(answers: (Response | Error)[], retry?: import("@/sdk/src/index").RetryOptions) {
  const server = scripted(answers);
  const waits: number[] = [];
  const api = sdk.createPartnerClient({
    baseUrl: "https://marketplace.example/",
    keyId: "pk_sandbox_x",
    secret: "secret",
    fetch: server.fetch,
    retry,
    sleep: async (ms) => void waits.push(ms),
    random: () => 0.5,
  });
  return { api, seen: server.seen, waits };
}

describe("SDK transport", () => {
  it("retries a 429 no sooner than Retry-After, signing each attempt with a fresh nonce and keeping the Idempotency-Key", async () => {
    const { api, seen, waits } = client([json(429, envelope("rate_limited"), { "retry-after": "7" }), json(201, order)]);
    const created = await api.createOrder({ domain: "a.com", expected_price: 100, currency: "USD", buyer: { email: "b@x.co" } });
    assert.deepEqual(created, order);
    assert.equal(seen.length, 2);
    assert.ok(waits[0]! >= 7000 && waits[0]! <= 8000, `waited ${waits[0]}`);
    const [first, second] = seen.map((s) => s.headers);
    assert.match(first!.get("idempotency-key") ?? "", /^[0-9a-f-]{36}$/, "a UUID was made");
    assert.equal(second!.get("idempotency-key"), first!.get("idempotency-key"), "the same key on the retry");
    assert.notEqual(second!.get("x-service-nonce"), first!.get("x-service-nonce"));
    assert.equal(seen[0]!.body, seen[1]!.body);
    // The signature covers the body bytes exactly as sent.
    const expected = sdk.signRequest({ keyId: "pk_sandbox_x", secret: "secret" }, {
      method: "POST",
      path: "/api/partner/v1/orders",
      query: "",
      body: seen[1]!.body,
      timestamp: Number(second!.get("x-service-timestamp")),
      nonce: second!.get("x-service-nonce")!,
    });
    assert.equal(second!.get("x-service-signature"), expected["X-Service-Signature"]);
  });

  it("keeps a caller's Idempotency-Key and sets none on operations that take none", async () => {
    const { api, seen } = client([json(201, order), json(201, { quote_id: "q" })]);
    await api.createOrder({ domain: "a.com", expected_price: 100, currency: "USD", buyer: { email: "b@x.co" } }, { idempotencyKey: "mine-1" });
    await api.createQuote({ domain: "a.com" });
    assert.equal(seen[0]!.headers.get("idempotency-key"), "mine-1");
    assert.equal(seen[1]!.headers.get("idempotency-key"), null);
  });

  it("backs off exponentially with jitter on 5xx, then gives up with the typed error", async () => {
    const { api, seen, waits } = client(
      [json(500, envelope("internal_error")), json(502, "bad gateway"), json(503, envelope("payments_unavailable")), json(500, envelope("internal_error", "still broken"))],
      { maxRetries: 3, baseDelayMs: 100 },
    );
    const error = await api.getOrder("ord_1").catch((e: unknown) => e);
    assert.ok(error instanceof sdk.PartnerApiError);
    assert.equal(error.code, "internal_error");
    assert.equal(error.message, "500 internal_error: still broken");
    assert.equal(seen.length, 4);
    assert.deepEqual(waits, [50, 100, 200], "random 0.5 of 100, 200, 400 ms");
  });

  it("retries network errors only when repeating the request is harmless", async () => {
    const get = client([new TypeError("fetch failed"), json(200, { results: [] })]);
    assert.deepEqual(await get.api.searchDomains("pizza"), { results: [] });
    assert.equal(get.seen.length, 2);

    const keyed = client([new TypeError("fetch failed"), json(201, order)]);
    await keyed.api.createOrder({ domain: "a.com", expected_price: 100, currency: "USD", buyer: { email: "b@x.co" } });
    assert.equal(keyed.seen.length, 2, "POST /orders carries an Idempotency-Key: safe to repeat");

    const quote = client([new TypeError("fetch failed"), json(201, { quote_id: "q" })]);
    await assert.rejects(quote.api.createQuote({ domain: "a.com" }), /fetch failed/);
    assert.equal(quote.seen.length, 1, "a POST without a key may have happened: not repeated");
  });

  it("does not wait out a Retry-After longer than allowed, and does not retry 4xx", async () => {
    const long = client([json(429, envelope("rate_limited"), { "retry-after": "3600" })]);
    const error = await long.api.getPricing("a.com").catch((e: unknown) => e);
    assert.ok(error instanceof sdk.PartnerApiError && error.code === "rate_limited" && error.retryAfterSeconds === 3600);
    assert.equal(long.seen.length, 1);

    const invalid = client([json(400, { error: { code: "validation_error", message: "domain: bad", request_id: "req_1", details: [{ path: "domain", message: "bad" }] } })]);
    const bad = await invalid.api.getPricing("-").catch((e: unknown) => e);
    assert.ok(bad instanceof sdk.PartnerApiError);
    assert.deepEqual([bad.status, bad.code, bad.requestId, bad.details], [400, "validation_error", "req_1", [{ path: "domain", message: "bad" }]]);
    assert.equal(invalid.seen.length, 1);
  });

  it("reads a body that is not the envelope as unexpected_response", async () => {
    const { api } = client([new Response("<html>proxy error</html>", { status: 404, headers: { "x-request-id": "req_p" } })]);
    const error = await api.getOrder("ord_x").catch((e: unknown) => e);
    assert.ok(error instanceof sdk.PartnerApiError);
    assert.deepEqual([error.code, error.requestId], ["unexpected_response", "req_p"]);
  });

  it("iterates cursor pages until next_cursor is null, passing each cursor back", async () => {
    const { api, seen } = client([
      json(200, { data: [order, { ...order, public_id: "ord_2" }], next_cursor: "c1" }),
      json(200, { data: [{ ...order, public_id: "ord_3" }], next_cursor: null }),
    ]);
    const ids: string[] = [];
    for await (const item of api.orders({ limit: 2, status: "EXTERNALLY_PAID" })) ids.push(item.public_id);
    assert.deepEqual(ids, ["ord_1", "ord_2", "ord_3"]);
    assert.equal(new URL(seen[1]!.url).searchParams.get("cursor"), "c1");
    assert.equal(new URL(seen[1]!.url).searchParams.get("status"), "EXTERNALLY_PAID");
  });

  it("parses Retry-After as seconds or as an HTTP date", () => {
    assert.equal(sdk.parseRetryAfter("12"), 12);
    assert.equal(sdk.parseRetryAfter(new Date(Date.UTC(2030, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2030, 0, 1)), 30);
    assert.equal(sdk.parseRetryAfter("soon"), null);
    assert.equal(sdk.parseRetryAfter(null), null);
  });
});

describe("SDK webhook verification", () => {
  const body = JSON.stringify({ id: "evt_1", type: "order.recorded", created_at: "2026-01-01T00:00:00.000Z", partner_id: "ptn_1", data: {} });
  const now = 1_767_225_600;
  const headersOf = (secret: string, previousSecret?: string, at = now) =>
    webhookHeaders({ secret, previousSecret, body, eventId: "evt_1", timestampSeconds: at });

  it("derives the Standard Webhooks key exactly as the server does", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ minLength: 16, maxLength: 64 }), fc.base64String({ minLength: 4, maxLength: 60 }).map((s) => `whsec_${s}`)), (secret) => {
        assert.deepEqual(sdk.standardWebhooksKey(secret), serverKey(secret));
      }),
      { numRuns: 300 },
    );
  });

  it("accepts the server's headers with either scheme, also during a roll, and refuses tampering, other secrets and stale timestamps", () => {
    const secret = "whsec_abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123";
    for (const scheme of ["auto", "standard", "service"] as const) {
      assert.equal(sdk.verifyWebhook({ secret, body, headers: headersOf(secret), scheme, now }).id, "evt_1");
      assert.equal(sdk.verifyWebhook({ secret, body, headers: headersOf("whsec_newnewnewnewnewnewnewnew", secret), scheme, now }).id, "evt_1");
      assert.throws(() => sdk.verifyWebhook({ secret, body: body.replace("evt_1", "evt_2"), headers: headersOf(secret), scheme, now }), sdk.WebhookVerificationError);
      assert.throws(() => sdk.verifyWebhook({ secret: "whsec_other0000000000000000", body, headers: headersOf(secret), scheme, now }), sdk.WebhookVerificationError);
      assert.throws(() => sdk.verifyWebhook({ secret, body, headers: headersOf(secret, undefined, now - 301), scheme, now }), /more than 300 s/);
      assert.equal(sdk.verifyWebhook({ secret, body, headers: headersOf(secret, undefined, now - 301), scheme, now, toleranceSeconds: 600 }).id, "evt_1");
    }
  });

  it("reads Headers objects and arrays, and says which header is missing", () => {
    const secret = "my-chosen-secret-0123";
    const headers = new Headers(headersOf(secret));
    assert.equal(sdk.verifyWebhook({ secret, body: new TextEncoder().encode(body), headers, now }).id, "evt_1");
    assert.throws(() => sdk.verifyWebhook({ secret, body, headers: { "x-service-timestamp": String(now) }, now }), /lacks the X-Service-Signature/);
    assert.throws(() => sdk.verifyWebhook({ secret, body, headers: { "webhook-signature": "v1,x" }, scheme: "standard", now }), /webhook-id/);
  });
});
