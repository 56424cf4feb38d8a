import assert from "node:assert/strict";
import { after, afterEach, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, credentials, requestLog, users } from "@/db/schema";
import * as availabilityRoute from "@/app/api/partner/v1/availability/route";
import * as quotesRoute from "@/app/api/partner/v1/quotes/route";
import { clock } from "@/server/clock";
import { normaliseCidrList, ipAllowed } from "@/server/http/cidr";
import { decideProductionAccess } from "@/server/services/account";
import { recordEvent } from "@/server/services/events";
import { rollKey, setKeyAllowList } from "@/server/services/keys";
import { revokeCredential } from "@/server/services/partners";
import { flushRequestLog, listRequests } from "@/server/services/request-log";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";
import { createCaller } from "@/server/trpc/routers/_app";
import type { SessionUser } from "@/server/auth/session";
import type { Environment } from "@/db/schema";
import { callRoute, createTestPartner } from "../helpers/partner";
import { randomIp } from "../helpers/public";
import { isCode } from "../helpers/trpc";

// The integration console against the real database: tRPC procedures scoped
// to the partner and environment, keys rolled with a grace, IP allow-lists, the
// request log and the sandbox signature debugger.

after(closeDb);
afterEach(() => clock.reset());

const AVAILABILITY = "/api/partner/v1/availability?domain=no-such-domain-zz.com";

async function partnerUser(partnerId: string, role: "owner" | "developer" | "viewer" = "owner"): Promise<SessionUser> {
  const db = getDb();
  const [row] = await db.select().from(users).where(eq(users.partnerId, partnerId));
  assert.ok(row);
  if (role !== "owner") await db.update(users).set({ partnerRole: role }).where(eq(users.id, row.id));
  return { id: row.id, email: row.email, name: row.name, role: "partner", partnerId, partnerRole: role };
}

function callerFor(user: SessionUser, environment: Environment = "sandbox") {
  return createCaller({ db: getDb(), user, environment });
}

async function call(credential: PartnerCredentials, ip = randomIp(), url = AVAILABILITY) {
  return callRoute(availabilityRoute.GET, { url, credential, timestamp: clock.nowSeconds(), headers: { "x-client-ip": ip } });
}

async function loggedRequests(partnerId: string, environment: Environment = "sandbox") {
  await flushRequestLog();
  return (await listRequests(getDb(), { partnerId, environment, limit: 50 })).requests;
}

describe("keys: roll with a grace", () => {
  it("both secrets verify inside the grace; after it only the new one, and the debugger names the expired secret", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"] });
    const owner = { partnerId, environment: "sandbox" as const };
    const rolled = await rollKey(getDb(), { ...owner, keyId: credential.keyId, grace: "1h" }, { type: "partner" });
    const fresh = { keyId: credential.keyId, secret: rolled.secret };
    assert.notEqual(fresh.secret, credential.secret);
    assert.equal((await call(credential)).status, 200, "old secret inside the grace");
    assert.equal((await call(fresh)).status, 200, "new secret");

    clock.advance(3_600_000 + 1000);
    const late = await call(credential);
    assert.equal(late.status, 401);
    assert.equal((late.body as { error: { code: string } }).error.code, "invalid_signature");
    assert.equal((await call(fresh)).status, 200);
    const log = await loggedRequests(partnerId);
    const refused = log.find((r) => r.status === 401);
    assert.ok(refused?.hasDebug);
    const detail = await callerFor(await partnerUser(partnerId)).requests.get({ id: refused.id });
    assert.equal(detail.debug?.failed, "expired_secret");
  });

  it("rolling again ends the first grace; revoking ends any grace", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"] });
    const owner = { partnerId, environment: "sandbox" as const, keyId: credential.keyId };
    const second = await rollKey(getDb(), { ...owner, grace: "24h" }, { type: "partner" });
    const third = await rollKey(getDb(), { ...owner, grace: "24h" }, { type: "partner" });
    assert.equal((await call(credential)).status, 401, "the original secret is gone after a second roll");
    assert.equal((await call({ keyId: credential.keyId, secret: second.secret })).status, 200, "the one just rolled out is in its grace");
    assert.equal((await call({ keyId: credential.keyId, secret: third.secret })).status, 200);
    const none = await rollKey(getDb(), { ...owner, grace: "none" }, { type: "partner" });
    assert.equal((await call({ keyId: credential.keyId, secret: third.secret })).status, 401, "grace none: the previous secret stops at once");
    await revokeCredential(getDb(), { keyId: credential.keyId });
    assert.equal((await call({ keyId: credential.keyId, secret: none.secret })).status, 401);
    const audit = await getDb().select().from(auditLog).where(eq(auditLog.targetId, credential.keyId));
    assert.equal(audit.filter((a) => a.action === "credential.rolled").length, 3);
    assert.ok(!JSON.stringify(audit).includes(none.secret), "no secret in the audit log");
  });
});

describe("keys: IP allow-lists", () => {
  it("normalises CIDR lists and refuses bad entries clearly", () => {
    assert.deepEqual(normaliseCidrList("203.0.113.0/24, 198.51.100.7\n2001:db8::/32"), ["203.0.113.0/24", "198.51.100.7/32", "2001:db8::/32"]);
    assert.throws(() => normaliseCidrList("203.0.113.0/33"), /prefix length must be 0-32/);
    assert.throws(() => normaliseCidrList("example.com"), /not an IP address/);
    assert.ok(ipAllowed("203.0.113.200", ["203.0.113.0/24"]));
    assert.ok(!ipAllowed("203.0.114.1", ["203.0.113.0/24"]));
    assert.ok(ipAllowed("2001:db8::1", ["2001:db8::/32"]));
    assert.ok(!ipAllowed("unknown", ["0.0.0.0/0"]));
  });

  it("a request from outside the list is 403 ip_not_allowed; from inside it passes", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"] });
    await setKeyAllowList(getDb(), { partnerId, environment: "sandbox", keyId: credential.keyId, allowedCidrs: ["203.0.113.0/24"] }, { type: "partner" });
    const refused = await call(credential, "198.51.100.7");
    assert.equal(refused.status, 403);
    assert.equal((refused.body as { error: { code: string } }).error.code, "ip_not_allowed");
    assert.equal((await call(credential, "203.0.113.9")).status, 200);
    const log = await loggedRequests(partnerId);
    assert.ok(log.some((r) => r.errorCode === "ip_not_allowed" && r.clientIp === "198.51.100.7"));
    const [row] = await getDb().select().from(credentials).where(eq(credentials.keyId, credential.keyId));
    assert.equal(row?.lastUsedIp, "203.0.113.9", "last use records the address");
  });
});

describe("request log and signature debugger", () => {
  it("logs every request of a known key with status, error code, latency and address", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"] });
    await call(credential, "198.51.100.20");
    await call({ keyId: credential.keyId, secret: "sk_sandbox_wrong" }, "198.51.100.21");
    const log = await loggedRequests(partnerId);
    assert.equal(log.length, 2);
    const [bad, good] = log;
    assert.equal(good?.status, 200);
    assert.equal(good?.path, "/api/partner/v1/availability");
    assert.equal(good?.clientIp, "198.51.100.20");
    assert.equal(bad?.status, 401);
    assert.equal(bad?.errorCode, "invalid_signature");
    assert.match(bad?.requestId ?? "", /^req_/);
    const only4xx = await listRequests(getDb(), { partnerId, environment: "sandbox", status: "4xx", limit: 10 });
    assert.deepEqual(only4xx.requests.map((r) => r.status), [401]);
  });

  it("explains an empty-body signature, a raw query, a skewed clock and a reused nonce", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search", "buy"] });
    const ip = randomIp();
    // Body sent, but signed as if empty.
    const body = JSON.stringify({ domain: "no-such-domain-zz.com" });
    const headers = signRequest(credential, { method: "POST", url: "/api/partner/v1/quotes", timestamp: clock.nowSeconds() });
    await callRoute(quotesRoute.POST, { method: "POST", url: "/api/partner/v1/quotes", body, headers: { ...headers, "x-client-ip": ip } });
    // Query signed as sent (unsorted), not canonical.
    const url = "/api/partner/v1/availability?domain=no-such-domain-zz.com&a=1";
    const { createHmac, createHash } = await import("node:crypto");
    const ts = String(clock.nowSeconds());
    const raw = ["GET", "/api/partner/v1/availability", "domain=no-such-domain-zz.com&a=1", ts, "n-raw-query", createHash("sha256").update("").digest("hex")].join("\n");
    const signature = `v1=${createHmac("sha256", credential.secret).update(raw).digest("hex")}`;
    await callRoute(availabilityRoute.GET, {
      url,
      headers: { "x-service-key-id": credential.keyId, "x-service-timestamp": ts, "x-service-nonce": "n-raw-query", "x-service-signature": signature, "x-client-ip": ip },
    });
    // Ten minutes ahead.
    await callRoute(availabilityRoute.GET, { url: AVAILABILITY, credential, timestamp: clock.nowSeconds() + 600, headers: { "x-client-ip": ip } });
    // The same nonce twice.
    await callRoute(availabilityRoute.GET, { url: AVAILABILITY, credential, timestamp: clock.nowSeconds(), nonce: "n-twice", headers: { "x-client-ip": ip } });
    await callRoute(availabilityRoute.GET, { url: AVAILABILITY, credential, timestamp: clock.nowSeconds(), nonce: "n-twice", headers: { "x-client-ip": ip } });

    const caller = callerFor(await partnerUser(partnerId));
    const log = await loggedRequests(partnerId);
    const failed = new Map<string, string>();
    for (const entry of log.filter((r) => r.hasDebug)) {
      const detail = await caller.requests.get({ id: entry.id });
      failed.set(detail.debug!.failed, detail.debug!.canonicalString ?? "");
    }
    assert.deepEqual([...failed.keys()].sort(), ["body_hash", "nonce_reuse", "query", "timestamp_skew"]);
    assert.match(failed.get("query")!, /^GET\n\/api\/partner\/v1\/availability\na=1&domain=no-such-domain-zz.com\n/, "the server's canonical string is shown");
  });

  it("never records debugging details for live keys", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"], environment: "live" });
    await call({ keyId: credential.keyId, secret: "sk_live_wrong" });
    await flushRequestLog();
    const [row] = await getDb().select().from(requestLog).where(eq(requestLog.keyId, credential.keyId));
    assert.equal(row?.status, 401);
    assert.equal(row?.debug, null);
    const detail = await callerFor(await partnerUser(partnerId), "live").requests.get({ id: row!.id });
    assert.equal(detail.debug, null);
  });
});

describe("tRPC procedures are scoped to the partner and environment", () => {
  it("another partner's key, endpoint delivery, event and request log entry are not found", async () => {
    const a = await createTestPartner({ scopes: ["search"] });
    const b = await createTestPartner({ scopes: ["search"] });
    const asA = callerFor(await partnerUser(a.partnerId));
    const asB = callerFor(await partnerUser(b.partnerId));
    await call(b.credential);
    const [bRequest] = await loggedRequests(b.partnerId);
    assert.ok(bRequest);
    const bEvent = await recordEvent(getDb(), { partnerId: b.partnerId, environment: "sandbox", type: "order.paid", data: {} });

    await assert.rejects(asA.keys.revoke({ keyId: b.credential.keyId }), isCode("not_found"));
    await assert.rejects(asA.keys.roll({ keyId: b.credential.keyId, grace: "1h" }), isCode("not_found"));
    await assert.rejects(asA.requests.get({ id: bRequest.id }), isCode("not_found"));
    await assert.rejects(asA.events.get({ id: bEvent.id }), isCode("not_found"));
    await assert.rejects(asA.webhooks.delivery({ id: `whd_${bEvent.id.slice(4)}_x` }), isCode("not_found"));
    assert.ok(!(await asA.keys.list()).some((k) => k.keyId === b.credential.keyId));
    assert.equal((await asB.keys.list()).length, 1);
    assert.equal((await asB.events.get({ id: bEvent.id })).event.id, bEvent.id);

    // The same partner's other environment is another scope too.
    const bLive = callerFor(await partnerUser(b.partnerId), "live");
    await assert.rejects(bLive.keys.revoke({ keyId: b.credential.keyId }), isCode("not_found"));
    await assert.rejects(bLive.events.get({ id: bEvent.id }), isCode("not_found"));
  });

  it("a viewer reads but cannot change anything", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"] });
    const viewer = callerFor(await partnerUser(partnerId, "viewer"));
    assert.equal((await viewer.keys.list()).length, 1);
    const attempts = [
      viewer.keys.create({ name: "x", scopes: ["search"], allowedCidrs: "" }),
      viewer.keys.roll({ keyId: credential.keyId, grace: "none" }),
      viewer.keys.revoke({ keyId: credential.keyId }),
      viewer.keys.setAllowList({ keyId: credential.keyId, allowedCidrs: "" }),
      viewer.webhooks.setUrl({ url: "https://example.com/hooks" }),
      viewer.webhooks.revealSecret(),
      viewer.webhooks.sendTest({ type: "order.paid" }),
      viewer.webhooks.resendFailed({ from: new Date(0).toISOString(), to: new Date().toISOString() }),
      viewer.account.requestProductionAccess({ website: "https://example.com", useCase: "We resell domains to our hosting customers.", expectedMonthlyOrders: 10 }),
    ];
    for (const attempt of attempts) await assert.rejects(attempt, isCode("forbidden"));
    const [row] = await getDb().select().from(credentials).where(eq(credentials.keyId, credential.keyId));
    assert.equal(row?.revokedAt, null, "nothing changed");
  });

  it("keys.create validates scopes and the allow-list, and issues live keys only after approval", async () => {
    const { partnerId } = await createTestPartner({ scopes: ["search"] });
    const owner = await partnerUser(partnerId);
    const sandbox = callerFor(owner);
    await assert.rejects(sandbox.keys.create({ name: "x", scopes: [], allowedCidrs: "" }), isCode("validation_error"));
    await assert.rejects(sandbox.keys.create({ name: "x", scopes: ["search"], allowedCidrs: "10.0.0.0/40" }), isCode("validation_error"));
    const key = await sandbox.keys.create({ name: "Server", scopes: ["search"], allowedCidrs: "203.0.113.0/24" });
    assert.match(key.secret, /^sk_sandbox_/);
    const listed = (await sandbox.keys.list()).find((k) => k.keyId === key.keyId);
    assert.deepEqual(listed?.allowedCidrs, ["203.0.113.0/24"]);
    assert.equal(listed?.name, "Server");
  });
});

describe("production access", () => {
  it("one pending request at a time; staff approval grants live keys", async () => {
    const db = getDb();
    const { partnerId } = await createTestPartner({ scopes: ["search"] });
    const { partners } = await import("@/db/schema");
    await db.update(partners).set({ liveApprovedAt: null }).where(eq(partners.id, partnerId));
    const owner = callerFor(await partnerUser(partnerId));
    const input = { website: "https://reseller.example", useCase: "We resell premium domains to our hosting customers.", expectedMonthlyOrders: 40 };
    await assert.rejects(owner.account.requestProductionAccess({ ...input, website: "not a url" }), isCode("validation_error"));
    const request = await owner.account.requestProductionAccess(input);
    assert.equal(request.status, "pending");
    await assert.rejects(owner.account.requestProductionAccess(input), isCode("conflict"));
    await assert.rejects(callerFor(await partnerUser(partnerId), "live").keys.create({ name: "Live", scopes: ["search"], allowedCidrs: "" }), isCode("forbidden"));
    await decideProductionAccess(db, { requestId: request.id, decision: "approved" }, { type: "admin" });
    const org = await owner.account.organisation();
    assert.ok(org.liveApprovedAt);
    assert.equal(org.accessRequest?.status, "approved");
    const live = await callerFor(await partnerUser(partnerId), "live").keys.create({ name: "Live", scopes: ["search"], allowedCidrs: "" });
    assert.match(live.keyId, /^pk_live_/);
  });
});
