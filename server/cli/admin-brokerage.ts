import { z } from "zod";
import { brokerageStatuses } from "@/server/contracts/brokerage";
import { advanceBrokerageCase, serializeBrokerageCase } from "@/server/services/brokerage";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// brokerage:advance of the operations CLI: staff move a case through its states
// and print it with its timeline. An illegal move exits 1 with `conflict`, an
// unknown case with `not_found`; COMPLETED needs --final-price (minor units) and
// emits brokerage.case_completed.

export const brokerageCommands = {
  "brokerage:advance": defineCommand({
    summary: "Move a brokerage case (OPEN -> RESEARCHING -> NEGOTIATING -> COMPLETED, or CLOSED_NO_DEAL)",
    usage: "--to RESEARCHING|NEGOTIATING|COMPLETED|CLOSED_NO_DEAL [--final-price CENTS] [--note TEXT]",
    args: ["CASE_ID"],
    flags: z.strictObject({
      to: z.enum(brokerageStatuses.filter((s) => s !== "OPEN") as ["RESEARCHING", "NEGOTIATING", "COMPLETED", "CLOSED_NO_DEAL"], {
        error: (i) => (i.input === undefined ? "is required" : "must be RESEARCHING, NEGOTIATING, COMPLETED or CLOSED_NO_DEAL"),
      }),
      "final-price": flag.cents().optional(),
      note: flag.text("note").optional(),
    }),
    async run(ctx, f) {
      const result = await advanceBrokerageCase(await ctx.db(), {
        caseId: ctx.args[0]!,
        to: f.to,
        finalPriceCents: f["final-price"],
        note: f.note,
        actor: ctx.actor,
      });
      return serializeBrokerageCase(result);
    },
  }),
};
