import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, timingSafeEqual } from "node:crypto";
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { after, afterEach, before, describe, it } from "node:test";
import { and, asc, eq, inArray } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, events, webhookAttempts, webhookDeliveries, webhookEndpoints, type Environment } from "@/db/schema";
import * as webhooksRoute from "@/app/api/partner/webhooks/route";
import { clock } from "@/server/clock";
import { openSecret } from "@/server/crypto";
import { resetEnv } from "@/server/env";
import { recordEvent, serializeEvent } from "@/server/services/events";
import { disableWebhookEndpoint, replayDelivery, replayEvent, webhookSecretContext } from "@/server/services/webhooks";
import { DEFAULT_TIMEOUT_MS } from "@/server/webhooks/deliver";
import { startWebhookWorker, type WebhookWorker, type WorkerOptions } from "@/server/webhooks/worker";
import { addCredential, callRoute, createTestPartner } from "../helpers/partner";

// Webhook registration and delivery against a real receiver on 127.0.0.1 and
// the real database. Loopback targets are allowed for this file (as in
// development) except where a test turns the protection back on; the retry
// schedule is shortened to 100 ms, 200 ms.

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
process.env.WEBHOOK_RETRY_SCHEDULE = "100ms,200ms";
resetEnv();

const WEBHOOKS = "/api/partner/webhooks";
const quiet = () => {};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// --- a receiver, as a partner would write one ----------------------------------------

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

interface Reply {
  status?: number;
  headers?: Record<string, string>;
  /** Never answer (the socket stays open until the sender gives up or the receiver closes). */
  hang?: boolean;
  /** Read the request, then reset the connection without answering. */
  reset?: boolean;
  delayMs?: number;
}

async function startReceiver(reply: (request: Received, index: number) => Reply = () => ({})) {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const request = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(request);
      const answer = reply(request, received.length - 1);
      if (answer.hang) return;
      if (answer.reset) return void req.socket.destroy();
      setTimeout(() => res.writeHead(answer.status ?? 200, answer.headers).end("ok"), answer.delayMs ?? 0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    // Deliveries take milliseconds; the default deadline only ends a wait that would never
    // end (15 s: other test files and the build may run beside this one on two cores).
    async waitFor(count: number, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`);
        await sleep(10);
      }
      return received;
    },
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** What a receiver does first: recompute the HMAC of the raw body and compare in constant time. */
function signatureValid(secret: string, body: string, header: string | string[] | undefined): boolean {
  if (typeof header !== "string") return false;
  const expected = Buffer.from(createHmac("sha256", secret).update(body).digest("hex"));
  const actual = Buffer.from(header);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

// --- fixtures ------------------------------------------------------------------------

const receivers: Receiver[] = [];
const workers: WebhookWorker[] = [];
const owners: { partnerId: string; environment: Environment }[] = [];
const children: ChildProcess[] = [];

async function receiver(reply?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(reply);
  receivers.push(r);
  return r;
}

async function worker(partnerIds: string[], options: WorkerOptions = {}) {
  const w = await startWebhookWorker({ partnerIds, log: quiet, ...options });
  workers.push(w);
  return w;
}

/** A signed PUT /webhooks; each call signs with a fresh credential, so the write rate limit never interferes. */
async function register(partnerId: string, body: unknown, environment: Environment = "sandbox") {
  const credential = await addCredential(partnerId, environment, ["webhook"]);
  owners.push({ partnerId, environment });
  return callRoute(webhooksRoute.PUT, { method: "PUT", url: WEBHOOKS, credential, body });
}

async function call(handler: typeof webhooksRoute.GET, method: string, partnerId: string, environment: Environment = "sandbox") {
  const credential = await addCredential(partnerId, environment, ["webhook"]);
  return callRoute(handler, { method, url: WEBHOOKS, credential });
}

/** A partner whose sandbox endpoint points at `target`. */
async function partnerWithEndpoint(target: Receiver, secret = `whsec-${Math.random().toString(36).slice(2)}-0123456789`) {
  const { partnerId } = await createTestPartner();
  const res = await register(partnerId, { url: target.url, secret });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return { partnerId, secret };
}

let orderNo = 0;
async function emit(partnerId: string, environment: Environment = "sandbox", type: "order.recorded" | "brokerage.case_completed" = "order.recorded") {
  orderNo++;
  return recordEvent(getDb(), {
    partnerId,
    environment,
    type,
    data: { order: { public_id: `ord_test${orderNo}`, domain: `hook${orderNo}.com`, status: "EXTERNALLY_PAID", sale_price_cents: 1000 + orderNo, currency: "USD" } },
  });
}

async function deliveriesOf(eventIds: string[]) {
  return getDb().select().from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, eventIds));
}

async function attemptsOf(deliveryId: string) {
  return getDb().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(asc(webhookAttempts.id));
}

async function waitForDelivery(eventId: string, status: string, timeoutMs = 15_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await deliveriesOf([eventId]);
    if (row?.status === status) return row;
    if (Date.now() > deadline) throw new Error(`delivery of ${eventId} is ${row?.status ?? "missing"}, expected ${status}`);
    await sleep(20);
  }
}

function assertValidationError(res: { status: number; body: Record<string, unknown> }, path: string, message: RegExp) {
  assert.equal(res.status, 400, JSON.stringify(res.body));
  const error = (res.body as { error: { code: string; message: string; details?: { path: string; message: string }[] } }).error;
  assert.equal(error.code, "validation_error");
  assert.equal(error.details?.[0]?.path, path, JSON.stringify(error));
  assert.match(error.details?.[0]?.message ?? "", message);
  assert.match(error.message, message);
}

afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  clock.reset();
});

after(async () => {
  // Leave nothing for a later worker on this database to retry.
  for (const owner of owners) await disableWebhookEndpoint(getDb(), owner, { type: "system" }).catch(() => {});
  await Promise.all(receivers.map((r) => r.close()));
  await closeDb();
});

// --- registration ----------------------------------------------------------------------

describe("webhook registration", () => {
  describe("with private targets refused (the default)", () => {
    before(() => {
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
      resetEnv();
    });
    after(() => {
      process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
      resetEnv();
    });

    it("refuses malformed URLs and secrets with a message naming the field", async () => {
      const { partnerId } = await createTestPartner();
      const secret = "a-good-secret-0123456789";
      assertValidationError(await register(partnerId, { url: "not a url", secret }), "url", /absolute URL/);
      assertValidationError(await register(partnerId, { url: "ftp://93.184.215.14/hooks", secret }), "url", /https/);
      assertValidationError(await register(partnerId, { url: "https://user:pw@93.184.215.14/hooks", secret }), "url", /username or password/);
      assertValidationError(await register(partnerId, { url: "https://93.184.215.14/hooks#x", secret }), "url", /fragment/);
      assertValidationError(await register(partnerId, { url: "https://no-such-host.invalid/hooks", secret }), "url", /could not be resolved/);
      assertValidationError(await register(partnerId, { url: `https://93.184.215.14/${"a".repeat(2100)}`, secret }), "url", /2048/);
      assertValidationError(await register(partnerId, { secret }), "url", /required/);
      assertValidationError(await register(partnerId, { url: "https://93.184.215.14/hooks" }), "secret", /required/);
      assertValidationError(await register(partnerId, { url: "https://93.184.215.14/hooks", secret: "short" }), "secret", /at least 16/);
      assertValidationError(await register(partnerId, { url: "https://93.184.215.14/hooks", secret: "x".repeat(257) }), "secret", /at most 256/);
      const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.partnerId, partnerId));
      assert.equal(row, undefined, "nothing was registered");
    });

    it("refuses private, loopback, link-local, CGNAT, multicast and mapped addresses, by literal or by name", async () => {
      const { partnerId } = await createTestPartner();
      const secret = "a-good-secret-0123456789";
      const refused: [string, RegExp][] = [
        ["http://127.0.0.1:8080/hooks", /127\.0\.0\.1 is a loopback address/],
        ["http://localhost:8080/hooks", /localhost resolves to 127\.0\.0\.1, which is a loopback address/],
        ["http://0x7f000001/hooks", /loopback/],
        ["http://10.1.2.3/hooks", /private address/],
        ["http://192.168.0.10/hooks", /private address/],
        ["http://172.20.0.1/hooks", /private address/],
        ["http://169.254.169.254/latest/meta-data", /link-local/],
        ["http://100.64.1.1/hooks", /carrier-grade NAT/],
        ["http://224.0.0.1/hooks", /multicast/],
        ["http://0.0.0.0/hooks", /unspecified/],
        ["http://[::1]/hooks", /loopback/],
        ["http://[::ffff:127.0.0.1]/hooks", /IPv4-mapped/],
        ["http://[fd00::1]/hooks", /unique-local/],
        ["http://[fe80::1]/hooks", /link-local/],
      ];
      for (const [url, message] of refused) {
        const res = await register(partnerId, { url, secret });
        assertValidationError(res, "url", message);
        assert.match((res.body as { error: { message: string } }).error.message, /webhooks can only target public addresses/, url);
      }
    });

    it("requires https for live credentials and accepts http in sandbox", async () => {
      const { partnerId } = await createTestPartner();
      const secret = "a-good-secret-0123456789";
      assertValidationError(await register(partnerId, { url: "http://93.184.215.14/hooks", secret }, "live"), "url", /https for live/);
      assert.equal((await register(partnerId, { url: "https://93.184.215.14/hooks", secret }, "live")).status, 200);
      assert.equal((await register(partnerId, { url: "http://93.184.215.14/hooks", secret }, "sandbox")).status, 200);
    });
  });

  it("registers and replaces the one endpoint, seals the secret and never returns it", async () => {
    const { partnerId } = await createTestPartner();
    const secret = "first-secret-0123456789-abcdef";
    const first = await register(partnerId, { url: "https://93.184.215.14/hooks", secret });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.deepEqual(Object.keys(first.body).sort(), ["active", "created_at", "updated_at", "url"]);
    assert.equal(first.body.url, "https://93.184.215.14/hooks");
    assert.equal(first.body.active, true);
    assert.ok(!JSON.stringify(first.body).includes(secret));

    const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.partnerId, partnerId));
    assert.ok(row);
    assert.ok(!row.secretSealed.includes(secret), "stored sealed, not in clear");
    assert.equal(openSecret(row.secretSealed, webhookSecretContext({ partnerId, environment: "sandbox" })), secret);
    assert.throws(() => openSecret(row.secretSealed, webhookSecretContext({ partnerId, environment: "live" })), "bound to its partner and environment");

    const newSecret = "second-secret-0123456789-abcdef";
    const second = await register(partnerId, { url: "http://93.184.215.14/v2/hooks?x=1", secret: newSecret });
    assert.equal(second.status, 200);
    assert.equal(second.body.url, "http://93.184.215.14/v2/hooks?x=1");
    assert.equal(second.body.created_at, first.body.created_at, "replacing keeps the registration date");
    const rows = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.partnerId, partnerId));
    assert.equal(rows.length, 1, "one endpoint per partner and environment");
    assert.equal(rows[0]?.id, row.id);
    assert.equal(openSecret(rows[0]?.secretSealed ?? "", webhookSecretContext({ partnerId, environment: "sandbox" })), newSecret);

    const read = await call(webhooksRoute.GET, "GET", partnerId);
    assert.equal(read.status, 200);
    assert.deepEqual(read.body, second.body);

    const disabled = await call(webhooksRoute.DELETE, "DELETE", partnerId);
    assert.equal(disabled.status, 200);
    assert.equal(disabled.body.active, false);
    assert.equal((await call(webhooksRoute.DELETE, "DELETE", partnerId)).status, 200, "repeating is harmless");
    assert.equal((await call(webhooksRoute.GET, "GET", partnerId)).body.active, false);
    assert.equal((await register(partnerId, { url: "https://93.184.215.14/hooks", secret })).body.active, true);

    const audit = await getDb().select().from(auditLog).where(and(eq(auditLog.partnerId, partnerId), eq(auditLog.targetType, "webhook_endpoint")));
    assert.ok(audit.length >= 4);
    assert.ok(!JSON.stringify(audit).includes(secret) && !JSON.stringify(audit).includes(newSecret), "the audit log holds no secret");
  });

  it("keeps sandbox and live endpoints apart, and another partner's endpoint invisible", async () => {
    const { partnerId } = await createTestPartner();
    const other = await createTestPartner();
    await register(partnerId, { url: "http://93.184.215.14/sandbox", secret: "sandbox-secret-0123456789" });
    assert.equal((await call(webhooksRoute.GET, "GET", partnerId, "live")).status, 404);
    await register(partnerId, { url: "https://93.184.215.14/live", secret: "live-secret-0123456789-abc" }, "live");
    assert.equal((await call(webhooksRoute.GET, "GET", partnerId, "live")).body.url, "https://93.184.215.14/live");
    assert.equal((await call(webhooksRoute.GET, "GET", partnerId, "sandbox")).body.url, "http://93.184.215.14/sandbox");
    const missing = await call(webhooksRoute.GET, "GET", other.partnerId);
    assert.equal(missing.status, 404);
    assert.equal((missing.body as { error: { code: string } }).error.code, "not_found");
  });

  it("accepts a loopback receiver when WEBHOOK_ALLOW_PRIVATE_TARGETS is true", async () => {
    const { partnerId } = await createTestPartner();
    const res = await register(partnerId, { url: "http://127.0.0.1:9/hooks", secret: "loopback-secret-0123456789" });
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
});

// --- delivery ------------------------------------------------------------------------------

describe("webhook delivery", () => {
  it("POSTs the event with a signature the receiver verifies using the partner's secret", async () => {
    const target = await receiver();
    const { partnerId, secret } = await partnerWithEndpoint(target);
    await worker([partnerId]);
    const sentAt = Math.floor(Date.now() / 1000);
    const event = await emit(partnerId);

    const [request] = await target.waitFor(1);
    assert.ok(request);
    assert.equal(request.path, "/hooks");
    assert.ok(signatureValid(secret, request.body, request.headers["x-service-signature"]), "signature verifies with the partner's secret");
    assert.ok(!signatureValid("some-other-secret-0123456789", request.body, request.headers["x-service-signature"]));
    assert.match(String(request.headers["x-service-signature"]), /^[0-9a-f]{64}$/, "lowercase hex, no v1= prefix");
    assert.equal(request.headers["x-service-event-id"], event.id);
    assert.match(String(request.headers["x-service-timestamp"]), /^\d{10}$/, "Unix seconds");
    assert.ok(Math.abs(Number(request.headers["x-service-timestamp"]) - sentAt) <= 5);
    assert.match(String(request.headers["content-type"]), /^application\/json/);
    const [stored] = await getDb().select().from(events).where(eq(events.id, event.id));
    assert.ok(stored);
    assert.deepEqual(JSON.parse(request.body), serializeEvent(stored));
    assert.deepEqual(Object.keys(JSON.parse(request.body)), ["id", "type", "created_at", "partner_id", "data"]);

    const delivery = await waitForDelivery(event.id, "succeeded");
    assert.equal(delivery.attemptCount, 1);
    assert.equal(delivery.nextAttemptAt, null);
    const attempts = await attemptsOf(delivery.id);
    assert.equal(attempts.length, 1);
    assert.equal(attempts[0]?.responseStatus, 200);
    assert.equal(attempts[0]?.responseBody, "ok");
    assert.equal(attempts[0]?.url, target.url);
    assert.ok((attempts[0]?.latencyMs ?? -1) >= 0);
  });

  it("retries after 500s on the configured schedule, then succeeds", async () => {
    const target = await receiver((_, index) => ({ status: index < 2 ? 500 : 204 }));
    const { partnerId } = await partnerWithEndpoint(target);
    await worker([partnerId]);
    const event = await emit(partnerId);

    const requests = await target.waitFor(3);
    const delivery = await waitForDelivery(event.id, "succeeded");
    assert.deepEqual(requests.map((r) => r.headers["x-service-event-id"]), [event.id, event.id, event.id]);
    assert.equal(new Set(requests.map((r) => r.body)).size, 1, "the same body every time");
    const gaps = requests.slice(1).map((r, i) => r.at - (requests[i] as Received).at);
    assert.ok((gaps[0] ?? 0) >= 90, `first retry after ~100 ms (was ${gaps[0]} ms)`);
    assert.ok((gaps[1] ?? 0) >= 190, `second retry after ~200 ms (was ${gaps[1]} ms)`);
    assert.equal(delivery.attemptCount, 3);
    const attempts = await attemptsOf(delivery.id);
    assert.deepEqual(attempts.map((a) => a.responseStatus), [500, 500, 204]);
  });

  it("marks the delivery failed once the schedule is used up, and replays it on request", async () => {
    let answer = 503;
    const target = await receiver(() => ({ status: answer }));
    const { partnerId } = await partnerWithEndpoint(target);
    await worker([partnerId]);
    const event = await emit(partnerId);

    const failed = await waitForDelivery(event.id, "failed");
    assert.equal(target.received.length, 3, "the first attempt and one per scheduled delay");
    assert.equal(failed.attemptCount, 3);
    assert.equal(failed.lastError, "HTTP 503");
    assert.equal(failed.nextAttemptAt, null);
    await sleep(400);
    assert.equal(target.received.length, 3, "nothing more after failing");

    answer = 200;
    await replayDelivery(getDb(), { deliveryId: failed.id, owner: { partnerId, environment: "sandbox" } });
    const replayed = await waitForDelivery(event.id, "succeeded");
    assert.equal(replayed.attemptCount, 1, "a replay starts the schedule afresh");
    assert.equal(target.received.length, 4);
    assert.deepEqual((await attemptsOf(failed.id)).map((a) => a.responseStatus), [503, 503, 503, 200]);

    await assert.rejects(replayDelivery(getDb(), { deliveryId: failed.id, owner: { partnerId: "ptn_other", environment: "sandbox" } }), /not found/);
    await replayEvent(getDb(), { partnerId, environment: "sandbox", eventId: event.id });
    await target.waitFor(5);
    await waitForDelivery(event.id, "succeeded");
  });

  it("counts a receiver that does not answer in time as a failed attempt", async () => {
    assert.equal(DEFAULT_TIMEOUT_MS, 5000, "receivers get 5 s by default");
    const target = await receiver((_, index) => (index === 0 ? { hang: true } : {}));
    const { partnerId } = await partnerWithEndpoint(target);
    await worker([partnerId], { timeoutMs: 300 });
    const event = await emit(partnerId);

    const delivery = await waitForDelivery(event.id, "succeeded");
    const attempts = await attemptsOf(delivery.id);
    assert.equal(attempts.length, 2);
    assert.equal(attempts[0]?.responseStatus, null);
    assert.match(attempts[0]?.error ?? "", /no response within 300 ms/);
    assert.ok((attempts[0]?.latencyMs ?? 0) >= 290);
    assert.equal(attempts[1]?.responseStatus, 200);
  });

  it("sends one request per attempt when the receiver resets a kept-alive connection after reading it", async () => {
    // The first request leaves a kept-alive socket; every later one is read, then reset.
    const target = await receiver((_, index) => (index === 0 ? {} : { reset: true }));
    const { partnerId } = await partnerWithEndpoint(target);
    await worker([partnerId]);
    const warm = await emit(partnerId);
    await waitForDelivery(warm.id, "succeeded");
    const event = await emit(partnerId);
    const failed = await waitForDelivery(event.id, "failed");
    const requests = target.received.filter((r) => r.headers["x-service-event-id"] === event.id);
    assert.equal(failed.attemptCount, 3);
    assert.equal(requests.length, 3, "one request per attempt, none resent within an attempt");
    assert.match(failed.lastError ?? "", /connection reset|socket hang up/);
  });

  it("does not follow redirects", async () => {
    const elsewhere = await receiver();
    const target = await receiver(() => ({ status: 307, headers: { location: elsewhere.url } }));
    const { partnerId } = await partnerWithEndpoint(target);
    await worker([partnerId]);
    const event = await emit(partnerId);
    const failed = await waitForDelivery(event.id, "failed");
    assert.equal(failed.lastError, "HTTP 307");
    assert.equal(elsewhere.received.length, 0);
  });

  it("delivers only to the event's own partner and environment", async () => {
    const targetA = await receiver();
    const targetB = await receiver();
    const a = await partnerWithEndpoint(targetA);
    const b = await partnerWithEndpoint(targetB);
    const { partnerId: noEndpoint } = await createTestPartner();
    await worker([a.partnerId, b.partnerId, noEndpoint]);

    const forA = [await emit(a.partnerId), await emit(a.partnerId)];
    const forB = [await emit(b.partnerId)];
    const liveA = await emit(a.partnerId, "live");
    const forNobody = await emit(noEndpoint);
    await targetA.waitFor(2);
    await targetB.waitFor(1);
    await sleep(300);

    assert.deepEqual(targetA.received.map((r) => r.headers["x-service-event-id"]).sort(), forA.map((e) => e.id).sort());
    assert.deepEqual(targetB.received.map((r) => r.headers["x-service-event-id"]), forB.map((e) => e.id));
    for (const r of targetA.received) assert.ok(signatureValid(a.secret, r.body, r.headers["x-service-signature"]));
    for (const r of targetB.received) {
      assert.ok(signatureValid(b.secret, r.body, r.headers["x-service-signature"]));
      assert.equal(JSON.parse(r.body).partner_id, b.partnerId);
    }
    assert.deepEqual(await deliveriesOf([liveA.id, forNobody.id]), [], "no endpoint, no delivery");
  });

  it("sends an endpoint's events one at a time in GET /events order", async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    const target = await receiver(() => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      setTimeout(() => inFlight--, 5);
      return { delayMs: 5 };
    });
    const { partnerId } = await partnerWithEndpoint(target);
    // A backlog recorded while no worker runs, then drained in small runs.
    const recorded = [];
    for (let i = 0; i < 25; i++) recorded.push(await emit(partnerId));
    await worker([partnerId], { runLength: 4 });
    await worker([partnerId], { runLength: 4 });
    await target.waitFor(25);
    const bySeq = await getDb().select({ id: events.id }).from(events).where(eq(events.partnerId, partnerId)).orderBy(asc(events.seq));
    assert.deepEqual(target.received.map((r) => r.headers["x-service-event-id"]), bySeq.map((e) => e.id));
    assert.equal(maxInFlight, 1, "never two requests to one endpoint at once");
  });

  it("refuses at delivery time a host that now resolves to a private address", async () => {
    const target = await receiver();
    const { partnerId } = await createTestPartner();
    // Registered while private targets were allowed; the worker runs with the protection on.
    const res = await register(partnerId, { url: `http://localhost:${target.port}/hooks`, secret: "ssrf-secret-0123456789-abc" });
    assert.equal(res.status, 200);
    const literal = await createTestPartner();
    await register(literal.partnerId, { url: target.url, secret: "ssrf-secret-0123456789-abc" });
    await worker([partnerId, literal.partnerId], { allowPrivateTargets: false, retrySchedule: [] });

    const byName = await emit(partnerId);
    const byLiteral = await emit(literal.partnerId);
    const failedByName = await waitForDelivery(byName.id, "failed");
    const failedByLiteral = await waitForDelivery(byLiteral.id, "failed");
    assert.match(failedByName.lastError ?? "", /localhost resolves to 127\.0\.0\.1, which is a loopback address/);
    assert.match(failedByLiteral.lastError ?? "", /127\.0\.0\.1 is a loopback address/);
    assert.equal((await attemptsOf(failedByName.id))[0]?.responseStatus, null);
    assert.equal(target.received.length, 0, "no request reached the receiver");
  });

  it("a worker killed mid-delivery loses nothing: after its lease another worker delivers the event", async () => {
    let firstArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (firstArrived = resolve));
    const target = await receiver((_, index) => {
      if (index === 0) {
        firstArrived();
        return { hang: true };
      }
      return {};
    });
    const { partnerId, secret } = await partnerWithEndpoint(target);
    const child = await spawnWorker(partnerId);

    const event = await emit(partnerId);
    await arrived;
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
    const [orphan] = await deliveriesOf([event.id]);
    assert.equal(orphan?.status, "delivering", "claimed by the dead worker");
    assert.equal(orphan?.attemptCount, 1);

    const survivor = await worker([partnerId]);
    await sleep(300);
    assert.equal(target.received.length, 1, "not sent again while the dead worker's lease runs");
    clock.advance(31_000); // the 30 s lease runs out
    survivor.wake();
    const delivery = await waitForDelivery(event.id, "succeeded");
    assert.equal(target.received.length, 2);
    assert.equal(target.received[1]?.headers["x-service-event-id"], event.id);
    assert.ok(signatureValid(secret, target.received[1]?.body ?? "", target.received[1]?.headers["x-service-signature"]));
    assert.equal(delivery.attemptCount, 2, "the lost attempt counts");
    assert.deepEqual((await attemptsOf(delivery.id)).map((a) => a.responseStatus), [200], "only the completed attempt is logged");
  });

  it("several workers at once never send the same delivery twice", async () => {
    // Three workers (one of them another process) race for every event: each
    // commit wakes all of them at once.
    const targets = await Promise.all(Array.from({ length: 6 }, () => receiver(() => ({ delayMs: Math.floor(Math.random() * 4) }))));
    const partners = [];
    for (const t of targets) partners.push(await partnerWithEndpoint(t));
    const ids = partners.map((p) => p.partnerId);
    const child = await spawnWorker(...ids);
    const inProcess = [await worker(ids, { concurrency: 3, runLength: 2 }), await worker(ids, { concurrency: 3, runLength: 2 })];

    const emitted = [];
    for (let i = 0; i < 90; i++) {
      emitted.push(await emit(ids[i % ids.length] as string));
      if (i % 3 === 0) await sleep(2);
    }
    const total = () => targets.reduce((n, t) => n + t.received.length, 0);
    const deadline = Date.now() + 15_000;
    while (total() < emitted.length && Date.now() < deadline) await sleep(20);
    await sleep(300);
    child.kill("SIGTERM");

    const seen = targets.flatMap((t) => t.received.map((r) => String(r.headers["x-service-event-id"])));
    assert.equal(seen.length, emitted.length, "one request per event");
    assert.deepEqual([...new Set(seen)].sort(), emitted.map((e) => e.id).sort());
    const deliveries = await deliveriesOf(emitted.map((e) => e.id));
    assert.ok(deliveries.every((d) => d.status === "succeeded" && d.attemptCount === 1));
    const attempts = await getDb().select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveries.map((d) => d.id)));
    assert.equal(attempts.length, emitted.length);
    const shares = inProcess.map((w) => w.stats.attempts);
    shares.push(emitted.length - (shares[0] ?? 0) - (shares[1] ?? 0)); // the child's
    assert.ok(shares.filter((n) => n > 0).length >= 2, `the workers really competed (shares ${shares.join(", ")})`);
  });
});

/** `npm run worker` in a child process, serving only these partners; resolves once it is listening. */
async function spawnWorker(...partnerIds: string[]): Promise<ChildProcess> {
  const args = ["--import", "tsx", "scripts/worker.ts", ...partnerIds.flatMap((id) => ["--partner", id])];
  const child = spawn(process.execPath, args, { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("webhook worker started")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.once("exit", (code) => reject(new Error(`worker exited with ${code}: ${output}`)));
  });
  return child;
}
