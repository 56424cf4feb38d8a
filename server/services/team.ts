import { randomBytes } from "node:crypto";
import { and, asc, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { partnerInvitations, partners, users } from "@/db/schema";
import type { PartnerRole } from "@/server/auth/partner-roles";
import { clock } from "@/server/clock";
import { hashPassword, sha256Hex } from "@/server/crypto";
import { AppError, isUniqueViolation, notFound } from "@/server/errors";
import { newId } from "@/server/ids";
import { getEnv } from "@/server/env";
import { listAudit, recordAudit } from "./audit";
import type { Actor } from "./partners";

// A partner's team: members and their roles, invitations by link (no mail
// server: the inviter copies the link, shown once), and the organisation's own
// audit log. Owners manage it; every change is audited in its transaction.
// A removed member is disabled (signed out on their next request), not
// deleted, so the audit log keeps naming them; inviting them again reactivates
// the same login.

/** How long an invitation link stays valid. */
export const INVITATION_TTL_MS = 7 * 86_400_000;

const INVITE_PATH = "/partners/invite/";

export interface TeamMember {
  userId: string;
  email: string;
  name: string | null;
  role: PartnerRole;
  joinedAt: string;
}

export interface PendingInvitation {
  id: string;
  email: string;
  role: PartnerRole;
  invitedBy: string | null;
  createdAt: string;
  expiresAt: string;
}

export async function listTeam(db: Db, partnerId: string): Promise<{ members: TeamMember[]; invitations: PendingInvitation[] }> {
  const now = clock.now();
  const [members, invitations] = await Promise.all([
    db
      .select({ userId: users.id, email: users.email, name: users.name, role: users.partnerRole, joinedAt: users.createdAt })
      .from(users)
      .where(and(eq(users.partnerId, partnerId), eq(users.role, "partner"), isNull(users.disabledAt)))
      .orderBy(asc(users.createdAt)),
    db
      .select({
        id: partnerInvitations.id,
        email: partnerInvitations.email,
        role: partnerInvitations.role,
        invitedBy: users.email,
        createdAt: partnerInvitations.createdAt,
        expiresAt: partnerInvitations.expiresAt,
      })
      .from(partnerInvitations)
      .leftJoin(users, eq(users.id, partnerInvitations.invitedBy))
      .where(
        and(
          eq(partnerInvitations.partnerId, partnerId),
          isNull(partnerInvitations.acceptedAt),
          isNull(partnerInvitations.revokedAt),
          gt(partnerInvitations.expiresAt, now),
        ),
      )
      .orderBy(desc(partnerInvitations.createdAt)),
  ]);
  return {
    members: members.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() })),
    invitations: invitations.map((i) => ({ ...i, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() })),
  };
}

export interface InviteInput {
  partnerId: string;
  email: string;
  role: PartnerRole;
  invitedBy: string;
}

/**
 * A new invitation; the answer carries the link, which is not stored (only its
 * token's hash). Inviting an address again replaces its open invitation.
 */
export async function inviteMember(db: Db, input: InviteInput, actor: Actor) {
  const email = input.email.trim().toLowerCase();
  const token = randomBytes(24).toString("base64url");
  const now = clock.now();
  const id = newId("invitation", now.getTime());
  const expiresAt = new Date(now.getTime() + INVITATION_TTL_MS);
  await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ partnerId: users.partnerId, disabledAt: users.disabledAt })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    if (existing && !(existing.partnerId === input.partnerId && existing.disabledAt)) {
      throw new AppError(
        "conflict",
        existing.partnerId === input.partnerId ? `${email} is already a member of your team.` : `${email} already has an account with us; invite another address.`,
      );
    }
    await tx
      .update(partnerInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(partnerInvitations.partnerId, input.partnerId),
          eq(partnerInvitations.email, email),
          isNull(partnerInvitations.acceptedAt),
          isNull(partnerInvitations.revokedAt),
        ),
      );
    await tx.insert(partnerInvitations).values({
      id,
      partnerId: input.partnerId,
      email,
      role: input.role,
      tokenHash: sha256Hex(token),
      invitedBy: input.invitedBy,
      expiresAt,
      createdAt: now,
    });
    await recordAudit(tx, actor, { action: "team.invited", targetType: "invitation", targetId: id, partnerId: input.partnerId, data: { email, role: input.role } }, now);
  });
  return { id, email, role: input.role, expiresAt: expiresAt.toISOString(), url: `${getEnv().APP_URL.replace(/\/$/, "")}${INVITE_PATH}${token}` };
}

export async function revokeInvitation(db: Db, input: { partnerId: string; invitationId: string }, actor: Actor) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(partnerInvitations)
      .set({ revokedAt: clock.now() })
      .where(
        and(
          eq(partnerInvitations.id, input.invitationId),
          eq(partnerInvitations.partnerId, input.partnerId),
          isNull(partnerInvitations.acceptedAt),
          isNull(partnerInvitations.revokedAt),
        ),
      )
      .returning({ id: partnerInvitations.id, email: partnerInvitations.email });
    if (!row) throw notFound("invitation");
    await recordAudit(tx, actor, { action: "team.invitation_revoked", targetType: "invitation", targetId: row.id, partnerId: input.partnerId, data: { email: row.email } });
    return { id: row.id };
  });
}

export type InvitationView =
  | { state: "open"; partnerName: string; email: string; role: PartnerRole; expiresAt: string }
  | { state: "expired" | "used" | "revoked" | "unknown" };

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

/** What the invitation page shows for a link, without accepting it. */
export async function getInvitation(db: Db, token: string): Promise<InvitationView> {
  if (!TOKEN.test(token)) return { state: "unknown" };
  const [row] = await db
    .select({ invitation: partnerInvitations, partnerName: partners.name })
    .from(partnerInvitations)
    .innerJoin(partners, eq(partners.id, partnerInvitations.partnerId))
    .where(eq(partnerInvitations.tokenHash, sha256Hex(token)));
  if (!row) return { state: "unknown" };
  const { invitation } = row;
  if (invitation.acceptedAt) return { state: "used" };
  if (invitation.revokedAt) return { state: "revoked" };
  if (invitation.expiresAt.getTime() <= clock.nowMs()) return { state: "expired" };
  return { state: "open", partnerName: row.partnerName, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() };
}

export interface AcceptInput {
  token: string;
  name?: string;
  password: string;
}

/** Joins the team the link names: a new login (or the removed member's, reactivated). */
export async function acceptInvitation(db: Db, input: AcceptInput) {
  if (!TOKEN.test(input.token)) throw notFound("invitation");
  const passwordHash = await hashPassword(input.password);
  const now = clock.now();
  const accepted = db.transaction(async (tx) => {
    const [invitation] = await tx
      .select()
      .from(partnerInvitations)
      .where(eq(partnerInvitations.tokenHash, sha256Hex(input.token)))
      .for("update");
    if (!invitation || invitation.acceptedAt || invitation.revokedAt || invitation.expiresAt.getTime() <= now.getTime()) {
      throw new AppError("conflict", "This invitation is no longer valid; ask for a new link.");
    }
    const [existing] = await tx
      .select({ id: users.id, partnerId: users.partnerId, disabledAt: users.disabledAt, sessionVersion: users.sessionVersion })
      .from(users)
      .where(sql`lower(${users.email}) = ${invitation.email}`)
      .for("update");
    let userId: string;
    if (existing) {
      if (existing.partnerId !== invitation.partnerId || !existing.disabledAt) {
        throw new AppError("conflict", `${invitation.email} already has an account; sign in with it or ask for an invitation to another address.`);
      }
      userId = existing.id;
      await tx
        .update(users)
        .set({ passwordHash, name: input.name ?? null, partnerRole: invitation.role, disabledAt: null })
        .where(eq(users.id, userId));
    } else {
      userId = newId("user", now.getTime());
      await tx.insert(users).values({
        id: userId,
        email: invitation.email,
        name: input.name ?? null,
        passwordHash,
        role: "partner",
        partnerId: invitation.partnerId,
        partnerRole: invitation.role,
        createdAt: now,
      });
    }
    await tx.update(partnerInvitations).set({ acceptedAt: now, acceptedBy: userId }).where(eq(partnerInvitations.id, invitation.id));
    await recordAudit(
      tx,
      { type: "partner", id: userId },
      { action: "team.joined", targetType: "user", targetId: userId, partnerId: invitation.partnerId, data: { email: invitation.email, role: invitation.role, invitation: invitation.id } },
      now,
    );
    // The session the joiner gets must carry the row's version (a reactivated login keeps its own).
    return { userId, partnerId: invitation.partnerId, email: invitation.email, name: input.name ?? null, sessionVersion: existing?.sessionVersion ?? 0 };
  });
  return accepted.catch((error: unknown) => {
    throw isUniqueViolation(error) ? new AppError("conflict", "An account with this email already exists.") : error;
  });
}

/** Locks the partner's active owners (so two demotions cannot both pass the check) and counts them. */
export async function lockOwners(tx: Db, partnerId: string): Promise<string[]> {
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.partnerId, partnerId), eq(users.partnerRole, "owner"), isNull(users.disabledAt)))
    .for("update");
  return rows.map((r) => r.id);
}

async function lockMemberOrThrow(tx: Db, partnerId: string, userId: string) {
  const [member] = await tx
    .select({ id: users.id, email: users.email, role: users.partnerRole })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.partnerId, partnerId), eq(users.role, "partner"), isNull(users.disabledAt)))
    .for("update");
  if (!member) throw notFound("member");
  return member;
}

export const LAST_OWNER = "Every organisation needs an owner: make someone else an owner first.";

export async function changeMemberRole(db: Db, input: { partnerId: string; userId: string; role: PartnerRole }, actor: Actor) {
  return db.transaction(async (tx) => {
    const owners = await lockOwners(tx, input.partnerId);
    const member = await lockMemberOrThrow(tx, input.partnerId, input.userId);
    if (member.role === input.role) return { userId: member.id, role: member.role };
    if (member.role === "owner" && owners.length <= 1) throw new AppError("conflict", LAST_OWNER);
    await tx.update(users).set({ partnerRole: input.role }).where(eq(users.id, member.id));
    await recordAudit(tx, actor, {
      action: "team.role_changed",
      targetType: "user",
      targetId: member.id,
      partnerId: input.partnerId,
      data: { email: member.email, before: member.role, after: input.role },
    });
    return { userId: member.id, role: input.role };
  });
}

export async function removeMember(db: Db, input: { partnerId: string; userId: string }, actor: Actor) {
  return db.transaction(async (tx) => {
    const owners = await lockOwners(tx, input.partnerId);
    const member = await lockMemberOrThrow(tx, input.partnerId, input.userId);
    if (member.role === "owner" && owners.length <= 1) throw new AppError("conflict", LAST_OWNER);
    // The version bump keeps old cookies dead if the member is invited back later.
    await tx.update(users).set({ disabledAt: clock.now(), sessionVersion: sql`${users.sessionVersion} + 1` }).where(eq(users.id, member.id));
    await recordAudit(tx, actor, { action: "team.removed", targetType: "user", targetId: member.id, partnerId: input.partnerId, data: { email: member.email, role: member.role } });
    return { userId: member.id };
  });
}

export interface AuditPage {
  partnerId: string;
  cursor?: string | null;
  limit?: number;
  action?: string;
}

/** The organisation's own audit log, newest first (staff and system actors are not named). */
export async function listPartnerAudit(db: Db, input: AuditPage) {
  return listAudit(db, { ...input, namesStaff: false });
}
