import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { domains, type Environment } from "@/db/schema";
import { heldForOthersSql } from "./discovery";

// The public storefront's reads. It shows one inventory; which one is decided
// here, once. Storefront visitors are not partners: availability is judged
// for "nobody" (every partner's unexpired quote holds a domain).

/** The storefront sells the sandbox inventory until live payments are configured. */
export const STOREFRONT_ENVIRONMENT: Environment = "sandbox";

/** Discovery's availability rule for a visitor who is no partner. */
export const NO_PARTNER = "";

export interface FeaturedDomain {
  name: string;
  priceCents: number;
  currency: string;
  vertical: string | null;
}

/** A stable handful of available, modestly priced listings for the storefront home. */
export async function listFeaturedDomains(db: Db, limit = 9): Promise<FeaturedDomain[]> {
  return db
    .select({ name: domains.name, priceCents: domains.priceCents, currency: domains.currency, vertical: domains.vertical })
    .from(domains)
    .where(
      and(
        eq(domains.environment, STOREFRONT_ENVIRONMENT),
        eq(domains.status, "listed"),
        eq(domains.tld, "com"),
        sql`length(${domains.label}) <= 10`,
        sql`not ${heldForOthersSql(domains.id, STOREFRONT_ENVIRONMENT, NO_PARTNER)}`,
      ),
    )
    .orderBy(asc(domains.priceCents), asc(domains.name))
    .limit(limit);
}
