import { z } from "zod";
import {
  listSimulationTargets,
  runSandboxSettlement,
  simulateBrokerage,
  simulateOrder,
  simulateReferral,
} from "@/server/services/sandbox-simulators";
import { createTRPCRouter, integrationMutation, integrationProcedure } from "../init";

// Sandbox simulators: the same services as the real moves, refused for live.

const id = z.string().min(1).max(100);

export const sandboxRouter = createTRPCRouter({
  /** sandbox.targets - recent orders, open cases and links to simulate on */
  targets: integrationProcedure.query(({ ctx }) => listSimulationTargets(ctx.db, ctx.owner)),
  /** sandbox.order - advance one step (review, transfer, settlement) or fail the transfer */
  order: integrationMutation
    .input(z.object({ orderId: id, simulation: z.enum(["advance", "fail"]) }))
    .mutation(async ({ ctx, input }) => {
      const result = await simulateOrder(ctx.db, ctx.owner, input, ctx.actor);
      return { orderId: result.order.id, status: result.order.status, settlement: "settlement" in result ? result.settlement : null };
    }),
  /** sandbox.settle - the partner's sandbox settlement run, now */
  settle: integrationMutation.mutation(({ ctx }) => runSandboxSettlement(ctx.db, ctx.owner, ctx.actor)),
  /** sandbox.brokerage - complete (at a price) or close a case */
  brokerage: integrationMutation
    .input(z.object({ caseId: id, simulation: z.enum(["complete", "close"]), finalPriceCents: z.number().int().positive().max(1e11).optional() }))
    .mutation(async ({ ctx, input }) => {
      const { row } = await simulateBrokerage(ctx.db, ctx.owner, input, ctx.actor);
      return { caseId: row.id, status: row.status, finalPriceCents: row.finalPriceCents, partnerShareCents: row.partnerShareCents };
    }),
  /** sandbox.referral - a click on the link, and with buy a storefront sale it refers */
  referral: integrationMutation
    .input(z.object({ linkId: id, buy: z.boolean().default(false) }))
    .mutation(({ ctx, input }) => simulateReferral(ctx.db, ctx.owner, input)),
});
