import { z } from "zod";
import { listQuery, domainNameInput } from "@/server/contracts/common";
import { brokerageStatuses, createBrokerageCaseBody } from "@/server/contracts/brokerage";
import {
  checkEligibility,
  createBrokerageCase,
  getBrokerageCaseOrThrow,
  listBrokerageCases,
  serializeBrokerageCase,
  serializeBrokerageCaseSummary,
} from "@/server/services/brokerage";
import { createTRPCRouter, partnerMutation, partnerProcedure } from "../init";

// Brokerage cases: the procedures of GET /brokerage/eligibility, POST and GET
// /brokerage and GET /brokerage/{case_id}, over the same services and schemas.
// Opening a case is audited by the service (brokerage.case_opened) with the
// signed-in user as actor.

export const brokerageRouter = createTRPCRouter({
  /** brokerage.list - own cases, newest first, optionally of some statuses */
  list: partnerProcedure
    .input(listQuery.extend({ status: z.array(z.enum(brokerageStatuses)).max(brokerageStatuses.length).optional() }))
    .query(async ({ ctx, input }) => {
      const page = await listBrokerageCases(ctx.db, { ...ctx.owner, limit: input.limit, cursor: input.cursor, statuses: input.status });
      return { data: page.rows.map(serializeBrokerageCaseSummary), next_cursor: page.nextCursor };
    }),
  /** brokerage.get - one own case with its timeline */
  get: partnerProcedure
    .input(z.object({ caseId: z.string().min(1).max(64) }))
    .query(async ({ ctx, input }) => serializeBrokerageCase(await getBrokerageCaseOrThrow(ctx.db, { ...ctx.owner, caseId: input.caseId }))),
  /** brokerage.eligibility - can this domain be brokered in this environment, and if not why */
  eligibility: partnerProcedure
    .input(z.object({ domain: domainNameInput }))
    .query(({ ctx, input }) => checkEligibility(ctx.db, { environment: ctx.environment, domain: input.domain })),
  /** brokerage.create - open a case (re-checks eligibility; 409 conflict with the reasons) */
  create: partnerMutation.input(createBrokerageCaseBody).mutation(async ({ ctx, input }) =>
    serializeBrokerageCase(
      await createBrokerageCase(ctx.db, {
        ...ctx.owner,
        domain: input.domain,
        tier: input.tier,
        buyerEmail: input.buyer_email,
        budgetCents: input.budget,
        currency: input.currency,
        actor: ctx.actor,
      }),
    ),
  ),
});
