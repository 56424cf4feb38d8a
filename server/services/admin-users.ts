import { and, desc, eq, ilike, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { partners, users } from "@/db/schema";
import type { PartnerRole } from "@/server/auth/partner-roles";
import { clock } from "@/server/clock";
import { AppError, isUniqueViolation, notFound } from "@/server/errors";
import { randomBase62 } from "@/server/ids";
import { recordAudit } from "./audit";
import { createUser, type Actor } from "./partners";
import { LAST_OWNER, lockOwners } from "./team";

// Everyone who signs in, as staff see them: search, disable or re-enable, change
// a role, sign out everywhere, add staff. The console and the CLI's user:*
// commands call these functions. Every change is audited with before, after and
// the reason in its transaction, and everything that takes access away bumps
// users.session_version, which every session JWT must match (server/auth/session.ts).

export const staffRoles = ["admin", "customer"] as const;
export type StaffRole = (typeof staffRoles)[number];
export const userRoles = ["admin", "partner", "customer"] as const;
export type UserRole = (typeof userRoles)[number];

const USER_ID = /^usr_[0-9A-Za-z]{22}$/;
const bumpVersion = { sessionVersion: sql`${users.sessionVersion} + 1` };

export interface StaffUserSearch {
  /** Part of the email or name, or the id. */
  q?: string;
  role?: UserRole;
  status?: "active" | "disabled";
  partnerId?: string;
  cursor?: string | null;
  limit: number;
}

const columns = {
  id: users.id,
  email: users.email,
  name: users.name,
  role: users.role,
  partnerId: users.partnerId,
  partnerName: partners.name,
  partnerRole: users.partnerRole,
  disabledAt: users.disabledAt,
  sessionVersion: users.sessionVersion,
  createdAt: users.createdAt,
};
const selectUsers = (db: Db) => db.select(columns).from(users).leftJoin(partners, eq(partners.id, users.partnerId));
type Row = Awaited<ReturnType<typeof selectUsers>>[number];

// No sign-in time is recorded anywhere (sessions are JWTs; only failed-attempt
// buckets are stored), so the view has none rather than a guess.
function view(row: Row) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    partner: row.partnerId ? { id: row.partnerId, name: row.partnerName ?? row.partnerId } : null,
    partnerRole: row.role === "partner" ? row.partnerRole : null,
    disabledAt: row.disabledAt?.toISOString() ?? null,
    sessionVersion: row.sessionVersion,
    createdAt: row.createdAt.toISOString(),
  };
}
export type StaffUserView = ReturnType<typeof view>;

/** Newest first; user ids sort by time, so the id is the keyset. */
export async function searchUsersForStaff(db: Db, input: StaffUserSearch) {
  if (input.cursor && !USER_ID.test(input.cursor)) throw new AppError("validation_error", "cursor is not a user id of this listing");
  const term = input.q ? `%${input.q.replace(/[%_\\]/g, "\\$&")}%` : undefined;
  const filters: (SQL | undefined)[] = [
    term ? or(ilike(users.email, term), ilike(users.name, term), eq(users.id, input.q ?? "")) : undefined,
    input.role ? eq(users.role, input.role) : undefined,
    input.status === "disabled" ? isNotNull(users.disabledAt) : input.status === "active" ? isNull(users.disabledAt) : undefined,
    input.partnerId ? eq(users.partnerId, input.partnerId) : undefined,
    input.cursor ? lt(users.id, input.cursor) : undefined,
  ];
  const rows = await selectUsers(db)
    .where(and(...filters))
    .orderBy(desc(users.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return { users: page.map(view), nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null };
}

export async function getUserForStaffOrThrow(db: Db, userId: string): Promise<StaffUserView> {
  const [row] = await selectUsers(db).where(eq(users.id, userId));
  if (!row) throw notFound("user");
  return view(row);
}

/** The CLI names people by email. */
export async function getUserIdByEmailOrThrow(db: Db, email: string): Promise<string> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
  if (!row) throw new AppError("not_found", `no user with email ${email}`);
  return row.id;
}

/**
 * The user's row, locked, and for a partner's member the partner's active
 * owners, locked first: team.ts takes owners before the member, and the same
 * order here keeps a concurrent team change from deadlocking with this one.
 */
async function lockUserOrThrow(tx: Db, userId: string) {
  if (!USER_ID.test(userId)) throw notFound("user");
  const [peek] = await tx.select({ partnerId: users.partnerId }).from(users).where(eq(users.id, userId));
  if (!peek) throw notFound("user");
  const owners = peek.partnerId ? await lockOwners(tx, peek.partnerId) : [];
  const [row] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  if (!row) throw notFound("user");
  return { row, owners };
}

const isSelf = (actor: Actor, userId: string) => actor.type === "admin" && actor.id === userId;

/** The state an audit row's before/after records. */
const snapshot = (row: { role: UserRole; partnerRole: PartnerRole; disabledAt: Date | null; sessionVersion: number }) => ({
  role: row.role,
  ...(row.role === "partner" ? { partnerRole: row.partnerRole } : {}),
  disabled: row.disabledAt !== null,
  sessionVersion: row.sessionVersion,
});

/** A partner's last active owner stays (as on the team page): the organisation would have nobody to manage its team. */
function assertNotLastOwner(locked: { row: { role: UserRole; partnerRole: PartnerRole; disabledAt: Date | null }; owners: string[] }) {
  const { row, owners } = locked;
  if (row.role === "partner" && row.partnerRole === "owner" && !row.disabledAt && owners.length <= 1) throw new AppError("conflict", LAST_OWNER);
}

export interface SetDisabledInput {
  userId: string;
  disabled: boolean;
  reason: string;
}

/** Disabling signs the user out at once (and bumps the version, so re-enabling does not revive old cookies). */
export async function setUserDisabled(db: Db, input: SetDisabledInput, actor: Actor): Promise<StaffUserView> {
  if (input.disabled && isSelf(actor, input.userId)) throw new AppError("conflict", "You cannot disable your own account; ask another staff member.");
  await db.transaction(async (tx) => {
    const locked = await lockUserOrThrow(tx, input.userId);
    const { row } = locked;
    if (input.disabled === (row.disabledAt !== null)) {
      throw new AppError("conflict", `${row.email} is already ${input.disabled ? "disabled" : "enabled"}.`);
    }
    if (input.disabled) assertNotLastOwner(locked);
    const [after] = await tx
      .update(users)
      .set(input.disabled ? { disabledAt: clock.now(), ...bumpVersion } : { disabledAt: null })
      .where(eq(users.id, row.id))
      .returning();
    await recordAudit(tx, actor, {
      action: input.disabled ? "user.disabled" : "user.enabled",
      targetType: "user",
      targetId: row.id,
      partnerId: row.partnerId,
      data: { email: row.email, before: snapshot(row), after: snapshot(after!), reason: input.reason },
    });
  });
  return getUserForStaffOrThrow(db, input.userId);
}

/** Every session of the user ends on its next request; they can sign in again. */
export async function signOutEverywhere(db: Db, input: { userId: string; reason: string }, actor: Actor): Promise<StaffUserView> {
  await db.transaction(async (tx) => {
    const { row } = await lockUserOrThrow(tx, input.userId);
    const [after] = await tx.update(users).set(bumpVersion).where(eq(users.id, row.id)).returning();
    await recordAudit(tx, actor, {
      action: "user.signed_out_everywhere",
      targetType: "user",
      targetId: row.id,
      partnerId: row.partnerId,
      data: { email: row.email, before: snapshot(row), after: snapshot(after!), reason: input.reason },
    });
  });
  return getUserForStaffOrThrow(db, input.userId);
}

/**
 * Staff promote or demote between admin and customer; a partner's team member
 * changes partner role instead (their partner is not picked here: a partner
 * login belongs to one organisation). Either signs the user out everywhere.
 */
export type RoleChange = { userId: string; reason: string } & ({ role: StaffRole } | { partnerRole: PartnerRole });

export async function setUserRole(db: Db, input: RoleChange, actor: Actor): Promise<StaffUserView> {
  await db.transaction(async (tx) => {
    const locked = await lockUserOrThrow(tx, input.userId);
    const { row } = locked;
    let change: Partial<typeof users.$inferInsert>;
    if ("role" in input) {
      if (row.role === "partner") {
        throw new AppError("conflict", `${row.email} belongs to a partner's team: change their partner role, or disable the login.`);
      }
      if (isSelf(actor, row.id) && input.role !== "admin") throw new AppError("conflict", "You cannot remove your own staff role; ask another staff member.");
      if (row.role === input.role) throw new AppError("conflict", `${row.email} is already ${input.role === "admin" ? "staff" : "a customer"}.`);
      change = { role: input.role };
    } else {
      if (row.role !== "partner") throw new AppError("conflict", `${row.email} is not on a partner's team; partner roles apply only there.`);
      if (row.partnerRole === input.partnerRole) throw new AppError("conflict", `${row.email} is already ${input.partnerRole}.`);
      if (input.partnerRole !== "owner") assertNotLastOwner(locked);
      change = { partnerRole: input.partnerRole };
    }
    const [after] = await tx
      .update(users)
      .set({ ...change, ...bumpVersion })
      .where(eq(users.id, row.id))
      .returning();
    await recordAudit(tx, actor, {
      action: "user.role_changed",
      targetType: "user",
      targetId: row.id,
      partnerId: row.partnerId,
      data: { email: row.email, before: snapshot(row), after: snapshot(after!), reason: input.reason },
    });
  });
  return getUserForStaffOrThrow(db, input.userId);
}

export interface AddAccountInput {
  email: string;
  name?: string;
  /** Without one, a password is generated and returned once (there is no mail server to send an invitation). */
  password?: string;
  role: StaffRole;
  reason?: string;
}

/** A staff (or customer) login, audited; the generated password is in this answer only. */
export async function addAccount(db: Db, input: AddAccountInput, actor: Actor) {
  const password = input.password ?? randomBase62(20);
  const created = await db
    .transaction(async (tx) => {
      const user = await createUser(tx, { email: input.email, name: input.name, password, role: input.role });
      await recordAudit(tx, actor, {
        action: "user.created",
        targetType: "user",
        targetId: user.userId,
        data: { email: user.email, before: null, after: { role: input.role, name: input.name ?? null }, ...(input.reason ? { reason: input.reason } : {}) },
      });
      return user;
    })
    .catch((error: unknown) => {
      throw isUniqueViolation(error) ? new AppError("conflict", `a user with email ${input.email.trim().toLowerCase()} already exists`) : error;
    });
  return { userId: created.userId, email: created.email, role: input.role, generatedPassword: input.password ? null : password };
}
