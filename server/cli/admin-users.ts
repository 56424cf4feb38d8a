import { z } from "zod";
import { partnerRole } from "@/db/schema";
import { getUserIdByEmailOrThrow, setUserDisabled, setUserRole, signOutEverywhere, staffRoles, type StaffUserView } from "@/server/services/admin-users";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// user:disable, user:sign-out-everywhere and user:set-role: the services behind
// the console's Users screen, the user named by email (user:create is with partner:*).

const reason = () => flag.text("reason").min(3, "must be at least 3 characters");

const result = (user: StaffUserView) => ({
  user_id: user.id,
  email: user.email,
  role: user.role,
  partner_id: user.partner?.id ?? null,
  partner_role: user.partnerRole,
  disabled_at: user.disabledAt,
  session_version: user.sessionVersion,
});

export const userCommands = {
  "user:disable": defineCommand({
    summary: "Disable a login (signed out at once), or --enable it again",
    usage: "--email E --reason R [--enable]",
    booleans: ["enable"],
    flags: z.strictObject({ email: flag.email(), reason: reason(), enable: flag.bool() }),
    async run(ctx, f) {
      const db = await ctx.db();
      const userId = await getUserIdByEmailOrThrow(db, f.email);
      return result(await setUserDisabled(db, { userId, disabled: !f.enable, reason: f.reason }, ctx.actor));
    },
  }),

  "user:sign-out-everywhere": defineCommand({
    summary: "End every session of a login on its next request (they can sign in again)",
    usage: "--email E --reason R",
    flags: z.strictObject({ email: flag.email(), reason: reason() }),
    async run(ctx, f) {
      const db = await ctx.db();
      const userId = await getUserIdByEmailOrThrow(db, f.email);
      return result(await signOutEverywhere(db, { userId, reason: f.reason }, ctx.actor));
    },
  }),

  "user:set-role": defineCommand({
    summary: "Make a login staff or a customer (--role), or change a partner member's role (--partner-role); signs them out",
    usage: "--email E (--role admin|customer | --partner-role owner|developer|finance|viewer) --reason R",
    flags: z
      .strictObject({
        email: flag.email(),
        role: z.enum(staffRoles, { error: "must be admin or customer" }).optional(),
        "partner-role": z.enum(partnerRole.enumValues, { error: `must be one of ${partnerRole.enumValues.join(", ")}` }).optional(),
        reason: reason(),
      })
      .refine((f) => (f.role === undefined) !== (f["partner-role"] === undefined), { path: ["role"], message: "give exactly one of --role and --partner-role" }),
    async run(ctx, f) {
      const db = await ctx.db();
      const userId = await getUserIdByEmailOrThrow(db, f.email);
      const change = f.role ? { role: f.role } : { partnerRole: f["partner-role"]! };
      return result(await setUserRole(db, { userId, reason: f.reason, ...change }, ctx.actor));
    },
  }),
};
