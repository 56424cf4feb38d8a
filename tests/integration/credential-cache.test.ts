import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "drizzle-orm";
import { GET } from "@/app/api/partner/v1/availability/route";
import { closeDb, getDb } from "@/db/client";
import { credentialCacheStats, FRESH_MS } from "@/server/auth/credential-cache";
import { rollKey, setKeyAllowList } from "@/server/services/keys";
import { reinstatePartner, suspendPartner } from "@/server/services/partner-standing";
import { revokeCredential } from "@/server/services/partners";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";
import { startGateServers, type ServerProcesses } from "@/reliability/lib/transport";
import { callRoute, createTestPartner } from "../helpers/partner";

// The credential cache across processes: this process and a second server process
// (tests/helpers/gate-server.ts, its own pool and cache) on one database. Each
// change the gate reads must be refused by the other process within one second,
// whether a service made it, plain SQL did, or the other process's listener was
// cut meanwhile.

const URL_PATH = "/api/partner/v1/availability?domain=cache-test.com";
const LIMIT_MS = 1000;
let other: ServerProcesses;
let base = "";

before(async () => {
  other = await startGateServers(1);
  base = other.urls[0]!;
});

after(async () => {
  await other.stop();
  await closeDb();
});

/** A freshly signed request to the other process. */
async function remote(credential: PartnerCredentials): Promise<{ status: number; code?: string }> {
  const response = await fetch(`${base}${URL_PATH}`, { headers: signRequest(credential, { method: "GET", url: URL_PATH }) });
  const body = (await response.json()) as { error?: { code: string } };
  return { status: response.status, code: body.error?.code };
}

async function remoteStats(): Promise<{ hits: number; loads: number; fresh: boolean }> {
  return (await fetch(`${base}/stats`)).json() as Promise<{ hits: number; loads: number; fresh: boolean }>;
}

/** Warms the other process's cache with this credential and checks that it now answers from it. */
async function warmRemote(credential: PartnerCredentials): Promise<void> {
  assert.equal((await remote(credential)).status, 200);
  // The first load may land before the listener has confirmed itself; wait until it is serving.
  for (let i = 0; i < 50 && !(await remoteStats()).fresh; i++) await new Promise((resolve) => setTimeout(resolve, 20));
  assert.equal((await remote(credential)).status, 200);
  const before = await remoteStats();
  assert.equal((await remote(credential)).status, 200);
  const afterStats = await remoteStats();
  assert.equal(afterStats.hits, before.hits + 1, "the other process answered from its cache");
}

/** Milliseconds until the other process gives `expected`, polling with freshly signed requests. */
async function untilRemote(credential: PartnerCredentials, expected: number, sinceMs: number): Promise<number> {
  for (;;) {
    const { status } = await remote(credential);
    const elapsed = performance.now() - sinceMs;
    if (status === expected) return elapsed;
    if (elapsed > 5000) assert.fail(`still ${status} after ${Math.round(elapsed)} ms (expected ${expected})`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("credential cache across two processes on one database", () => {
  it("a revoked key is refused by the other process within one second, and by this one at once", async () => {
    const { credential } = await createTestPartner({ scopes: ["search"] });
    await warmRemote(credential);
    assert.equal((await callRoute(GET, { url: URL_PATH, credential })).status, 200);
    const t0 = performance.now();
    await revokeCredential(getDb(), { keyId: credential.keyId });
    assert.equal((await callRoute(GET, { url: URL_PATH, credential })).status, 401, "this process forgets its own write at once");
    const elapsed = await untilRemote(credential, 401, t0);
    assert.ok(elapsed < LIMIT_MS, `refused after ${Math.round(elapsed)} ms`);
  });

  it("a roll without grace: the old secret is refused within one second, the new one verifies", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"] });
    await warmRemote(credential);
    const t0 = performance.now();
    const rolled = await rollKey(getDb(), { partnerId, environment: "sandbox", keyId: credential.keyId, grace: "none" }, { type: "partner" });
    const elapsed = await untilRemote(credential, 401, t0);
    assert.ok(elapsed < LIMIT_MS, `old secret refused after ${Math.round(elapsed)} ms`);
    assert.equal((await remote({ keyId: credential.keyId, secret: rolled.secret })).status, 200);
  });

  it("suspend and reinstate a partner reach the other process within one second", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"] });
    await warmRemote(credential);
    const t0 = performance.now();
    await suspendPartner(getDb(), { partnerId, reason: "cache test" }, { type: "system" });
    assert.ok((await untilRemote(credential, 403, t0)) < LIMIT_MS);
    assert.equal((await remote(credential)).code, "partner_suspended");
    const t1 = performance.now();
    await reinstatePartner(getDb(), { partnerId, reason: "cache test" }, { type: "system" });
    assert.ok((await untilRemote(credential, 200, t1)) < LIMIT_MS);
  });

  it("an IP allow-list change reaches the other process within one second", async () => {
    const { partnerId, credential } = await createTestPartner({ scopes: ["search"] });
    await warmRemote(credential);
    const t0 = performance.now();
    await setKeyAllowList(getDb(), { partnerId, environment: "sandbox", keyId: credential.keyId, allowedCidrs: ["203.0.113.0/24"] }, { type: "partner" });
    assert.ok((await untilRemote(credential, 403, t0)) < LIMIT_MS);
  });

  it("a change made in plain SQL, outside any service, reaches both processes within one second", async () => {
    const { credential } = await createTestPartner({ scopes: ["search"] });
    await warmRemote(credential);
    assert.equal((await callRoute(GET, { url: URL_PATH, credential })).status, 200);
    const t0 = performance.now();
    await getDb().execute(sql`update credentials set revoked_at = now() where key_id = ${credential.keyId}`);
    assert.ok((await untilRemote(credential, 401, t0)) < LIMIT_MS);
    for (;;) {
      if ((await callRoute(GET, { url: URL_PATH, credential })).status === 401) break;
      assert.ok(performance.now() - t0 < LIMIT_MS, "this process refuses it within one second too");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });

  it("with the other process's listener cut, a revocation still holds within one second", async () => {
    const { credential } = await createTestPartner({ scopes: ["search"] });
    await warmRemote(credential);
    // Cut the other process's LISTEN connection and revoke while it is down: the
    // notification is lost, so only the heartbeat's freshness rule can stop it.
    const t0 = performance.now();
    await getDb().execute(sql`
      select pg_terminate_backend(pid) from pg_stat_activity
      where application_name = 'partner-marketplace-listener' and pid <> pg_backend_pid()
        and datname = current_database() and client_port is not null
        and backend_start < now()`);
    await getDb().execute(sql`update credentials set revoked_at = now() where key_id = ${credential.keyId}`);
    assert.ok((await untilRemote(credential, 401, t0)) < LIMIT_MS);
    // And it recovers: LISTEN again, cache serving again.
    const other = await createTestPartner({ scopes: ["search"] });
    await warmRemote(other.credential);
  });

  it("never stores an unknown key, and serves only while the listener is confirmed fresh", async () => {
    const loadsBefore = credentialCacheStats().entries;
    const unknown = { keyId: "pk_sandbox_" + "x".repeat(24), secret: "sk_sandbox_nope" };
    assert.equal((await callRoute(GET, { url: URL_PATH, credential: unknown })).status, 401);
    assert.equal(credentialCacheStats().entries, loadsBefore);
    assert.ok(FRESH_MS < LIMIT_MS);
  });
});
