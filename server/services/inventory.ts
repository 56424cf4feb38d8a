import { and, eq, ne } from "drizzle-orm";
import { domainToASCII } from "node:url";
import type { Db } from "@/db/client";
import { domains, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
import { storedTokens } from "@/server/search/text";
import { registerPhrases } from "@/server/search/phrases";
import { registerVocabulary } from "@/server/search/vocabulary";
import type { Actor } from "./partners";
import { recordAudit } from "./audit";
import { logError } from "@/server/log";

// Listings: add, reprice, remove. Names are stored lowercase ASCII (punycode).

const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** "Example.COM." -> "example.com"; throws validation_error for anything that is not a domain name. */
export function normalizeDomainName(input: string): string {
  const trimmed = input.trim().replace(/\.$/, "");
  const ascii = trimmed ? domainToASCII(trimmed.toLowerCase()) : "";
  const labels = ascii.split(".");
  if (!ascii || ascii.length > 253 || labels.length < 2 || !labels.every((l) => LABEL.test(l))) {
    throw new AppError("validation_error", `"${input}" is not a valid domain name`, [
      { path: "domain", message: "must be a domain name such as example.com" },
    ]);
  }
  if (/^\d+$/.test(labels[labels.length - 1] ?? "")) {
    throw new AppError("validation_error", `"${input}" is not a valid domain name`, [
      { path: "domain", message: "the top-level domain cannot be numeric" },
    ]);
  }
  return ascii;
}

/**
 * The search tokens of a label: normalised, split on hyphens and digits, and
 * run-together words segmented ("bestpizza-shop24" -> "best pizza shop 24").
 */
export function tokenizeLabel(label: string): string {
  return storedTokens(label);
}

export interface AddDomainInput {
  environment: Environment;
  name: string;
  priceCents: number;
  floorPriceCents?: number | null;
  currency?: string;
  vertical?: string | null;
  description?: string | null;
  registeredYear?: number | null;
  /** Extra words for keyword search (the seed knows how its names were built). */
  tokens?: string;
}

export type Listing = typeof domains.$inferSelect;

/** Staff-made changes say why; the reason goes in the audit row next to before and after. */
export interface ChangeReason {
  reason?: string;
}

/** 1,000,000,000.00 in a two-digit currency: far above any domain sale, far below bigint trouble. */
export const MAX_PRICE_CENTS = 100_000_000_000;

export function checkPrices(priceCents: number, floorPriceCents: number | null | undefined) {
  if (!Number.isSafeInteger(priceCents) || priceCents <= 0) {
    throw new AppError("validation_error", "price must be a positive whole number of minor units", [
      { path: "price", message: "must be a positive integer (cents)" },
    ]);
  }
  if (priceCents > MAX_PRICE_CENTS) {
    throw new AppError("validation_error", `price must be at most ${MAX_PRICE_CENTS} minor units`, [
      { path: "price", message: `must be at most ${MAX_PRICE_CENTS} (cents)` },
    ]);
  }
  if (floorPriceCents != null && (!Number.isSafeInteger(floorPriceCents) || floorPriceCents < 0 || floorPriceCents > priceCents)) {
    throw new AppError("validation_error", "floor price must be a whole number between 0 and the price", [
      { path: "floor", message: "must be an integer between 0 and price" },
    ]);
  }
}

export function checkCurrency(code: string): string {
  const upper = code.toUpperCase();
  if (!/^[A-Z]{3}$/.test(upper)) {
    throw new AppError("validation_error", `"${code}" is not a three-letter currency code`, [
      { path: "currency", message: "must be a three-letter ISO 4217 code" },
    ]);
  }
  return upper;
}

/** Lists a domain. Re-adding a removed (never sold) name lists it again. */
export async function addDomain(db: Db, input: AddDomainInput & ChangeReason, actor: Actor = { type: "system" }): Promise<Listing> {
  const name = normalizeDomainName(input.name);
  checkPrices(input.priceCents, input.floorPriceCents);
  const currency = checkCurrency(input.currency ?? "USD");
  const dot = name.indexOf(".");
  const label = name.slice(0, dot);
  const values = {
    environment: input.environment,
    name,
    label,
    tld: name.slice(dot + 1),
    status: "listed" as const,
    priceCents: input.priceCents,
    floorPriceCents: input.floorPriceCents ?? null,
    currency,
    vertical: input.vertical ?? null,
    description: input.description ?? null,
    registeredYear: input.registeredYear ?? null,
    tokens: tokenizeLabel(input.tokens ?? label),
    updatedAt: clock.now(),
  };
  return db.transaction(async (tx) => {
    const before = await lockListing(tx, input.environment, name);
    if (before && before.status !== "removed") throw new AppError("conflict", `${name} is already listed in ${input.environment}`);
    const [row] = await tx
      .insert(domains)
      .values({ id: newId("domain"), ...values })
      .onConflictDoUpdate({
        target: [domains.environment, domains.name],
        set: values,
        setWhere: eq(domains.status, "removed"),
      })
      .returning();
    if (!row) throw new AppError("conflict", `${name} is already listed in ${input.environment}`);
    // New words are embedded now, so the semantic leg knows them on the next query.
    // Best effort, in a savepoint: a listing is never refused because the encoder
    // is unavailable; keyword legs find it at once and a later ingest embeds the word.
    // The label as a phrase too (server/search/phrases.ts), for the phrase leg.
    await tx
      .transaction(async (savepoint) => {
        await registerVocabulary(savepoint, row.tokens.split(" "));
        await registerPhrases(savepoint, [row.label]);
      })
      .catch((error: unknown) => logError(`search vocabulary not updated for ${row.name}`, error));
    await audit(tx, actor, "domain.added", before, row, input.reason);
    return row;
  });
}

export async function setDomainPrice(
  db: Db,
  input: { environment: Environment; name: string; priceCents: number; floorPriceCents?: number | null; currency?: string } & ChangeReason,
  actor: Actor = { type: "system" },
): Promise<Listing> {
  const name = normalizeDomainName(input.name);
  checkPrices(input.priceCents, input.floorPriceCents);
  return db.transaction(async (tx) => {
    const before = await lockListing(tx, input.environment, name);
    if (input.floorPriceCents === undefined && before?.floorPriceCents != null && before.floorPriceCents > input.priceCents) {
      throw new AppError("validation_error", `price is below the listing's floor of ${before.floorPriceCents}; give a lower floor with it`, [
        { path: "floor", message: "the kept floor would be above the price" },
      ]);
    }
    const [row] = await tx
      .update(domains)
      .set({
        priceCents: input.priceCents,
        ...(input.floorPriceCents !== undefined ? { floorPriceCents: input.floorPriceCents } : {}),
        ...(input.currency ? { currency: checkCurrency(input.currency) } : {}),
        updatedAt: clock.now(),
      })
      .where(and(eq(domains.environment, input.environment), eq(domains.name, name), ne(domains.status, "removed")))
      .returning();
    if (!row) throw new AppError("not_found", `${name} is not listed in ${input.environment}`);
    await audit(tx, actor, "domain.repriced", before, row, input.reason);
    return row;
  });
}

export async function removeDomain(
  db: Db,
  input: { environment: Environment; name: string } & ChangeReason,
  actor: Actor = { type: "system" },
): Promise<Listing> {
  const name = normalizeDomainName(input.name);
  return db.transaction(async (tx) => {
    const before = await lockListing(tx, input.environment, name);
    const [row] = await tx
      .update(domains)
      .set({ status: "removed", updatedAt: clock.now() })
      .where(and(eq(domains.environment, input.environment), eq(domains.name, name), eq(domains.status, "listed")))
      .returning();
    if (!row) throw new AppError("not_found", `${name} is not an available listing in ${input.environment}`);
    await audit(tx, actor, "domain.removed", before, row, input.reason);
    return row;
  });
}

/** The listing as it is, locked until the transaction ends, so the audit's `before` is what the change replaced. */
async function lockListing(tx: Db, environment: Environment, name: string): Promise<Listing | undefined> {
  const [row] = await tx
    .select()
    .from(domains)
    .where(and(eq(domains.environment, environment), eq(domains.name, name)))
    .for("update");
  return row;
}

/** What an audit row keeps of a listing: what a sale or a search depends on. */
export function listingSnapshot(row: Pick<Listing, "status" | "priceCents" | "floorPriceCents" | "currency">) {
  return { status: row.status, price_cents: row.priceCents, floor_price_cents: row.floorPriceCents, currency: row.currency };
}

async function audit(db: Db, actor: Actor, action: string, before: Listing | undefined, after: Listing, reason: string | undefined) {
  await recordAudit(db, actor, {
    action,
    targetType: "domain",
    targetId: after.id,
    environment: after.environment,
    data: { name: after.name, before: before ? listingSnapshot(before) : null, after: listingSnapshot(after), reason: reason?.trim() || null },
  });
}

/** The public JSON of a listing, shared by every surface that shows one. */
export function serializeListing(row: Listing) {
  return {
    domain: row.name,
    sale_price_cents: row.priceCents,
    floor_price_cents: row.floorPriceCents,
    currency: row.currency,
  };
}
