import { z } from "zod";
import { listPayoutsForStaff, markPayoutPaid, payoutKinds, payoutStatuses } from "@/server/services/payouts";
import { reinstatePartner, setPartnerTerms, suspendPartner } from "@/server/services/partner-standing";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// partner:set-terms, partner:suspend, partner:reinstate and payout:* of the
// operations CLI: the services behind the console's partner and payout screens.

const reason = () => flag.text("reason").min(3, "give a reason (3 characters or more)");
const bps = () =>
  flag
    .text("value")
    .regex(/^\d+$/, "must be a whole number of basis points (100 = 1 %)")
    .transform(Number)
    .refine((n) => n <= 10_000, "must be at most 10000 (100 %)");

export const standingCommands = {
  "partner:set-terms": defineCommand({
    summary: "Change a partner's payment model or rates (basis points); applies to sales from now on",
    usage: "--partner ID --reason R [--payment-model mor|non_mor] [--sale-bps N] [--referral-bps N] [--brokerage-bps N]",
    flags: z
      .strictObject({
        partner: flag.text("partner id"),
        reason: reason(),
        "payment-model": z.enum(["mor", "non_mor"], { error: "must be mor or non_mor" }).optional(),
        "sale-bps": bps().optional(),
        "referral-bps": bps().optional(),
        "brokerage-bps": bps().optional(),
      })
      .refine((f) => f["payment-model"] ?? f["sale-bps"] ?? f["referral-bps"] ?? f["brokerage-bps"], {
        path: ["payment-model"],
        message: "give at least one of --payment-model, --sale-bps, --referral-bps, --brokerage-bps",
      }),
    async run(ctx, f) {
      const result = await setPartnerTerms(
        await ctx.db(),
        {
          partnerId: f.partner,
          reason: f.reason,
          paymentModel: f["payment-model"],
          saleCommissionBps: f["sale-bps"],
          referralCommissionBps: f["referral-bps"],
          brokerageShareBps: f["brokerage-bps"],
        },
        ctx.actor,
      );
      return { partner_id: result.partnerId, terms: result.terms };
    },
  }),

  "partner:suspend": defineCommand({
    summary: "Suspend a partner: every key gets 403 partner_suspended at once, checkout links stop taking payments",
    usage: "--partner ID --reason R",
    flags: z.strictObject({ partner: flag.text("partner id"), reason: reason() }),
    async run(ctx, f) {
      const result = await suspendPartner(await ctx.db(), { partnerId: f.partner, reason: f.reason }, ctx.actor);
      return { partner_id: result.partnerId, suspended_at: result.suspendedAt.toISOString(), reason: result.suspendedReason };
    },
  }),

  "partner:reinstate": defineCommand({
    summary: "Lift a partner's suspension; its keys verify again at once",
    usage: "--partner ID --reason R",
    flags: z.strictObject({ partner: flag.text("partner id"), reason: reason() }),
    async run(ctx, f) {
      const result = await reinstatePartner(await ctx.db(), { partnerId: f.partner, reason: f.reason }, ctx.actor);
      return { partner_id: result.partnerId, suspended_at: null };
    },
  }),

  "payout:list": defineCommand({
    summary: "Payouts across partners, newest first (--status pending is what is still to be sent)",
    usage: "[--status pending|paid] [--env sandbox|live] [--kind commission|brokerage|referral] [--partner ID] [--limit N]",
    flags: z.strictObject({
      status: z.enum(payoutStatuses, { error: "must be pending or paid" }).optional(),
      env: flag.env().optional(),
      kind: z.enum(payoutKinds, { error: `must be one of ${payoutKinds.join(", ")}` }).optional(),
      partner: flag.text("partner id").optional(),
      limit: flag.text("number").regex(/^\d+$/, "must be a number").transform(Number).pipe(z.number().int().min(1).max(100)).optional(),
    }),
    async run(ctx, f) {
      const result = await listPayoutsForStaff(await ctx.db(), {
        status: f.status,
        environment: f.env,
        kind: f.kind,
        partnerId: f.partner,
        limit: f.limit ?? 50,
      });
      return { payouts: result.payouts, next_cursor: result.nextCursor };
    },
  }),

  "payout:mark-paid": defineCommand({
    summary: "Record that a pending payout was sent (its transfer reference); the partner gets payout.paid",
    usage: "--payout ID --reference REF [--reason R]",
    flags: z.strictObject({ payout: flag.text("payout id"), reference: flag.text("transfer reference"), reason: flag.text("reason").optional() }),
    async run(ctx, f) {
      return markPayoutPaid(await ctx.db(), { payoutId: f.payout, reference: f.reference, reason: f.reason }, ctx.actor);
    },
  }),
};
