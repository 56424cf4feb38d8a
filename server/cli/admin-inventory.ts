import { readFile } from "node:fs/promises";
import { z } from "zod";
import { AppError } from "@/server/errors";
import { retokenizeInventory } from "@/server/search/retokenize";
import { addDomain, removeDomain, serializeListing, setDomainPrice } from "@/server/services/inventory";
import { CLI_IMPORT_LIMITS, IMPORT_FORMAT, importLimitsText, importListings } from "@/server/services/inventory-import";
import { defineCommand } from "./admin-commands";
import { flag } from "./args";

// domain:* of the operations CLI. Names and prices are checked by the service,
// so the CLI and the dashboard refuse exactly the same input. --reason goes in
// the audit row beside the listing before and after.

const priced = z.strictObject({
  env: flag.env(),
  name: flag.text("domain name"),
  price: flag.cents(),
  floor: flag.cents().optional(),
  currency: flag.text("currency code").optional(),
  reason: flag.text("reason").optional(),
});

export const inventoryCommands = {
  "domain:add": defineCommand({
    summary: "List a domain in the sandbox or live inventory",
    usage: "--env sandbox|live --name NAME --price CENTS [--floor CENTS] [--currency USD] [--reason TEXT]",
    flags: priced,
    async run(ctx, f) {
      const row = await addDomain(
        await ctx.db(),
        { environment: f.env, name: f.name, priceCents: f.price, floorPriceCents: f.floor, currency: f.currency, reason: f.reason },
        ctx.actor,
      );
      return serializeListing(row);
    },
  }),

  "domain:set-price": defineCommand({
    summary: "Change a listing's price (and floor or currency)",
    usage: "--env sandbox|live --name NAME --price CENTS [--floor CENTS] [--currency USD] [--reason TEXT]",
    flags: priced,
    async run(ctx, f) {
      const row = await setDomainPrice(
        await ctx.db(),
        { environment: f.env, name: f.name, priceCents: f.price, floorPriceCents: f.floor, currency: f.currency, reason: f.reason },
        ctx.actor,
      );
      return serializeListing(row);
    },
  }),

  "domain:remove": defineCommand({
    summary: "Take an available listing off sale",
    usage: "--env sandbox|live --name NAME [--reason TEXT]",
    flags: z.strictObject({ env: flag.env(), name: flag.text("domain name"), reason: flag.text("reason").optional() }),
    async run(ctx, f) {
      return serializeListing(await removeDomain(await ctx.db(), { environment: f.env, name: f.name, reason: f.reason }, ctx.actor));
    },
  }),

  "search:retokenize": defineCommand({
    summary: "Cut every listing's search words again with the current segmenter (the worker does it once after an upgrade); changes only tokens the older segmenter made",
    usage: "",
    flags: z.strictObject({}),
    async run(ctx) {
      return retokenizeInventory(await ctx.db());
    },
  }),

  "domain:import": defineCommand({
    summary: `List or reprice many domains from a CSV, all or nothing (a bad row: nothing written, each bad row reported). ${IMPORT_FORMAT} ${importLimitsText(CLI_IMPORT_LIMITS)}`,
    usage: "--env sandbox|live --file PATH --reason TEXT [--dry-run]",
    flags: z.strictObject({ env: flag.env(), file: flag.text("file path"), reason: flag.text("reason"), "dry-run": flag.bool() }),
    booleans: ["dry-run"],
    async run(ctx, f) {
      const csvText = await readCsv(f.file);
      const report = await importListings(await ctx.db(), { environment: f.env, csvText, reason: f.reason, dryRun: Boolean(f["dry-run"]), limits: CLI_IMPORT_LIMITS }, ctx.actor);
      if (report.problemCount > 0) {
        // Exit 1 with every listed problem, one detail per bad cell, like a bad flag.
        throw new AppError(
          "validation_error",
          `${report.problemCount} problem(s) in ${f.file}; nothing imported`,
          report.problems.map((p) => ({ path: `line ${p.line}: ${p.column}`, message: p.message })),
        );
      }
      return report;
    },
  }),
};

async function readCsv(path: string): Promise<string> {
  let buffer: Buffer;
  try {
    buffer = await readFile(path);
  } catch (error) {
    throw new AppError("validation_error", `--file: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  const mb = CLI_IMPORT_LIMITS.maxBytes / 1024 / 1024;
  if (buffer.length > CLI_IMPORT_LIMITS.maxBytes) throw new AppError("payload_too_large", `${path} is larger than ${mb} MB: split it into several files`);
  return buffer.toString("utf8");
}
