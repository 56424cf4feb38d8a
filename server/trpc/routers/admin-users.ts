import { z } from "zod";
import { partnerRole } from "@/db/schema";
import {
  addAccount,
  getUserForStaffOrThrow,
  searchUsersForStaff,
  setUserDisabled,
  setUserRole,
  signOutEverywhere,
  staffRoles,
  userRoles,
} from "@/server/services/admin-users";
import { adminProcedure, createTRPCRouter } from "../init";

// admin.users.*: everyone who signs in, for staff. Each procedure is the
// service the CLI's user:* command calls, with the signed-in staff member as actor.

const userId = z.string().min(1).max(100);
const reason = z.string().trim().min(3, "Give a reason (it goes in the audit log)").max(1000);
const staffActor = (id: string) => ({ type: "admin" as const, id });

export const adminUsersRouter = createTRPCRouter({
  /** admin.users.list - by email, name or id, newest first; filters by role, status and partner */
  list: adminProcedure
    .input(
      z.object({
        q: z.string().trim().max(320).optional(),
        role: z.enum(userRoles).optional(),
        status: z.enum(["active", "disabled"]).optional(),
        partnerId: z.string().trim().max(100).optional(),
        cursor: z.string().max(100).nullish(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) => searchUsersForStaff(ctx.db, { ...input, q: input.q || undefined, partnerId: input.partnerId || undefined })),
  /** admin.users.get - one user with their partner */
  get: adminProcedure.input(z.object({ id: userId })).query(({ ctx, input }) => getUserForStaffOrThrow(ctx.db, input.id)),
  /** admin.users.setDisabled - disable (signs out at once) or re-enable (user:disable [--enable]) */
  setDisabled: adminProcedure
    .input(z.object({ id: userId, disabled: z.boolean(), reason }))
    .mutation(({ ctx, input }) => setUserDisabled(ctx.db, { userId: input.id, disabled: input.disabled, reason: input.reason }, staffActor(ctx.user.id))),
  /** admin.users.signOutEverywhere - every session of the user ends (user:sign-out-everywhere) */
  signOutEverywhere: adminProcedure
    .input(z.object({ id: userId, reason }))
    .mutation(({ ctx, input }) => signOutEverywhere(ctx.db, { userId: input.id, reason: input.reason }, staffActor(ctx.user.id))),
  /** admin.users.setRole - staff or customer, or a team member's partner role (user:set-role) */
  setRole: adminProcedure
    .input(
      z.union([
        z.object({ id: userId, role: z.enum(staffRoles), reason }),
        z.object({ id: userId, partnerRole: z.enum(partnerRole.enumValues), reason }),
      ]),
    )
    .mutation(({ ctx, input }) => {
      const { id, ...change } = input;
      return setUserRole(ctx.db, { userId: id, ...change }, staffActor(ctx.user.id));
    }),
  /** admin.users.addStaff - a staff login with a generated password, shown in this answer only (user:create --role admin) */
  addStaff: adminProcedure
    .input(z.object({ email: z.string().trim().toLowerCase().max(320).pipe(z.email()), name: z.string().trim().max(120).optional() }))
    .mutation(({ ctx, input }) => addAccount(ctx.db, { email: input.email, name: input.name || undefined, role: "admin" }, staffActor(ctx.user.id))),
});
