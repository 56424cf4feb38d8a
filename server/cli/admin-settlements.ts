import { z } from "zod";
import { runSettlement, serializeClosedStatement } from "@/server/services/settlements";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// settlement:run of the operations CLI: closes every monthly period ended at
// --as-of (default now) and prints the statements it closed (an empty list when
// there was nothing to close). A future --as-of closes the running month early,
// which is how scripted tests settle an order without waiting for the month's end.

export const settlementCommands = {
  "settlement:run": defineCommand({
    summary: "Close every ended settlement period (calendar month, UTC); prints the statements closed",
    usage: "[--as-of ISO]",
    flags: z.strictObject({
      "as-of": flag
        .text("ISO 8601 date or date-time")
        .pipe(z.union([z.iso.date(), z.iso.datetime({ offset: true })], { error: "must be an ISO 8601 date or date-time" }))
        .transform((value) => new Date(value.length === 10 ? `${value}T00:00:00.000Z` : value))
        .optional(),
    }),
    async run(ctx, f) {
      const result = await runSettlement(await ctx.db(), { asOf: f["as-of"], actor: ctx.actor });
      return {
        as_of: result.asOf.toISOString(),
        statements: result.statements.map(serializeClosedStatement),
        orders_settled_without_statement: result.ordersSettledWithoutStatement,
        referral_payouts: result.referralPayouts,
        brokerage_payouts: result.brokeragePayouts,
      };
    },
  }),
};
