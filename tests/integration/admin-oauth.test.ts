import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, oauthClients, oauthTokens } from "@/db/schema";
import type { SessionUser } from "@/server/auth/session";
import { AppError } from "@/server/errors";
import { authenticateBearer } from "@/server/oauth/tokens";
import { createUser } from "@/server/services/partners";
import { createCaller } from "@/server/trpc/routers/_app";
import { runAdmin } from "../helpers/cli";
import { grantTokens, refreshWith, registerTestClient } from "../helpers/oauth";
import { uniqueSuffix } from "../helpers/partner";
import { isCode } from "../helpers/trpc";

// admin.oauth.*: the client list and a client's grants, and revocation from the
// console, which must refuse the revoked tokens on the very next request and
// come out exactly as oauth:revoke does from the CLI.

after(closeDb);

async function staff(): Promise<SessionUser> {
  const created = await createUser(getDb(), { email: `staff-${uniqueSuffix()}@ops.example`, password: "staff-password-1", role: "admin" });
  return { id: created.userId, email: created.email, name: null, role: "admin", partnerId: null, partnerRole: null };
}
const callerFor = (user: SessionUser) => createCaller({ db: getDb(), user, environment: "sandbox" });
const newUser = async (tag: string) => createUser(getDb(), { email: `${tag}-${uniqueSuffix()}@agent.example`, password: "correct horse battery" });
const bearer = (token: string) => `Bearer ${token}`;
const refused = (error: unknown) => error instanceof AppError && error.code === "invalid_token";

describe("admin OAuth console", () => {
  it("lists clients by search, newest first, paged by cursor, with their active grants, tokens and last use", async () => {
    const admin = callerFor(await staff());
    const tag = `agent-${uniqueSuffix()}`;
    const [first, second, third] = [await registerTestClient(`${tag} one`), await registerTestClient(`${tag} two`), await registerTestClient(`${tag} three`)];
    const [ann, bob] = [await newUser("ann"), await newUser("bob")];
    await grantTokens(first!, ann.userId);
    await grantTokens(first!, bob.userId);
    const refreshed = await grantTokens(first!, bob.userId);
    assert.equal((await refreshWith(first!, refreshed.refresh_token)).status, 200);

    const page1 = await admin.admin.oauth.list({ q: tag, limit: 2 });
    assert.deepEqual(page1.clients.map((c) => c.id), [third, second]);
    assert.ok(page1.nextCursor);
    const page2 = await admin.admin.oauth.list({ q: tag, limit: 2, cursor: page1.nextCursor });
    assert.deepEqual(page2.clients.map((c) => c.id), [first]);
    assert.equal(page2.nextCursor, null);
    const one = page2.clients[0]!;
    // Three consents; the refreshed one rotated its refresh token, so still three grants: 3 refresh + 4 access tokens live.
    assert.deepEqual({ grants: one.activeGrants, users: one.activeUsers, tokens: one.activeTokens }, { grants: 3, users: 2, tokens: 7 });
    assert.ok(one.lastUsedAt && Date.now() - Date.parse(one.lastUsedAt) < 60_000);
    assert.deepEqual(one.redirectUris, ["http://127.0.0.1/callback"]);
    assert.equal(page1.clients[0]?.activeTokens, 0);
    assert.equal(page1.clients[0]?.lastUsedAt, null);
    // By client_id and by redirect URI too.
    assert.deepEqual((await admin.admin.oauth.list({ q: first!, limit: 5 })).clients.map((c) => c.id), [first]);
    assert.ok((await admin.admin.oauth.list({ q: "127.0.0.1/callback", limit: 100 })).clients.length >= 3);
    await assert.rejects(admin.admin.oauth.list({ cursor: "not-an-id" }), isCode("validation_error"));

    const detail = await admin.admin.oauth.get({ id: first! });
    assert.equal(detail.client.name, `${tag} one`);
    assert.equal(detail.client.revokedAt, null);
    const byEmail = new Map(detail.users.map((u) => [u.email, u]));
    assert.deepEqual(
      { ann: byEmail.get(ann.email)?.activeGrants, bob: byEmail.get(bob.email)?.activeGrants, bobTokens: byEmail.get(bob.email)?.activeTokens },
      { ann: 1, bob: 2, bobTokens: 5 },
    );
    assert.deepEqual(byEmail.get(ann.email)?.scopes, ["pricing:read"]);
    assert.ok(byEmail.get(ann.email)?.expiresAt);
    await assert.rejects(admin.admin.oauth.get({ id: "oc_missing" }), isCode("not_found"));
  });

  it("revoking a client in the console refuses its access tokens at once and writes the audit row with before, after and reason", async () => {
    const actor = await staff();
    const admin = callerFor(actor);
    const clientId = await registerTestClient(`revoke-${uniqueSuffix()}`);
    const user = await newUser("carol");
    const tokens = await grantTokens(clientId, user.userId);
    assert.ok(await authenticateBearer(getDb(), bearer(tokens.access_token)));

    // Bad input changes nothing.
    await assert.rejects(admin.admin.oauth.revokeClient({ id: clientId, reason: " " }), isCode("validation_error"));
    await assert.rejects(admin.admin.oauth.revokeClient({ id: "oc_missing", reason: "Leaked credentials" }), isCode("not_found"));
    assert.ok(await authenticateBearer(getDb(), bearer(tokens.access_token)));

    const result = await admin.admin.oauth.revokeClient({ id: clientId, reason: "Agent reported as abusive" });
    assert.deepEqual(result, { target: "client", id: clientId, tokens_revoked: 2 });
    await assert.rejects(authenticateBearer(getDb(), bearer(tokens.access_token)), refused);
    assert.deepEqual(await refreshWith(clientId, tokens.refresh_token), { status: 400, error: "invalid_grant" });

    const detail = await admin.admin.oauth.get({ id: clientId });
    assert.ok(detail.client.revokedAt);
    assert.equal(detail.users[0]?.activeTokens, 0);
    const [audit] = await getDb().select().from(auditLog).where(and(eq(auditLog.targetType, "oauth_client"), eq(auditLog.targetId, clientId)));
    assert.equal(audit?.action, "oauth.client_revoked");
    assert.equal(audit?.actorType, "admin");
    assert.equal(audit?.actorId, actor.id);
    assert.deepEqual(audit?.data, {
      tokens_revoked: 2,
      before: { revoked_at: null, unrevoked_tokens: 2 },
      after: { revoked_at: detail.client.revokedAt, unrevoked_tokens: 0 },
      reason: "Agent reported as abusive",
    });
    // The audit viewer finds it by entity.
    const viewed = await admin.admin.audit({ targetId: clientId });
    assert.deepEqual(viewed.entries.map((e) => e.action), ["oauth.client_revoked"]);
  });

  it("revokes one user's grants for one client, then everywhere; other users and clients keep working", async () => {
    const admin = callerFor(await staff());
    const [a, b] = [await registerTestClient(`a-${uniqueSuffix()}`), await registerTestClient(`b-${uniqueSuffix()}`)];
    const [dan, eve] = [await newUser("dan"), await newUser("eve")];
    const danA = await grantTokens(a, dan.userId);
    const danB = await grantTokens(b, dan.userId);
    const eveA = await grantTokens(a, eve.userId);

    await assert.rejects(admin.admin.oauth.revokeUser({ userEmail: "not-an-email", clientId: a, reason: "Asked by the user" }), isCode("validation_error"));
    await assert.rejects(admin.admin.oauth.revokeUser({ userEmail: dan.email, clientId: "oc_missing", reason: "Asked by the user" }), isCode("not_found"));
    const forA = await admin.admin.oauth.revokeUser({ userEmail: dan.email.toUpperCase(), clientId: a, reason: "Asked by the user" });
    assert.deepEqual(forA, { target: "user", id: dan.userId, tokens_revoked: 2 });
    await assert.rejects(authenticateBearer(getDb(), bearer(danA.access_token)), refused);
    assert.ok(await authenticateBearer(getDb(), bearer(danB.access_token)));
    assert.ok(await authenticateBearer(getDb(), bearer(eveA.access_token)));
    const [client] = await getDb().select().from(oauthClients).where(eq(oauthClients.id, a));
    assert.equal(client?.revokedAt, null);

    const everywhere = await admin.admin.oauth.revokeUser({ userEmail: dan.email, reason: "Account compromised" });
    assert.equal(everywhere.tokens_revoked, 2);
    await assert.rejects(authenticateBearer(getDb(), bearer(danB.access_token)), refused);
    assert.ok(await authenticateBearer(getDb(), bearer(eveA.access_token)));

    const audits = await getDb().select().from(auditLog).where(and(eq(auditLog.targetType, "user"), eq(auditLog.targetId, dan.userId))).orderBy(auditLog.id);
    assert.deepEqual(
      audits.map((row) => row.data),
      [
        { tokens_revoked: 2, client_id: a, before: { unrevoked_tokens: 2 }, after: { unrevoked_tokens: 0 }, reason: "Asked by the user" },
        { tokens_revoked: 2, before: { unrevoked_tokens: 2 }, after: { unrevoked_tokens: 0 }, reason: "Account compromised" },
      ],
    );
  });

  it("the CLI and the console revoke through the same service: the same outcome", async () => {
    const admin = await staff();
    const reason = "Client secret published in a public repo";
    const outcome = async (how: "console" | "cli") => {
      const clientId = await registerTestClient(`compare-${how}-${uniqueSuffix()}`);
      const user = await newUser(how);
      const accessToken = (await grantTokens(clientId, user.userId)).access_token;
      let answer: Record<string, unknown>;
      if (how === "console") answer = { ...(await callerFor(admin).admin.oauth.revokeClient({ id: clientId, reason })) };
      else {
        const cli = await runAdmin("oauth:revoke", "--client", clientId, "--reason", reason, "--json");
        assert.equal(cli.code, 0, cli.stderr);
        answer = JSON.parse(cli.stdout) as Record<string, unknown>;
      }
      const refusedNow = await authenticateBearer(getDb(), bearer(accessToken)).then(
        () => false,
        (error: unknown) => refused(error),
      );
      const tokens = await getDb().select().from(oauthTokens).where(eq(oauthTokens.clientId, clientId));
      const [audit] = await getDb().select().from(auditLog).where(and(eq(auditLog.targetType, "oauth_client"), eq(auditLog.targetId, clientId)));
      const data = audit?.data as { after: { revoked_at: string }; reason?: string };
      return {
        answer: { ...answer, id: "-" },
        refusedNow,
        tokens: tokens.map((t) => ({ kind: t.kind, revoked: Boolean(t.revokedAt) })).sort((x, y) => x.kind.localeCompare(y.kind)),
        audit: { action: audit?.action, data: { ...data, after: { ...data.after, revoked_at: typeof data.after.revoked_at } } },
      };
    };
    const viaConsole = await outcome("console");
    const viaCli = await outcome("cli");
    assert.deepEqual(viaCli, viaConsole);
    assert.equal(viaConsole.refusedNow, true);
    assert.deepEqual(viaConsole.answer, { target: "client", id: "-", tokens_revoked: 2 });
    assert.equal(viaConsole.audit.data.reason, reason);
    // Neither a user nor a client: refused before anything is read.
    const bare = await runAdmin("oauth:revoke", "--reason", reason);
    assert.notEqual(bare.code, 0);
    assert.match(bare.stderr, /validation_error.*--user/);
  });
});
