import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { after, afterEach, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { events, webhookDeliveries, webhookEndpoints } from "@/db/schema";
import { clock } from "@/server/clock";
import { resetEnv } from "@/server/env";
import { recordEvent } from "@/server/services/events";
import { serializeOrderSummary } from "@/server/services/order-states";
import {
  AUTO_DISABLE_AFTER_MS,
  enableEndpoint,
  listDeliveries,
  resendFailed,
  revealEndpointSecret,
  rollEndpointSecret,
  sendTestEvent,
  setEndpointUrl,
} from "@/server/services/webhook-console";
import { verifyWebhookSignature, signWebhookBody } from "@/server/webhooks/signing";
import { startWebhookWorker, type WebhookWorker } from "@/server/webhooks/worker";
import { createTestPartner } from "../helpers/partner";

// The dashboard's webhook tools against a real receiver on 127.0.0.1: generated
// secrets revealed and rolled with a grace (both signatures on each delivery),
// test events built by the real serializers, resending a window without
// duplicates, and auto-disable after sustained failure with re-enable + resend.

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
resetEnv();

const actor = { type: "partner" as const };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
let worker: WebhookWorker | undefined;

after(closeDb);
afterEach(async () => {
  await worker?.stop();
  worker = undefined;
  clock.reset();
});

async function receiver() {
  const received: { headers: http.IncomingHttpHeaders; body: string }[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status).end(status === 200 ? "ok" : "receiver down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    setStatus: (s: number) => (status = s),
  };
}

async function setup() {
  const { partnerId } = await createTestPartner({ scopes: ["webhook"] });
  const owner = { partnerId, environment: "sandbox" as const };
  const hook = await receiver();
  await setEndpointUrl(getDb(), { ...owner, url: hook.url }, actor);
  worker = await startWebhookWorker({ partnerIds: [partnerId], pollMs: 50, retrySchedule: [60_000], log: () => {} });
  return { owner, hook };
}

// A delivery takes milliseconds; the deadline only ends a wait that would never end (15 s:
// other test files and the build may run beside this one on two cores).
async function waitFor<T>(probe: () => Promise<T | undefined | false>, what: string, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

describe("webhook console", () => {
  it("a test event is built by the real serializer, delivered and verifiable with the revealed secret", async () => {
    const { owner, hook } = await setup();
    const { secret } = await revealEndpointSecret(getDb(), owner, actor);
    assert.match(secret, /^whsec_[0-9A-Za-z]{40}$/);
    const event = await sendTestEvent(getDb(), { ...owner, type: "order.transfer_started" }, actor);
    const got = await waitFor(async () => hook.received[0], "the test delivery");
    const body = JSON.parse(got.body) as { id: string; data: { test: boolean; order: Record<string, unknown> } };
    assert.equal(body.id, event.id);
    assert.equal(body.data.test, true);
    const order = body.data.order;
    const real = serializeOrderSummary({ id: "x", domain: "x", status: "PAID", salePriceCents: 1, currency: "USD" });
    assert.deepEqual(Object.keys(order).sort(), Object.keys(real).sort(), "the same shape as a real order event");
    assert.equal(order.status, "TRANSFER_IN_PROGRESS");
    assert.ok(verifyWebhookSignature(secret, got.body, got.headers["x-service-signature"] as string));
    const log = await waitFor(async () => {
      const page = await listDeliveries(getDb(), { ...owner, limit: 10 });
      return page.deliveries[0]?.status === "succeeded" && page;
    }, "the delivery to be recorded");
    assert.equal(log.deliveries[0]?.responseStatus, 200);
    assert.equal(log.deliveries[0]?.type, "order.transfer_started");
  });

  it("during a secret roll's grace each delivery carries both signatures; after it only the new one", async () => {
    const { owner, hook } = await setup();
    const { secret: old } = await revealEndpointSecret(getDb(), owner, actor);
    const rolled = await rollEndpointSecret(getDb(), { ...owner, grace: "1h" }, actor);
    await sendTestEvent(getDb(), { ...owner, type: "order.paid" }, actor);
    const first = await waitFor(async () => hook.received[0], "a delivery in the grace");
    const header = first.headers["x-service-signature"] as string;
    assert.deepEqual(header.split(","), [signWebhookBody(rolled.secret, first.body), signWebhookBody(old, first.body)]);
    assert.ok(verifyWebhookSignature(old, first.body, header), "a receiver still on the old secret verifies");
    assert.ok(verifyWebhookSignature(rolled.secret, first.body, header), "a receiver on the new secret verifies");

    clock.advance(3_600_000 + 1000);
    await sendTestEvent(getDb(), { ...owner, type: "order.paid" }, actor);
    const second = await waitFor(async () => hook.received[1], "a delivery after the grace");
    assert.equal(second.headers["x-service-signature"], signWebhookBody(rolled.secret, second.body));
  });

  it("resending a window sends each failed delivery once, however often it is pressed", async () => {
    const { owner, hook } = await setup();
    hook.setStatus(500);
    const from = new Date(clock.nowMs() - 1000);
    await sendTestEvent(getDb(), { ...owner, type: "order.paid" }, actor);
    // Pending with an attempt made: the delivery is pending from the start, before the worker tries it.
    const [failed] = await waitFor(async () => {
      const page = await listDeliveries(getDb(), { ...owner, status: "pending", limit: 5 });
      return page.deliveries.length > 0 && page.deliveries[0]!.attempts > 0 && page.deliveries;
    }, "the failed attempt to be recorded");
    assert.equal(hook.received.length, 1, "the failed attempt reached the receiver");
    // The retry is a minute away: mark it failed as the schedule's end would.
    await getDb().update(webhookDeliveries).set({ status: "failed", nextAttemptAt: null }).where(eq(webhookDeliveries.id, failed!.id));
    hook.setStatus(200);
    worker!.wake();
    const to = new Date(clock.nowMs() + 1000);
    const [once, twice] = await Promise.all([resendFailed(getDb(), { ...owner, from, to }, actor), resendFailed(getDb(), { ...owner, from, to }, actor)]);
    assert.equal(once.resent + twice.resent, 1, "two presses, one resend");
    await waitFor(async () => hook.received.length === 2, "the resend");
    await sleep(300);
    assert.equal(hook.received.length, 2, "no duplicate attempt");
    assert.equal((await resendFailed(getDb(), { ...owner, from, to }, actor)).resent, 0, "nothing failed any more");
  });

  it("an endpoint failing for 3 days is disabled with an event; re-enabling resends what failed meanwhile", async () => {
    const { owner, hook } = await setup();
    hook.setStatus(500);
    await sendTestEvent(getDb(), { ...owner, type: "order.paid" }, actor);
    const endpoint = await waitFor(async () => {
      const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.partnerId, owner.partnerId));
      return row?.failingSince ? row : undefined;
    }, "the failure run to start");

    clock.advance(AUTO_DISABLE_AFTER_MS + 60_000);
    await getDb().update(webhookDeliveries).set({ nextAttemptAt: clock.now() }).where(eq(webhookDeliveries.endpointId, endpoint.id));
    worker!.wake();
    const disabled = await waitFor(async () => {
      const [row] = await getDb().select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      return row && !row.active && row;
    }, "auto-disable");
    assert.equal(disabled.disabledReason, "failing");
    const [notice] = await getDb().select().from(events).where(and(eq(events.partnerId, owner.partnerId), eq(events.type, "webhook_endpoint.disabled")));
    assert.equal((notice?.data as { endpoint: { url: string } }).endpoint.url, hook.url);
    await assert.rejects(sendTestEvent(getDb(), { ...owner, type: "order.paid" }, actor), /disabled/);

    // An event while disabled gets no delivery; re-enabling with resend sends it and the failed one.
    await recordEvent(getDb(), { ...owner, type: "order.settled", data: { order: { public_id: "ord_x" } } });
    hook.setStatus(200);
    const before = hook.received.length;
    const enabled = await enableEndpoint(getDb(), { ...owner, resend: true }, actor);
    assert.equal(enabled.endpoint.active, true);
    assert.equal(enabled.resent, 3, "the failed order.paid, and order.settled and the disabled notice, both sent while it was off");
    worker!.wake();
    await waitFor(async () => hook.received.length >= before + 3, "the resends");
    const types = hook.received.slice(before).map((r) => (JSON.parse(r.body) as { type: string }).type).sort();
    assert.deepEqual(types, ["order.paid", "order.settled", "webhook_endpoint.disabled"]);
  });
});
