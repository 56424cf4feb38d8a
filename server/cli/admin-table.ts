import { z } from "zod";
import { seedDemoData } from "@/db/seed";
import { brokerageCommands } from "./admin-brokerage";
import { defineCommand, helpFor, type CommandTable } from "./admin-commands";
import { inventoryCommands } from "./admin-inventory";
import { oauthCommands } from "./admin-oauth";
import { consoleCommands } from "./admin-console";
import { orderCommands } from "./admin-orders";
import { partnerCommands } from "./admin-partners";
import { settlementCommands } from "./admin-settlements";
import { standingCommands } from "./admin-standing";
import { userCommands } from "./admin-users";

// Every command of `npm run admin`. A feature adds its commands by spreading its
// own table here (order:*, settlement:run, brokerage:advance, oauth:revoke).

export const commands: CommandTable = {
  help: defineCommand({
    summary: "List the commands",
    usage: "",
    flags: z.strictObject({}),
    run: async () => helpFor(commands),
  }),
  ...partnerCommands,
  ...standingCommands,
  ...inventoryCommands,
  ...orderCommands,
  ...settlementCommands,
  ...brokerageCommands,
  ...oauthCommands,
  ...consoleCommands,
  ...userCommands,
  seed: defineCommand({
    summary: "Load the demo data (inventories, demo partners, admin, buyer) unless already there",
    usage: "",
    flags: z.strictObject({}),
    async run(ctx) {
      const result = await seedDemoData(await ctx.db());
      return {
        seeded: result.seeded,
        inserted: { sandbox_domains: result.sandboxDomains, live_domains: result.liveDomains },
        ms: result.ms,
      };
    },
  }),
};
