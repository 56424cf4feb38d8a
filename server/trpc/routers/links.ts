import { z } from "zod";
import { listQuery } from "@/server/contracts/common";
import {
  analyticsQuery,
  clicksQuery,
  createLinkBody,
  listCommissionsQuery,
  listReferralPayoutsQuery,
  listSalesQuery,
} from "@/server/contracts/referrals";
import {
  getAnalytics,
  getClicksReport,
  getLinkWithStatsOrThrow,
  listCommissions,
  listLinksWithStats,
  listReferralPayouts,
  listReferralSales,
} from "@/server/services/referral-reports";
import { createLink, getAffiliateStatus, requireAffiliate, serializeLink } from "@/server/services/referrals";
import { createTRPCRouter, partnerMutation, partnerProcedure } from "../init";

// Referral links and their reports: the procedures of GET/POST /links, /me/clicks,
// /me/sales, /me/commissions, /me/payouts and /analytics, over the same services
// and input schemas. The affiliate rule is the REST one (requireAffiliate): a
// partner without an affiliate account is refused every one of them with 403
// `forbidden` and the same message. REST reads the flag from the credential's
// partner; here it is read per call, so a staff change applies at once.

const linkId = z.string().min(1).max(64);

const affiliateOnly = partnerProcedure.use(async ({ ctx, next }) => {
  requireAffiliate(await getAffiliateStatus(ctx.db, ctx.partnerId));
  return next();
});

/** Viewers are refused first (partnerMutation), then non-affiliates. */
const affiliateMutation = partnerMutation.use(async ({ ctx, next }) => {
  requireAffiliate(await getAffiliateStatus(ctx.db, ctx.partnerId));
  return next();
});

export const linksRouter = createTRPCRouter({
  /** links.list - own links with all-time clicks, checkouts, sales and commission, newest first */
  list: affiliateOnly.input(listQuery).query(({ ctx, input }) => listLinksWithStats(ctx.db, { ...ctx.owner, ...input })),
  /** links.get - one own link with its statistics */
  get: affiliateOnly
    .input(z.object({ id: linkId }))
    .query(({ ctx, input }) => getLinkWithStatsOrThrow(ctx.db, { ...ctx.owner, linkId: input.id })),
  /** links.create - a tracked link to the storefront, a listed domain or a product page */
  create: affiliateMutation
    .input(createLinkBody)
    .mutation(async ({ ctx, input }) => serializeLink(await createLink(ctx.db, { ...ctx.owner, ...input }))),
  /** links.clicks - unique human clicks per UTC day, of every link or one */
  clicks: affiliateOnly
    .input(clicksQuery.extend({ linkId: linkId.optional() }))
    .query(({ ctx, input }) => getClicksReport(ctx.db, { ...ctx.owner, ...input })),
  /** links.sales - attributed sales, of every link or one, newest first */
  sales: affiliateOnly
    .input(listSalesQuery.extend({ linkId: linkId.optional() }))
    .query(({ ctx, input }) => listReferralSales(ctx.db, { ...ctx.owner, ...input })),
  /** links.analytics - the funnel (clicks, checkouts, sales) and revenue of a window */
  analytics: affiliateOnly.input(analyticsQuery).query(({ ctx, input }) => getAnalytics(ctx.db, { ...ctx.owner, ...input })),
  /** links.commissions - the commission ledger with running balance and totals per state */
  commissions: affiliateOnly
    .input(listCommissionsQuery)
    .query(({ ctx, input }) => listCommissions(ctx.db, { ...ctx.owner, ...input })),
  /** links.payouts - referral payouts and the total paid */
  payouts: affiliateOnly
    .input(listReferralPayoutsQuery)
    .query(({ ctx, input }) => listReferralPayouts(ctx.db, { ...ctx.owner, ...input })),
});
