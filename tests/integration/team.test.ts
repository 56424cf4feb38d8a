import assert from "node:assert/strict";
import { after, afterEach, describe, it } from "node:test";
import { and, eq } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { auditLog, partnerInvitations, users, type Environment } from "@/db/schema";
import { can, partnerRoles, type PartnerRole } from "@/server/auth/partner-roles";
import type { SessionUser } from "@/server/auth/session";
import { clock } from "@/server/clock";
import { acceptInvitation, getInvitation, INVITATION_TTL_MS, inviteMember } from "@/server/services/team";
import { createCaller } from "@/server/trpc/routers/_app";
import { createTestPartner } from "../helpers/partner";
import { isCode } from "../helpers/trpc";

// The team: invitations by link, roles (owner, developer, finance, viewer)
// checked by every procedure, the last owner kept, removal signing out, and
// the organisation's audit log, all against the real database.

after(closeDb);
afterEach(() => clock.reset());

async function ownerOf(partnerId: string): Promise<SessionUser> {
  const [row] = await getDb().select().from(users).where(eq(users.partnerId, partnerId));
  assert.ok(row);
  return { id: row.id, email: row.email, name: row.name, role: "partner", partnerId, partnerRole: row.partnerRole };
}

function callerFor(user: SessionUser, environment: Environment = "sandbox") {
  return createCaller({ db: getDb(), user, environment });
}

const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);
let counter = 0;
const newEmail = () => `member-${Date.now().toString(36)}-${counter++}@team.example`;

/** A member who joined `partnerId` through an invitation, with `role`. */
async function joinAs(partnerId: string, role: PartnerRole): Promise<SessionUser> {
  const owner = await ownerOf(partnerId);
  const invited = await callerFor(owner).team.invite({ email: newEmail(), role });
  const joined = await acceptInvitation(getDb(), { token: tokenOf(invited.url), password: "long-enough-password" });
  return { id: joined.userId, email: joined.email, name: null, role: "partner", partnerId, partnerRole: role };
}

describe("invitations", () => {
  it("an owner invites, the link shows the organisation and role, accepting creates the member once", async () => {
    const { partnerId } = await createTestPartner();
    const owner = callerFor(await ownerOf(partnerId));
    const email = newEmail();
    const invited = await owner.team.invite({ email: email.toUpperCase(), role: "finance" });
    assert.equal(invited.email, email, "addresses are kept in lower case");
    assert.match(invited.url, /\/partners\/invite\/[A-Za-z0-9_-]{32}$/);
    const [stored] = await getDb().select().from(partnerInvitations).where(eq(partnerInvitations.id, invited.id));
    assert.ok(stored && !JSON.stringify(stored).includes(tokenOf(invited.url)), "only the token's hash is stored");

    const view = await getInvitation(getDb(), tokenOf(invited.url));
    assert.equal(view.state, "open");
    assert.equal(view.state === "open" ? view.role : null, "finance");
    assert.deepEqual(
      (await owner.team.list()).invitations.map((i) => i.email),
      [email],
    );

    const joined = await acceptInvitation(getDb(), { token: tokenOf(invited.url), name: "Fin Ance", password: "long-enough-password" });
    const [member] = await getDb().select().from(users).where(eq(users.id, joined.userId));
    assert.deepEqual([member?.partnerId, member?.partnerRole, member?.name], [partnerId, "finance", "Fin Ance"]);
    assert.equal((await getInvitation(getDb(), tokenOf(invited.url))).state, "used");
    await assert.rejects(acceptInvitation(getDb(), { token: tokenOf(invited.url), password: "another-password" }), isCode("conflict"));
    const team = await owner.team.list();
    assert.equal(team.invitations.length, 0);
    assert.ok(team.members.some((m) => m.email === email && m.role === "finance"));
    const actions = (await getDb().select().from(auditLog).where(eq(auditLog.partnerId, partnerId))).map((r) => r.action);
    assert.ok(actions.includes("team.invited") && actions.includes("team.joined"));
  });

  it("an address with an account elsewhere cannot be invited; nothing is written", async () => {
    const other = await createTestPartner();
    const { partnerId } = await createTestPartner();
    const owner = callerFor(await ownerOf(partnerId));
    await assert.rejects(owner.team.invite({ email: other.email, role: "viewer" }), isCode("conflict"));
    await assert.rejects(owner.team.invite({ email: "not an email", role: "viewer" }), isCode("validation_error"));
    assert.equal((await getDb().select().from(partnerInvitations).where(eq(partnerInvitations.partnerId, partnerId))).length, 0);
  });

  it("inviting again replaces the open link; revoked, expired and unknown links cannot be used", async () => {
    const { partnerId } = await createTestPartner();
    const owner = callerFor(await ownerOf(partnerId));
    const email = newEmail();
    const first = await owner.team.invite({ email, role: "viewer" });
    const second = await owner.team.invite({ email, role: "developer" });
    assert.equal((await getInvitation(getDb(), tokenOf(first.url))).state, "revoked");
    await assert.rejects(acceptInvitation(getDb(), { token: tokenOf(first.url), password: "long-enough-password" }), isCode("conflict"));

    await owner.team.revokeInvitation({ id: second.id });
    assert.equal((await getInvitation(getDb(), tokenOf(second.url))).state, "revoked");
    await assert.rejects(owner.team.revokeInvitation({ id: second.id }), isCode("not_found"));

    const third = await owner.team.invite({ email, role: "developer" });
    clock.freeze(Date.now() + INVITATION_TTL_MS + 1000);
    assert.equal((await getInvitation(getDb(), tokenOf(third.url))).state, "expired");
    await assert.rejects(acceptInvitation(getDb(), { token: tokenOf(third.url), password: "long-enough-password" }), isCode("conflict"));
    assert.equal((await getInvitation(getDb(), "x".repeat(32))).state, "unknown");
    assert.equal((await getInvitation(getDb(), "../../etc")).state, "unknown");
    assert.equal((await getDb().select().from(users).where(eq(users.email, email))).length, 0);
  });

  it("another partner's invitation or member is not found", async () => {
    const a = await createTestPartner();
    const b = await createTestPartner();
    const ownerA = callerFor(await ownerOf(a.partnerId));
    const ownerB = callerFor(await ownerOf(b.partnerId));
    const invited = await ownerA.team.invite({ email: newEmail(), role: "viewer" });
    const memberA = await joinAs(a.partnerId, "developer");
    await assert.rejects(ownerB.team.revokeInvitation({ id: invited.id }), isCode("not_found"));
    await assert.rejects(ownerB.team.setRole({ userId: memberA.id, role: "owner" }), isCode("not_found"));
    await assert.rejects(ownerB.team.remove({ userId: memberA.id }), isCode("not_found"));
    assert.ok((await ownerB.team.audit({})).entries.every((e) => e.targetId !== memberA.id));
  });
});

describe("roles", () => {
  it("the organisation always keeps an owner", async () => {
    const { partnerId } = await createTestPartner();
    const self = await ownerOf(partnerId);
    const owner = callerFor(self);
    await assert.rejects(owner.team.setRole({ userId: self.id, role: "developer" }), isCode("conflict"));
    await assert.rejects(owner.team.remove({ userId: self.id }), isCode("conflict"));
    const second = await joinAs(partnerId, "developer");
    await owner.team.setRole({ userId: second.id, role: "owner" });
    await owner.team.setRole({ userId: self.id, role: "viewer" });
    const roles = Object.fromEntries((await callerFor({ ...second, partnerRole: "owner" }).team.list()).members.map((m) => [m.userId, m.role]));
    assert.deepEqual([roles[self.id], roles[second.id]], ["viewer", "owner"]);
    const [changed] = await getDb()
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "team.role_changed"), eq(auditLog.targetId, self.id)));
    assert.deepEqual(changed?.data, { email: self.email, before: "owner", after: "viewer" });
  });

  it("a removed member is disabled at once, and an invitation brings the same login back", async () => {
    const { partnerId } = await createTestPartner();
    const owner = callerFor(await ownerOf(partnerId));
    const member = await joinAs(partnerId, "developer");
    await owner.team.remove({ userId: member.id });
    const [row] = await getDb().select().from(users).where(eq(users.id, member.id));
    assert.ok(row?.disabledAt, "disabled: getSessionUser refuses it on the next request");
    assert.ok(!(await owner.team.list()).members.some((m) => m.userId === member.id));
    const again = await owner.team.invite({ email: member.email, role: "viewer" });
    const rejoined = await acceptInvitation(getDb(), { token: tokenOf(again.url), password: "a-new-password-123" });
    assert.equal(rejoined.userId, member.id);
    const [back] = await getDb().select().from(users).where(eq(users.id, member.id));
    assert.deepEqual([back?.disabledAt, back?.partnerRole], [null, "viewer"]);
  });

  it("every procedure checks the role: finance sees money but not keys, viewers change nothing, only owners manage the team", async () => {
    const { partnerId } = await createTestPartner();
    const members = Object.fromEntries(
      await Promise.all(partnerRoles.map(async (role) => [role, role === "owner" ? await ownerOf(partnerId) : await joinAs(partnerId, role)] as const)),
    ) as Record<PartnerRole, SessionUser>;
    const targetId = members.viewer.id;
    const probes: Record<string, { needs: Parameters<typeof can>[1]; call: (c: ReturnType<typeof callerFor>) => Promise<unknown> }> = {
      "account.overview": { needs: "readMoney", call: (c) => c.account.overview() },
      "keys.list": { needs: "readIntegration", call: (c) => c.keys.list() },
      "webhooks.endpoint": { needs: "readIntegration", call: (c) => c.webhooks.endpoint() },
      "events.list": { needs: "readIntegration", call: (c) => c.events.list({}) },
      "requests.list": { needs: "readIntegration", call: (c) => c.requests.list({}) },
      "keys.create": { needs: "changeIntegration", call: (c) => c.keys.create({ name: "probe", scopes: ["search"], allowedCidrs: "" }) },
      "team.list": { needs: "manageTeam", call: (c) => c.team.list() },
      "team.audit": { needs: "manageTeam", call: (c) => c.team.audit({}) },
      "team.invite": { needs: "manageTeam", call: (c) => c.team.invite({ email: newEmail(), role: "viewer" }) },
      "team.revokeInvitation": { needs: "manageTeam", call: (c) => c.team.revokeInvitation({ id: "inv_nonexistent" }) },
      "team.setRole": { needs: "manageTeam", call: (c) => c.team.setRole({ userId: targetId, role: "viewer" }) },
      "team.remove": { needs: "manageTeam", call: (c) => c.team.remove({ userId: "usr_nonexistent" }) },
    };
    for (const role of partnerRoles) {
      const caller = callerFor({ ...members[role], partnerRole: role });
      for (const [name, probe] of Object.entries(probes)) {
        const outcome = await probe.call(caller).then(
          () => "ok",
          (error: unknown) => (isCode("forbidden")(error) ? "forbidden" : isCode("not_found")(error) ? "not_found" : String(error)),
        );
        const expected = can(role, probe.needs) ? ["ok", "not_found"] : ["forbidden"];
        assert.ok(expected.includes(outcome), `${role} ${name}: ${outcome}`);
      }
    }
  });

  it("the audit log is the organisation's own, newest first, paged", async () => {
    const { partnerId } = await createTestPartner();
    const owner = callerFor(await ownerOf(partnerId));
    for (let i = 0; i < 4; i++) await owner.team.invite({ email: newEmail(), role: "viewer" });
    const first = await owner.team.audit({ limit: 3 });
    assert.equal(first.entries.length, 3);
    assert.ok(first.nextCursor);
    const rest = await owner.team.audit({ limit: 3, cursor: first.nextCursor });
    const all = [...first.entries, ...rest.entries];
    assert.deepEqual(
      all.map((e) => e.id),
      [...all.map((e) => e.id)].sort().reverse(),
    );
    assert.equal(new Set(all.map((e) => e.id)).size, all.length);
    assert.ok(all.filter((e) => e.action === "team.invited").every((e) => e.actor === first.entries[0]?.actor));
    const filtered = await owner.team.audit({ action: "partner" });
    assert.deepEqual([...new Set(filtered.entries.map((e) => e.action))], ["partner.created"]);
  });
});

describe("inviteMember", () => {
  it("writes nothing when the address is already a member", async () => {
    const { partnerId, email } = await createTestPartner();
    const owner = await ownerOf(partnerId);
    await assert.rejects(inviteMember(getDb(), { partnerId, email, role: "viewer", invitedBy: owner.id }, { type: "partner", id: owner.id }), /already a member/);
  });
});
