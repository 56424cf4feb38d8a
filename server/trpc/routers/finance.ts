import { z } from "zod";
import { listPayoutsEndpoint, listSettlementsEndpoint, listTransactionsEndpoint } from "@/server/contracts/settlements";
import { isoInstant } from "@/server/contracts/common";
import { listCommissionsEndpoint } from "@/server/contracts/referrals";
import {
  getFinanceCharts,
  getReportingAccessOrThrow,
  getStatementOrThrow,
  listPayoutsWithTotals,
  listStatementOrders,
  listStatementsWithTotals,
} from "@/server/services/finance";
import { granularities } from "@/server/services/finance-series";
import { listCommissions } from "@/server/services/referral-reports";
import { requireAffiliate } from "@/server/services/referrals";
import { listTransactions, serializeTotals, serializeTransaction } from "@/server/services/transactions";
import { createTRPCRouter, partnerProcedure } from "../init";

// The Finance area: the REST reports with their own query schemas (the page's
// URL carries the REST filter parameters, and so does its CSV link), the same
// service functions, and the same partner-kind rules: statements for MoR
// partners, the commission ledger and funnel for affiliates.

/** Reads the partner kind once per call; the REST wrapper gets it from the credential. */
const reportingProcedure = partnerProcedure.use(async ({ ctx, next }) =>
  next({ ctx: { ...ctx, access: await getReportingAccessOrThrow(ctx.db, ctx.partnerId) } }),
);

/** A REST list's query schema, as the tRPC input (it has one; the contract's type keeps it optional). */
function queryOf<Q extends z.ZodType>(endpoint: { operationId: string; query?: Q }): Q {
  if (!endpoint.query) throw new Error(`${endpoint.operationId} has no query schema`);
  return endpoint.query;
}

const statementId = z.string().regex(/^stl_[A-Za-z0-9]{1,64}$/, "a statement id (stl_...)");

export const financeRouter = createTRPCRouter({
  /** finance.settlements - GET /settlements with totals per currency */
  settlements: reportingProcedure
    .input(queryOf(listSettlementsEndpoint))
    .query(({ ctx, input }) => listStatementsWithTotals(ctx.db, { ...ctx.owner, paymentModel: ctx.access.paymentModel, ...input })),
  /** finance.statement - one statement */
  statement: reportingProcedure
    .input(z.object({ id: statementId }))
    .query(({ ctx, input }) => getStatementOrThrow(ctx.db, { ...ctx.owner, paymentModel: ctx.access.paymentModel, id: input.id })),
  /** finance.statementOrders - the orders a statement settled */
  statementOrders: reportingProcedure
    .input(z.object({ id: statementId, limit: z.number().int().min(1).max(100).default(25), cursor: z.string().max(200).optional() }))
    .query(({ ctx, input }) => listStatementOrders(ctx.db, { ...ctx.owner, paymentModel: ctx.access.paymentModel, ...input })),
  /** finance.transactions - GET /transactions */
  transactions: partnerProcedure.input(queryOf(listTransactionsEndpoint)).query(async ({ ctx, input }) => {
    const page = await listTransactions(ctx.db, { ...ctx.owner, ...input, statuses: input.status, paymentModels: input.payment_model });
    return { data: page.rows.map(serializeTransaction), next_cursor: page.nextCursor, totals: page.totals.map(serializeTotals) };
  }),
  /** finance.payouts - GET /payouts with totals per currency */
  payouts: partnerProcedure
    .input(queryOf(listPayoutsEndpoint))
    .query(({ ctx, input }) => listPayoutsWithTotals(ctx.db, { ...ctx.owner, ...input, kinds: input.kind })),
  /** finance.commissions - GET /me/commissions (affiliates) */
  commissions: reportingProcedure.input(queryOf(listCommissionsEndpoint)).query(({ ctx, input }) => {
    requireAffiliate(ctx.access);
    return listCommissions(ctx.db, { ...ctx.owner, ...input });
  }),
  /** finance.charts - GMV and commission over time, orders by status, referral funnel */
  charts: reportingProcedure
    .input(z.object({ from: isoInstant.optional(), to: isoInstant.optional(), granularity: z.enum(granularities).default("day") }))
    .query(({ ctx, input }) => getFinanceCharts(ctx.db, { ...ctx.owner, isAffiliate: ctx.access.isAffiliate, ...input })),
});
