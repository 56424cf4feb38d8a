import { z } from "zod";
import { countInventory, listingStatuses, searchInventoryForStaff } from "@/server/services/admin-inventory";
import { addDomain, MAX_PRICE_CENTS, removeDomain, setDomainPrice, serializeListing } from "@/server/services/inventory";
import { IMPORT_MAX_BYTES, importListings } from "@/server/services/inventory-import";
import { adminProcedure, createTRPCRouter } from "../init";

// admin.inventory.*: listings of one environment, and the domain:* commands of
// the operations CLI (add, set-price, remove, import) over the same services.
// Every change carries a reason, kept in its audit row with before and after.

const environment = z.enum(["sandbox", "live"]);
const name = z.string().trim().min(1, "Enter a domain name").max(253);
const reason = z.string().trim().min(3, "Give a reason (it goes in the audit log)").max(1000);
const cents = z.number().int().positive().max(MAX_PRICE_CENTS);
const currency = z.string().trim().regex(/^[A-Za-z]{3}$/, "a three-letter currency code");
const staffActor = (id: string) => ({ type: "admin" as const, id });

const priced = z.object({ environment, name, priceCents: cents, floorPriceCents: z.number().int().min(0).max(MAX_PRICE_CENTS).nullable(), currency, reason });

export const adminInventoryRouter = createTRPCRouter({
  /** admin.inventory.list - one environment's listings, newest first, by part of the name and status */
  list: adminProcedure
    .input(
      z.object({
        environment,
        status: z.enum(listingStatuses).optional(),
        q: z.string().trim().max(253).optional(),
        cursor: z.string().max(100).nullish(),
        limit: z.number().int().min(1).max(100).default(25),
      }),
    )
    .query(({ ctx, input }) => searchInventoryForStaff(ctx.db, { ...input, q: input.q || undefined })),
  /** admin.inventory.counts - listings per status in one environment */
  counts: adminProcedure.input(z.object({ environment })).query(({ ctx, input }) => countInventory(ctx.db, input.environment)),
  /** admin.inventory.add - list a domain, or list a removed one again (domain:add) */
  add: adminProcedure
    .input(priced)
    .mutation(async ({ ctx, input }) => serializeListing(await addDomain(ctx.db, input, staffActor(ctx.user.id)))),
  /** admin.inventory.setPrice - price, floor and currency of an available listing (domain:set-price) */
  setPrice: adminProcedure
    .input(priced)
    .mutation(async ({ ctx, input }) => serializeListing(await setDomainPrice(ctx.db, input, staffActor(ctx.user.id)))),
  /** admin.inventory.remove - take an available listing off sale (domain:remove) */
  remove: adminProcedure
    .input(z.object({ environment, name, reason }))
    .mutation(async ({ ctx, input }) => serializeListing(await removeDomain(ctx.db, input, staffActor(ctx.user.id)))),
  /** admin.inventory.import - a CSV checked row by row; applied all or nothing, or only checked with dryRun (domain:import) */
  import: adminProcedure
    .input(
      z.object({
        environment,
        csvText: z.string().min(1, "Choose or paste a CSV file").max(IMPORT_MAX_BYTES, "The file is larger than 2 MB: split it into several files"),
        reason: z.string().trim().max(1000).optional(),
        dryRun: z.boolean().default(false),
      }),
    )
    .mutation(({ ctx, input }) => importListings(ctx.db, { ...input, phrasesInBackground: true }, staffActor(ctx.user.id))),
});
