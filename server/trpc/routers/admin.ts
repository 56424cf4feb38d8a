import { z } from "zod";
import { decideProductionAccess, listAccessRequests } from "@/server/services/account";
import { getAdminOverview } from "@/server/services/admin";
import { listAudit } from "@/server/services/audit";
import { getCaseForStaff, listCasesForStaff } from "@/server/services/admin-brokerage";
import { addBrokerageNote, advanceBrokerageCase } from "@/server/services/brokerage";
import { brokerageStatuses } from "@/server/contracts/brokerage";
import { getPartnerForStaff, searchPartners } from "@/server/services/admin-partners";
import { revokeCredential } from "@/server/services/partners";
import { reinstatePartner, setPartnerTerms, suspendPartner } from "@/server/services/partner-standing";
import { paymentModel } from "@/db/schema";
import { setAffiliate } from "@/server/services/referrals";
import { previewSettlement, runSettlementForStaff } from "@/server/services/admin-settlements";
import { getOrderForStaff, searchOrdersForStaff, staffActions } from "@/server/services/admin-orders";
import { transitionOrder, type OrderStatus } from "@/server/services/order-states";
import { refundOrder } from "@/server/services/refunds";
import { orderStatus } from "@/db/schema";
import { adminProcedure, createTRPCRouter } from "../init";
import { adminPayoutsRouter } from "./admin-payouts";
import { adminInventoryRouter } from "./admin-inventory";
import { adminHealthRouter } from "./admin-health";
import { adminOauthRouter } from "./admin-oauth";
import { adminUsersRouter } from "./admin-users";

// The admin console: staff only (adminProcedure answers FORBIDDEN to anyone
// else), each procedure over the service the operations CLI calls.

const status = z.enum(["pending", "approved", "declined"]);
const reason = z.string().trim().min(3, "Give a reason (it goes on the timeline and in the audit log)").max(1000);
const orderId = z.string().min(1).max(100);
const staffActor = (id: string) => ({ type: "admin" as const, id });
const partnerId = z.string().min(1).max(100);
const bps = z.number().int().min(0, "at least 0").max(10_000, "at most 10000 (100 %)");

/** A run closes every period that ended before `asOf`; with a partner, only that partner's environment. */
const settlementInput = z.object({
  asOf: z.iso.datetime(),
  partnerId: z.string().trim().max(100).optional(),
  environment: z.enum(["sandbox", "live"]).default("live"),
});
const settlementArgs = (input: z.infer<typeof settlementInput>) => ({
  asOf: new Date(input.asOf),
  only: input.partnerId ? { partnerId: input.partnerId, environment: input.environment } : undefined,
});

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
  orders: createTRPCRouter({
    /** admin.orders.list - across partners, newest first; the manual-review queue is status MANUAL_REVIEW */
    list: adminProcedure
      .input(
        z.object({
          status: z.enum(orderStatus.enumValues as [OrderStatus, ...OrderStatus[]]).optional(),
          environment: z.enum(["sandbox", "live"]).optional(),
          partnerId: z.string().max(100).optional(),
          q: z.string().trim().max(253).optional(),
          cursor: z.string().max(100).nullish(),
          limit: z.number().int().min(1).max(100).default(25),
        }),
      )
      .query(({ ctx, input }) => searchOrdersForStaff(ctx.db, { ...input, q: input.q || undefined, partnerId: input.partnerId || undefined })),
    /** admin.orders.get - the order, its timeline and the moves allowed from here */
    get: adminProcedure.input(z.object({ id: orderId })).query(({ ctx, input }) => getOrderForStaff(ctx.db, input.id)),
    /** admin.orders.transition - one move of the state machine, with a reason (order:clear-review, order:start-transfer, ...) */
    transition: adminProcedure
      .input(z.object({ id: orderId, action: z.enum(staffActions), reason }))
      .mutation(async ({ ctx, input }) => {
        const actor = { type: "admin" as const, id: ctx.user.id };
        if (input.action === "refund") await refundOrder(ctx.db, { orderId: input.id, reason: input.reason, actor });
        else await transitionOrder(ctx.db, { orderId: input.id, action: input.action, actor, note: input.reason });
        return getOrderForStaff(ctx.db, input.id);
      }),
  }),
  partners: createTRPCRouter({
    /** admin.partners.list - by name, email or id, newest first */
    list: adminProcedure
      .input(z.object({ q: z.string().trim().max(200).optional(), cursor: z.string().max(100).nullish(), limit: z.number().int().min(1).max(100).default(25) }))
      .query(({ ctx, input }) => searchPartners(ctx.db, { ...input, q: input.q || undefined })),
    /** admin.partners.get - organisation, keys, webhook health, recent requests and orders */
    get: adminProcedure.input(z.object({ id: z.string().min(1).max(100) })).query(({ ctx, input }) => getPartnerForStaff(ctx.db, input.id)),
    /** admin.partners.setAffiliate - the affiliate program on or off (partner:set-affiliate) */
    setAffiliate: adminProcedure
      .input(z.object({ id: z.string().min(1).max(100), isAffiliate: z.boolean() }))
      .mutation(({ ctx, input }) => setAffiliate(ctx.db, { partnerId: input.id, isAffiliate: input.isAffiliate }, staffActor(ctx.user.id))),
    /** admin.partners.revokeKey - immediate (credential:revoke) */
    revokeKey: adminProcedure
      .input(z.object({ id: z.string().min(1).max(100), keyId: z.string().regex(/^pk_(sandbox|live)_[A-Za-z0-9]{24}$/, "not a key id"), reason }))
      .mutation(async ({ ctx, input }) => {
        const result = await revokeCredential(ctx.db, { keyId: input.keyId, partnerId: input.id, reason: input.reason }, staffActor(ctx.user.id));
        return { keyId: result.keyId, revokedAt: result.revokedAt?.toISOString() ?? null };
      }),
    /** admin.partners.setTerms - payment model and rates for what happens next (partner:set-terms) */
    setTerms: adminProcedure
      .input(
        z.object({
          id: partnerId,
          paymentModel: z.enum(paymentModel.enumValues).optional(),
          saleCommissionBps: bps.optional(),
          referralCommissionBps: bps.optional(),
          brokerageShareBps: bps.optional(),
          reason,
        }),
      )
      .mutation(({ ctx, input: { id, ...terms } }) => setPartnerTerms(ctx.db, { partnerId: id, ...terms }, staffActor(ctx.user.id))),
    /** admin.partners.suspend - every key stops verifying at once (partner:suspend) */
    suspend: adminProcedure
      .input(z.object({ id: partnerId, reason }))
      .mutation(({ ctx, input }) => suspendPartner(ctx.db, { partnerId: input.id, reason: input.reason }, staffActor(ctx.user.id))),
    /** admin.partners.reinstate - lifts a suspension (partner:reinstate) */
    reinstate: adminProcedure
      .input(z.object({ id: partnerId, reason }))
      .mutation(({ ctx, input }) => reinstatePartner(ctx.db, { partnerId: input.id, reason: input.reason }, staffActor(ctx.user.id))),
  }),
  payouts: adminPayoutsRouter,
  brokerage: createTRPCRouter({
    /** admin.brokerage.list - every partner's cases, by stage */
    list: adminProcedure
      .input(
        z.object({
          statuses: z.array(z.enum(brokerageStatuses)).max(5).optional(),
          q: z.string().trim().max(253).optional(),
          cursor: z.string().max(100).nullish(),
          limit: z.number().int().min(1).max(100).default(25),
        }),
      )
      .query(({ ctx, input }) => listCasesForStaff(ctx.db, { ...input, q: input.q || undefined })),
    /** admin.brokerage.get - a case, its timeline and where it may go next */
    get: adminProcedure.input(z.object({ id: z.string().min(1).max(100) })).query(({ ctx, input }) => getCaseForStaff(ctx.db, input.id)),
    /** admin.brokerage.advance - the next stage, with a note the buyer reads (brokerage:advance) */
    advance: adminProcedure
      .input(
        z.object({
          id: z.string().min(1).max(100),
          to: z.enum(brokerageStatuses),
          note: reason,
          finalPriceCents: z.number().int().positive().max(1e11).optional(),
        }),
      )
      .mutation(async ({ ctx, input }) => {
        await advanceBrokerageCase(ctx.db, { caseId: input.id, to: input.to, finalPriceCents: input.finalPriceCents, note: input.note, actor: staffActor(ctx.user.id) });
        return getCaseForStaff(ctx.db, input.id);
      }),
    /** admin.brokerage.note - a note on the buyer's progress page, the stage unchanged */
    note: adminProcedure
      .input(z.object({ id: z.string().min(1).max(100), note: reason }))
      .mutation(async ({ ctx, input }) => {
        await addBrokerageNote(ctx.db, { caseId: input.id, note: input.note, actor: staffActor(ctx.user.id) });
        return getCaseForStaff(ctx.db, input.id);
      }),
  }),
  settlements: createTRPCRouter({
    /** admin.settlements.preview - what a run would close, computed by the run and rolled back; writes nothing */
    preview: adminProcedure.input(settlementInput).mutation(({ ctx, input }) => previewSettlement(ctx.db, settlementArgs(input), staffActor(ctx.user.id))),
    /** admin.settlements.run - the run (settlement:run), with a reason */
    run: adminProcedure
      .input(settlementInput.extend({ reason }))
      .mutation(({ ctx, input }) => runSettlementForStaff(ctx.db, { ...settlementArgs(input), reason: input.reason }, staffActor(ctx.user.id))),
  }),
  inventory: adminInventoryRouter,
  oauth: adminOauthRouter,
  health: adminHealthRouter,
  users: adminUsersRouter,
  /** admin.audit - every audited change, filtered by actor, action, entity and UTC time */
  audit: adminProcedure
    .input(
      z.object({
        action: z.string().trim().max(80).optional(),
        actorType: z.enum(["admin", "partner", "cli", "system"]).optional(),
        actorId: z.string().trim().max(100).optional(),
        targetType: z.string().trim().max(40).optional(),
        targetId: z.string().trim().max(200).optional(),
        partnerId: z.string().trim().max(100).optional(),
        from: z.iso.datetime().optional(),
        to: z.iso.datetime().optional(),
        cursor: z.string().max(100).nullish(),
        limit: z.number().int().min(1).max(200).default(50),
      }),
    )
    .query(({ ctx, input }) =>
      listAudit(ctx.db, {
        ...input,
        action: input.action || undefined,
        actorId: input.actorId || undefined,
        targetType: input.targetType || undefined,
        targetId: input.targetId || undefined,
        partnerId: input.partnerId || undefined,
        from: input.from ? new Date(input.from) : undefined,
        to: input.to ? new Date(input.to) : undefined,
        namesStaff: true,
      }),
    ),
});
