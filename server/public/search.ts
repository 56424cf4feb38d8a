import type { Db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { searchDomains } from "@/server/services/discovery";
import { PUBLIC_SEARCH_DEFAULT_RESULTS, type PublicSearchInput, type PublicSearchResponse } from "./contract";

// The public search: the same engine as partner search (services/discovery),
// over the marketplace's LIVE inventory, with prices masked for anonymous callers.

/** The public interface sells the real (live) inventory; sandbox is for partner integration tests only. */
export const PUBLIC_ENVIRONMENT: Environment = "live";

/**
 * Discovery hides a domain held by "another partner's" quote; the public caller
 * is no partner, so every unexpired quote holds. No partner id is empty.
 */
const NO_PARTNER = "";

export interface PublicSearchParams extends PublicSearchInput {
  /** True when the caller presented a valid token with the pricing scope. */
  priced: boolean;
}

export async function searchPublicDomains(db: Db, params: PublicSearchParams): Promise<PublicSearchResponse> {
  const found = await searchDomains(db, {
    environment: PUBLIC_ENVIRONMENT,
    partnerId: NO_PARTNER,
    q: params.query,
    limit: params.limit ?? PUBLIC_SEARCH_DEFAULT_RESULTS,
  });
  return {
    results: found.hits.map((hit) => ({
      domain: hit.name,
      available: hit.available,
      sale_price_cents: params.priced ? hit.priceCents : null,
      currency: hit.currency,
      price_masked: !params.priced,
    })),
  };
}

/** The readable list an MCP host shows its model: one line per domain. */
export function describePublicResults(query: string, response: PublicSearchResponse): string {
  if (response.results.length === 0) return `No listed domains match "${query}".`;
  const lines = response.results.map((r) => {
    const price = r.sale_price_cents === null ? "price hidden (sign in for prices)" : formatMoney(r.sale_price_cents, r.currency);
    return `- ${r.domain}: ${r.available ? "available" : "currently held"}, ${price}`;
  });
  const masked = response.results.some((r) => r.price_masked)
    ? "\nPrices are masked: connect with an OAuth access token (scope pricing:read) to see them."
    : "";
  return `Domains matching "${query}":\n${lines.join("\n")}${masked}`;
}

/** Integer minor units -> "USD 1,250.00" without floating-point money arithmetic. */
function formatMoney(cents: number, currency: string): string {
  const whole = Math.trunc(cents / 100).toLocaleString("en-US");
  const fraction = String(cents % 100).padStart(2, "0");
  return `${currency} ${whole}.${fraction}`;
}
