import { z } from "zod";
import { partnerRoles } from "@/server/auth/partner-roles";
import { changeMemberRole, inviteMember, listPartnerAudit, listTeam, removeMember, revokeInvitation } from "@/server/services/team";
import { createTRPCRouter, ownerProcedure } from "../init";

// The organisation's team and audit log: owners only.

const userId = z.string().min(1).max(100);
const role = z.enum(partnerRoles);

export const inviteInput = z.object({
  email: z.string().trim().toLowerCase().max(320).pipe(z.email("Enter a valid email address")),
  role,
});

export const teamRouter = createTRPCRouter({
  /** team.list - active members and open invitations */
  list: ownerProcedure.query(({ ctx }) => listTeam(ctx.db, ctx.partnerId)),
  /** team.invite - the link is in this answer only */
  invite: ownerProcedure
    .input(inviteInput)
    .mutation(({ ctx, input }) => inviteMember(ctx.db, { ...input, partnerId: ctx.partnerId, invitedBy: ctx.user.id }, ctx.actor)),
  /** team.revokeInvitation - the link stops working */
  revokeInvitation: ownerProcedure
    .input(z.object({ id: z.string().min(1).max(100) }))
    .mutation(({ ctx, input }) => revokeInvitation(ctx.db, { partnerId: ctx.partnerId, invitationId: input.id }, ctx.actor)),
  /** team.setRole - never leaves the organisation without an owner */
  setRole: ownerProcedure
    .input(z.object({ userId, role }))
    .mutation(({ ctx, input }) => changeMemberRole(ctx.db, { ...input, partnerId: ctx.partnerId }, ctx.actor)),
  /** team.remove - signed out at once; the audit log keeps their name */
  remove: ownerProcedure.input(z.object({ userId })).mutation(({ ctx, input }) => removeMember(ctx.db, { ...input, partnerId: ctx.partnerId }, ctx.actor)),
  /** team.audit - the organisation's own actions, newest first */
  audit: ownerProcedure
    .input(z.object({ cursor: z.string().max(100).nullish(), limit: z.number().int().min(1).max(200).default(50), action: z.string().trim().max(80).optional() }))
    .query(({ ctx, input }) => listPartnerAudit(ctx.db, { ...input, partnerId: ctx.partnerId, action: input.action || undefined })),
});
