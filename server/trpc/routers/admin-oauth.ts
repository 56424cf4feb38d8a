import { z } from "zod";
import { revokeOAuthAccess } from "@/server/oauth/revoke";
import { getOAuthClientForStaff, listOAuthClientsForStaff } from "@/server/services/admin-oauth";
import { adminProcedure, createTRPCRouter } from "../init";

// admin.oauth.*: registered OAuth clients and their grants; revocation is the
// service of oauth:revoke, with the reason staff give in the confirm dialog.

const clientId = z.string().trim().min(1).max(100);
const reason = z.string().trim().min(3, "Give a reason (it goes in the audit log)").max(1000);
const staffActor = (id: string) => ({ type: "admin" as const, id });

export const adminOauthRouter = createTRPCRouter({
  /** admin.oauth.list - by name, client_id or redirect URI, newest first */
  list: adminProcedure
    .input(
      z.object({
        q: z.string().trim().max(200).optional(),
        status: z.enum(["active", "revoked"]).optional(),
        cursor: z.string().max(100).nullish(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) => listOAuthClientsForStaff(ctx.db, { ...input, q: input.q || undefined })),
  /** admin.oauth.get - a client and its grants by user */
  get: adminProcedure.input(z.object({ id: clientId })).query(({ ctx, input }) => getOAuthClientForStaff(ctx.db, input.id)),
  /** admin.oauth.revokeClient - no further authorizations, every token refused at once (oauth:revoke --client) */
  revokeClient: adminProcedure
    .input(z.object({ id: clientId, reason }))
    .mutation(({ ctx, input }) => revokeOAuthAccess(ctx.db, { clientId: input.id }, staffActor(ctx.user.id), { reason: input.reason })),
  /** admin.oauth.revokeUser - a user's tokens, held by one client or by every client (oauth:revoke --user [--client]) */
  revokeUser: adminProcedure
    .input(z.object({ userEmail: z.email().max(320), clientId: clientId.optional(), reason }))
    .mutation(({ ctx, input }) =>
      revokeOAuthAccess(ctx.db, { userEmail: input.userEmail, clientId: input.clientId }, staffActor(ctx.user.id), { reason: input.reason }),
    ),
});
