import { z } from "zod";
import { clock } from "@/server/clock";
import { getHomeFigures, homePeriods, type HomePeriod } from "@/server/services/partner-home";
import { createTRPCRouter, partnerProcedure } from "../init";

// The dashboard home's key figures.

const periods = Object.keys(homePeriods) as [HomePeriod, ...HomePeriod[]];

export const homeRouter = createTRPCRouter({
  /** home.figures - GMV, orders, commission, checkout conversion, webhook success, API errors for 7/30/90 days */
  figures: partnerProcedure
    .input(z.object({ period: z.enum(periods).default("30d") }))
    .query(({ ctx, input }) => getHomeFigures(ctx.db, { ...ctx.owner, period: input.period, now: clock.now() })),
});
