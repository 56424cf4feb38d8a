import { z } from "zod";
import { listPayoutsForStaff, markPayoutPaid, payoutKinds, payoutStatuses } from "@/server/services/payouts";
import { adminProcedure, createTRPCRouter } from "../init";

// admin.payouts: what the service owes partners and staff pay by bank transfer
// (commission, brokerage and referral payouts), over the services of
// payout:list and payout:mark-paid.

export const adminPayoutsRouter = createTRPCRouter({
  /** admin.payouts.list - across partners, newest first; status pending is the queue to pay */
  list: adminProcedure
    .input(
      z.object({
        status: z.enum(payoutStatuses).optional(),
        environment: z.enum(["sandbox", "live"]).optional(),
        kind: z.enum(payoutKinds).optional(),
        partnerId: z.string().trim().max(100).optional(),
        q: z.string().trim().max(200).optional(),
        cursor: z.string().max(100).nullish(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) => listPayoutsForStaff(ctx.db, { ...input, q: input.q || undefined, partnerId: input.partnerId || undefined })),
  /** admin.payouts.markPaid - the transfer went out: its reference, then payout.paid to the partner */
  markPaid: adminProcedure
    .input(
      z.object({
        id: z.string().min(1).max(100),
        reference: z.string().trim().min(3, "Give the transfer's reference (3 characters or more)").max(200),
        reason: z.string().trim().max(1000).optional(),
      }),
    )
    .mutation(({ ctx, input }) => markPayoutPaid(ctx.db, { payoutId: input.id, reference: input.reference, reason: input.reason || undefined }, { type: "admin", id: ctx.user.id })),
});
