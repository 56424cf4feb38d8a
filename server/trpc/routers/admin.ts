import { z } from "zod";
import { decideProductionAccess, listAccessRequests } from "@/server/services/account";
import { getAdminOverview } from "@/server/services/admin";
import { adminProcedure, createTRPCRouter } from "../init";

// The admin console: staff only (adminProcedure answers FORBIDDEN to anyone
// else), each procedure over the service the operations CLI calls.

const status = z.enum(["pending", "approved", "declined"]);

export const adminRouter = createTRPCRouter({
  /** admin.overview - the queues waiting for staff */
  overview: adminProcedure.query(({ ctx }) => getAdminOverview(ctx.db)),
  accessRequests: createTRPCRouter({
    /** admin.accessRequests.list - newest first; `before` is the last id seen (partner:access-requests) */
    list: adminProcedure
      .input(z.object({ status: status.optional(), cursor: z.string().max(100).nullish(), limit: z.number().int().min(1).max(100).default(25) }))
      .query(async ({ ctx, input }) => {
        const rows = await listAccessRequests(ctx.db, { status: input.status, before: input.cursor ?? undefined, limit: input.limit + 1 });
        return { requests: rows.slice(0, input.limit), nextCursor: rows.length > input.limit ? (rows[input.limit - 1]?.id ?? null) : null };
      }),
    /** admin.accessRequests.decide - approve (grants live access) or decline, with a reason (partner:access-decide) */
    decide: adminProcedure
      .input(
        z.object({
          requestId: z.string().min(1).max(100),
          decision: z.enum(["approved", "declined"]),
          note: z.string().trim().min(3, "Give a reason the partner will read").max(1000),
        }),
      )
      .mutation(({ ctx, input }) => decideProductionAccess(ctx.db, input, { type: "admin", id: ctx.user.id })),
  }),
});
