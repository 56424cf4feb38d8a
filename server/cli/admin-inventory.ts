import { z } from "zod";
import { addDomain, removeDomain, serializeListing, setDomainPrice } from "@/server/services/inventory";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// domain:* of the operations CLI. Names and prices are checked by the service,
// so the CLI and the dashboard refuse exactly the same input.

const priced = z.strictObject({
  env: flag.env(),
  name: flag.text("domain name"),
  price: flag.cents(),
  floor: flag.cents().optional(),
  currency: flag.text("currency code").optional(),
});

export const inventoryCommands = {
  "domain:add": defineCommand({
    summary: "List a domain in the sandbox or live inventory",
    usage: "--env sandbox|live --name NAME --price CENTS [--floor CENTS] [--currency USD]",
    flags: priced,
    async run(ctx, f) {
      const row = await addDomain(
        await ctx.db(),
        { environment: f.env, name: f.name, priceCents: f.price, floorPriceCents: f.floor, currency: f.currency },
        ctx.actor,
      );
      return serializeListing(row);
    },
  }),

  "domain:set-price": defineCommand({
    summary: "Change a listing's price (and floor or currency)",
    usage: "--env sandbox|live --name NAME --price CENTS [--floor CENTS] [--currency USD]",
    flags: priced,
    async run(ctx, f) {
      const row = await setDomainPrice(
        await ctx.db(),
        { environment: f.env, name: f.name, priceCents: f.price, floorPriceCents: f.floor, currency: f.currency },
        ctx.actor,
      );
      return serializeListing(row);
    },
  }),

  "domain:remove": defineCommand({
    summary: "Take an available listing off sale",
    usage: "--env sandbox|live --name NAME",
    flags: z.strictObject({ env: flag.env(), name: flag.text("domain name") }),
    async run(ctx, f) {
      return serializeListing(await removeDomain(await ctx.db(), { environment: f.env, name: f.name }, ctx.actor));
    },
  }),
};
