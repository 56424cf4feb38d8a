import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { and, desc, eq } from "drizzle-orm";
import { encode } from "next-auth/jwt";
import { closeDb, getDb } from "@/db/client";
import { auditLog, users } from "@/db/schema";
import { authenticateUser } from "@/server/auth/credentials";
import { getAuthSecret, getSessionCookie } from "@/server/auth/options";
import { encodeSessionToken, sessionUserFor } from "@/server/auth/session";
import { addAccount, setUserDisabled, setUserRole, signOutEverywhere } from "@/server/services/admin-users";
import { createCaller } from "@/server/trpc/routers/_app";
import { runAdmin } from "../helpers/cli";
import { createTestPartner, uniqueSuffix } from "../helpers/partner";
import { isCode } from "../helpers/trpc";
import { createUser } from "@/server/services/partners";

// The Users screen's actions against the real database, and what they do to
// sessions: a session is the JWT the sign-in paths issue (authenticateUser, then
// the same encode as startSession), read back through next-auth's own
// getServerSession and the users row, as getSessionUser and the tRPC context do.

after(closeDb);

const db = () => getDb();
const PASSWORD = "a-long-password-1";

/** Signs in as the sign-in action does and returns the session cookie's value. */
async function signIn(email: string, password = PASSWORD): Promise<string> {
  const result = await authenticateUser(db(), { email, password }, `198.51.100.${Math.floor(Math.random() * 250)}`);
  assert.ok(result.ok, `sign-in of ${email}: ${JSON.stringify(result)}`);
  return encodeSessionToken(result.user);
}

/** The user a request carrying this session cookie gets: what getSessionUser answers for it. */
const sessionFor = (token: string) => sessionUserFor(db(), { headers: {}, cookies: { [getSessionCookie().name]: token } });

/** The tRPC context's caller for a request carrying this cookie. */
const callerWith = async (token: string) => createCaller({ db: db(), user: await sessionFor(token), environment: "sandbox" });

async function newStaff(): Promise<{ id: string; email: string; actor: { type: "admin"; id: string } }> {
  const created = await addAccount(db(), { email: `staff-${uniqueSuffix()}@ops.example`, password: PASSWORD, role: "admin" }, { type: "cli" });
  return { id: created.userId, email: created.email, actor: { type: "admin", id: created.userId } };
}

async function newCustomer() {
  const created = await createUser(db(), { email: `buyer-${uniqueSuffix()}@shop.example`, password: PASSWORD, role: "customer" });
  return { id: created.userId, email: created.email };
}

const row = async (id: string) => (await db().select().from(users).where(eq(users.id, id)))[0]!;
const audits = (id: string) => db().select().from(auditLog).where(and(eq(auditLog.targetType, "user"), eq(auditLog.targetId, id))).orderBy(desc(auditLog.id));

async function cli(...args: string[]): Promise<Record<string, unknown>> {
  const run = await runAdmin(...args, "--json");
  assert.equal(run.code, 0, run.stderr);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

async function cliFails(code: string, ...args: string[]): Promise<string> {
  const run = await runAdmin(...args, "--json");
  assert.equal(run.code, 1, run.stdout);
  const error = (JSON.parse(run.stderr) as { error: { code: string; message: string } }).error;
  assert.equal(error.code, code, error.message);
  return error.message;
}

describe("sessions and the users row", () => {
  it("sign out everywhere: the old cookie is refused by the session and the tRPC context, a new sign-in works", async () => {
    const staff = await newStaff();
    const customer = await newCustomer();
    const old = await signIn(customer.email);
    assert.equal((await sessionFor(old))?.id, customer.id);
    const staffCaller = createCaller({ db: db(), user: await sessionFor(await signIn(staff.email)), environment: "sandbox" });

    const after = await staffCaller.admin.users.signOutEverywhere({ id: customer.id, reason: "laptop stolen" });
    assert.equal(after.sessionVersion, 1);
    assert.equal(await sessionFor(old), null);
    await assert.rejects((await callerWith(old)).admin.users.list({ limit: 1 }), isCode("unauthorized"));
    const fresh = await signIn(customer.email);
    assert.equal((await sessionFor(fresh))?.id, customer.id);

    const [audit] = await audits(customer.id);
    assert.equal(audit?.action, "user.signed_out_everywhere");
    assert.equal(audit?.actorType, "admin");
    assert.equal(audit?.actorId, staff.id);
    assert.deepEqual(audit?.data, {
      email: customer.email,
      before: { role: "customer", disabled: false, sessionVersion: 0 },
      after: { role: "customer", disabled: false, sessionVersion: 1 },
      reason: "laptop stolen",
    });
  });

  it("a token from before session versions (no claim) counts as version 0", async () => {
    const customer = await newCustomer();
    const legacy = await encode({ token: { sub: customer.id, email: customer.email, role: "customer", partnerId: null }, secret: getAuthSecret() });
    assert.equal((await sessionFor(legacy))?.id, customer.id);
    await signOutEverywhere(db(), { userId: customer.id, reason: "rotate sessions" }, { type: "cli" });
    assert.equal(await sessionFor(legacy), null);
  });

  it("disabling refuses the session at once; re-enabling lets the user sign in again but does not revive old cookies", async () => {
    const staff = await newStaff();
    const customer = await newCustomer();
    const old = await signIn(customer.email);
    await setUserDisabled(db(), { userId: customer.id, disabled: true, reason: "fraud report" }, staff.actor);
    assert.equal(await sessionFor(old), null);
    const refused = await authenticateUser(db(), { email: customer.email, password: PASSWORD }, "198.51.100.7");
    assert.deepEqual(refused, { ok: false, reason: "disabled" });
    await assert.rejects(setUserDisabled(db(), { userId: customer.id, disabled: true, reason: "again" }, staff.actor), isCode("conflict"));

    await setUserDisabled(db(), { userId: customer.id, disabled: false, reason: "cleared" }, staff.actor);
    assert.equal(await sessionFor(old), null, "a cookie from before the disable stays dead");
    assert.equal((await sessionFor(await signIn(customer.email)))?.id, customer.id);
    const [enabled, disabled] = await audits(customer.id);
    assert.equal(enabled?.action, "user.enabled");
    assert.equal(disabled?.action, "user.disabled");
    assert.equal((disabled?.data as { reason: string }).reason, "fraud report");
  });

  it("a role change takes effect: a demoted staff member's old session ends and the new one is refused by admin.*", async () => {
    const staff = await newStaff();
    const other = await newStaff();
    const old = await signIn(other.email);
    assert.ok((await (await callerWith(old)).admin.users.list({ limit: 1 })).users.length);
    await setUserRole(db(), { userId: other.id, role: "customer", reason: "left the company" }, staff.actor);
    assert.equal(await sessionFor(old), null);
    const fresh = await signIn(other.email);
    assert.equal((await sessionFor(fresh))?.role, "customer");
    await assert.rejects((await callerWith(fresh)).admin.users.list({ limit: 1 }), isCode("forbidden"));
    const [audit] = await audits(other.id);
    assert.deepEqual((audit?.data as { before: unknown; after: unknown }).before, { role: "admin", disabled: false, sessionVersion: 0 });
    assert.deepEqual((audit?.data as { before: unknown; after: unknown }).after, { role: "customer", disabled: false, sessionVersion: 1 });
  });

  it("staff cannot disable or demote themselves; nothing changes", async () => {
    const staff = await newStaff();
    const caller = await callerWith(await signIn(staff.email));
    await assert.rejects(caller.admin.users.setDisabled({ id: staff.id, disabled: true, reason: "testing" }), (error: Error) => {
      assert.match(error.message, /cannot disable your own account/);
      return isCode("conflict")(error);
    });
    await assert.rejects(caller.admin.users.setRole({ id: staff.id, role: "customer", reason: "testing" }), isCode("conflict"));
    const after = await row(staff.id);
    assert.equal(after.role, "admin");
    assert.equal(after.disabledAt, null);
    assert.equal(after.sessionVersion, 0);
    assert.deepEqual((await audits(staff.id)).map((a) => a.action), ["user.created"]);
  });
});

describe("partner members", () => {
  it("a partner role changes with the team's rules: the last owner stays, staff/customer roles do not apply", async () => {
    const staff = await newStaff();
    const { partnerId } = await createTestPartner();
    const [owner] = await db().select().from(users).where(eq(users.partnerId, partnerId));
    assert.ok(owner);
    await assert.rejects(setUserRole(db(), { userId: owner.id, partnerRole: "viewer", reason: "demote" }, staff.actor), isCode("conflict"));
    await assert.rejects(setUserDisabled(db(), { userId: owner.id, disabled: true, reason: "lock out" }, staff.actor), isCode("conflict"));
    await assert.rejects(setUserRole(db(), { userId: owner.id, role: "admin", reason: "promote" }, staff.actor), isCode("conflict"));
    assert.equal((await row(owner.id)).partnerRole, "owner");

    const second = await createUser(db(), { email: `dev-${uniqueSuffix()}@test.example`, password: PASSWORD, role: "partner", partnerId });
    await db().update(users).set({ partnerRole: "developer" }).where(eq(users.id, second.userId));
    const session = await signIn(second.email);
    const changed = await setUserRole(db(), { userId: second.userId, partnerRole: "owner", reason: "co-founder" }, staff.actor);
    assert.equal(changed.partnerRole, "owner");
    assert.equal(changed.partner?.id, partnerId);
    assert.equal(await sessionFor(session), null);
    // Two owners now: the first may step down.
    await setUserRole(db(), { userId: owner.id, partnerRole: "finance", reason: "hand over" }, staff.actor);
    const [audit] = await audits(owner.id);
    assert.equal(audit?.partnerId, partnerId, "the partner's own audit log shows it");
    assert.deepEqual((audit?.data as { after: unknown }).after, { role: "partner", partnerRole: "finance", disabled: false, sessionVersion: 1 });
  });

  it("the list finds users by email and role, with their partner, and pages by id", async () => {
    const staff = await newStaff();
    const caller = await callerWith(await signIn(staff.email));
    const { partnerId, email } = await createTestPartner();
    const found = await caller.admin.users.list({ q: email.toUpperCase(), limit: 5 });
    assert.equal(found.users.length, 1);
    assert.equal(found.users[0]?.partner?.id, partnerId);
    assert.equal(found.users[0]?.partnerRole, "owner");
    const admins = await caller.admin.users.list({ role: "admin", limit: 2 });
    assert.ok(admins.users.every((u) => u.role === "admin"));
    assert.ok(admins.nextCursor);
    const next = await caller.admin.users.list({ role: "admin", limit: 2, cursor: admins.nextCursor });
    assert.ok(next.users.every((u) => u.id < admins.users.at(-1)!.id));
    await assert.rejects(caller.admin.users.list({ cursor: "not-a-user", limit: 2 }), isCode("validation_error"));
  });
});

describe("the CLI and the console", () => {
  it("user:sign-out-everywhere, user:disable and user:set-role call the same services with the same outcome", async () => {
    const staff = await newStaff();
    const caller = await callerWith(await signIn(staff.email));
    const [a, b] = [await newCustomer(), await newCustomer()];
    const [oldA, oldB] = [await signIn(a.email), await signIn(b.email)];

    const viaCli = await cli("user:sign-out-everywhere", "--email", a.email.toUpperCase(), "--reason", "phishing");
    const viaConsole = await caller.admin.users.signOutEverywhere({ id: b.id, reason: "phishing" });
    assert.equal(viaCli.session_version, 1);
    assert.equal(viaConsole.sessionVersion, 1);
    assert.equal(await sessionFor(oldA), null);
    assert.equal(await sessionFor(oldB), null);
    const [auditA] = await audits(a.id);
    const [auditB] = await audits(b.id);
    assert.equal(auditA?.actorType, "cli");
    assert.equal(auditB?.actorType, "admin");
    assert.equal(auditA?.action, auditB?.action);
    assert.deepEqual({ ...(auditA?.data as object), email: null }, { ...(auditB?.data as object), email: null });

    assert.ok((await cli("user:disable", "--email", a.email, "--reason", "chargebacks")).disabled_at);
    assert.ok((await caller.admin.users.setDisabled({ id: b.id, disabled: true, reason: "chargebacks" })).disabledAt);
    assert.equal((await cli("user:disable", "--email", a.email, "--reason", "resolved", "--enable")).disabled_at, null);

    assert.equal((await cli("user:set-role", "--email", a.email, "--role", "admin", "--reason", "new hire")).role, "admin");
    assert.equal((await caller.admin.users.setRole({ id: b.id, role: "admin", reason: "new hire" })).role, "admin");
    assert.deepEqual((await audits(a.id)).map((x) => x.action), ["user.role_changed", "user.enabled", "user.disabled", "user.signed_out_everywhere"]);
    assert.deepEqual((await audits(b.id)).map((x) => x.action), ["user.role_changed", "user.disabled", "user.signed_out_everywhere"]);
  });

  it("bad input is refused with a clear error and changes nothing", async () => {
    const customer = await newCustomer();
    assert.match(await cliFails("validation_error", "user:set-role", "--email", customer.email, "--role", "owner", "--reason", "x y z"), /--role/);
    assert.match(await cliFails("validation_error", "user:set-role", "--email", customer.email, "--reason", "nothing to set"), /exactly one/);
    assert.match(await cliFails("validation_error", "user:disable", "--email", customer.email), /--reason/);
    assert.match(await cliFails("not_found", "user:disable", "--email", `nobody-${uniqueSuffix()}@example.com`, "--reason", "gone"), /no user/);
    await cliFails("conflict", "user:set-role", "--email", customer.email, "--partner-role", "viewer", "--reason", "not a member");
    const unchanged = await row(customer.id);
    assert.equal(unchanged.sessionVersion, 0);
    assert.equal(unchanged.role, "customer");
    assert.equal((await audits(customer.id)).length, 0);
  });

  it("user:create --role admin makes staff who can use admin.*; the console's addStaff gives a password once", async () => {
    const email = `first-staff-${uniqueSuffix()}@ops.example`;
    const created = await cli("user:create", "--email", email, "--password", PASSWORD, "--role", "admin");
    assert.equal(created.role, "admin");
    const caller = await callerWith(await signIn(email));
    const added = await caller.admin.users.addStaff({ email: `Second-${uniqueSuffix()}@ops.example`, name: "Second" });
    assert.ok(added.generatedPassword && added.generatedPassword.length >= 16);
    assert.equal(added.email, added.email.toLowerCase());
    const second = await callerWith(await signIn(added.email, added.generatedPassword));
    assert.ok((await second.admin.users.get({ id: added.userId })).role === "admin");
    await assert.rejects(caller.admin.users.addStaff({ email: added.email }), isCode("conflict"));
    const [audit] = await audits(added.userId);
    assert.equal(audit?.action, "user.created");
    assert.equal(audit?.actorId, created.user_id);
    assert.equal(((await cli("user:create", "--email", `buyer-${uniqueSuffix()}@shop.example`, "--password", PASSWORD)) as { role: string }).role, "customer");
  });
});
