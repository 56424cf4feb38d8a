import { z } from "zod";
import { getOnboarding, getOrganisationOrThrow, requestProductionAccess } from "@/server/services/account";
import { getPartnerOverviewOrThrow } from "@/server/services/dashboard";
import { createTRPCRouter, ownerProcedure, partnerProcedure } from "../init";

// The partner's organisation: overview, onboarding checklist, production access.

export const accessRequestInput = z.object({
  website: z.string().trim().min(4, "Enter your website").max(200).pipe(z.url({ protocol: /^https?$/, error: "Enter a URL such as https://example.com" })),
  useCase: z.string().trim().min(20, "Tell us in a sentence or two (20 characters or more)").max(2000),
  expectedMonthlyOrders: z.coerce.number().int("A whole number").min(0).max(10_000_000),
});

export const accountRouter = createTRPCRouter({
  /** account.overview - partner, key counts, sandbox catalogue size */
  overview: partnerProcedure.query(({ ctx }) => getPartnerOverviewOrThrow(ctx.db, ctx.partnerId)),
  /** account.onboarding - the checklist ticked from real (sandbox) data */
  onboarding: partnerProcedure.query(({ ctx }) => getOnboarding(ctx.db, ctx.partnerId)),
  /** account.organisation - name, payment model, rates, production access */
  organisation: partnerProcedure.query(({ ctx }) => getOrganisationOrThrow(ctx.db, ctx.partnerId)),
  /** account.requestProductionAccess - ask staff for live access */
  requestProductionAccess: ownerProcedure
    .input(accessRequestInput)
    .mutation(({ ctx, input }) => requestProductionAccess(ctx.db, { ...input, partnerId: ctx.partnerId, requestedBy: ctx.user.id }, ctx.actor)),
  /** account.me - who is signed in, in which environment */
  me: partnerProcedure.query(({ ctx }) => ({
    email: ctx.user.email,
    name: ctx.user.name,
    partnerRole: ctx.user.partnerRole,
    environment: ctx.environment,
  })),
});
