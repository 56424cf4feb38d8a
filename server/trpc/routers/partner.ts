import { getPartnerOverviewOrThrow } from "@/server/services/dashboard";
import { createTRPCRouter, partnerProcedure } from "../init";

// Dashboard procedures for partner staff; every one is scoped to ctx.partnerId.

export const partnerRouter = createTRPCRouter({
  /** partner.overview - the dashboard home: partner, key counts, sandbox catalogue size */
  overview: partnerProcedure.query(({ ctx }) => getPartnerOverviewOrThrow(ctx.db, ctx.partnerId)),
});
