import { and, count, desc, eq, ilike, lt, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { domains, listingStatus, type Environment } from "@/db/schema";
import { AppError } from "@/server/errors";

// The inventory as staff see it: one environment's listings, newest first (ids
// sort by time, so the primary key is the keyset), by part of the name (the
// trigram index on domains.name serves the ILIKE) and status. Changes go
// through addDomain / setDomainPrice / removeDomain / importListings, the
// services of the CLI's domain:* commands.

export type ListingStatus = (typeof listingStatus.enumValues)[number];
export const listingStatuses = listingStatus.enumValues as [ListingStatus, ...ListingStatus[]];

export interface StaffInventorySearch {
  environment: Environment;
  status?: ListingStatus;
  /** Part of the name. */
  q?: string;
  cursor?: string | null;
  limit: number;
}

const DOMAIN_ID = /^dom_[0-9A-Za-z]{22}$/;

export async function searchInventoryForStaff(db: Db, input: StaffInventorySearch) {
  if (input.cursor && !DOMAIN_ID.test(input.cursor)) throw new AppError("validation_error", "cursor is not a listing id of this list");
  const filters: (SQL | undefined)[] = [
    eq(domains.environment, input.environment),
    input.status ? eq(domains.status, input.status) : undefined,
    input.q ? ilike(domains.name, `%${input.q.trim().toLowerCase().replace(/[%_\\]/g, "\\$&")}%`) : undefined,
    input.cursor ? lt(domains.id, input.cursor) : undefined,
  ];
  const rows = await db
    .select()
    .from(domains)
    .where(and(...filters))
    .orderBy(desc(domains.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    listings: page.map((row) => ({
      id: row.id,
      environment: row.environment,
      name: row.name,
      status: row.status,
      priceCents: row.priceCents,
      floorPriceCents: row.floorPriceCents,
      currency: row.currency,
      updatedAt: row.updatedAt.toISOString(),
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

/** Listings per status in one environment (the index on environment, status serves it). */
export async function countInventory(db: Db, environment: Environment): Promise<Record<ListingStatus, number>> {
  const rows = await db
    .select({ status: domains.status, n: count() })
    .from(domains)
    .where(eq(domains.environment, environment))
    .groupBy(domains.status);
  const counts = Object.fromEntries(listingStatuses.map((s) => [s, 0])) as Record<ListingStatus, number>;
  for (const row of rows) counts[row.status] = row.n;
  return counts;
}
