import { z } from "zod";

// The one contract of the public search: POST /api/domain/search and the MCP
// tool search_domain take the same input and return the same results
// (DECISIONS "Public interface").

export const PUBLIC_SEARCH_MAX_RESULTS = 20;
export const PUBLIC_SEARCH_DEFAULT_RESULTS = 10;

export const publicSearchQuery = z
  .string({ error: "query is required" })
  .trim()
  .min(1, "query must not be empty")
  .max(200, "query must be at most 200 characters")
  .describe(
    'Free text: keywords ("pizza delivery"), a name with or without TLD ("pizzanow.io", "pizza .io"), or a URL.',
  );

export const publicSearchLimit = z
  .number({ error: "limit must be a number" })
  .int("limit must be an integer")
  .min(1, "limit must be at least 1")
  .max(PUBLIC_SEARCH_MAX_RESULTS, `limit must be at most ${PUBLIC_SEARCH_MAX_RESULTS}`)
  .describe(`Maximum number of results, 1 to ${PUBLIC_SEARCH_MAX_RESULTS} (default ${PUBLIC_SEARCH_DEFAULT_RESULTS}).`);

/** Shape (not object) so the MCP SDK can publish it as the tool's input schema. */
export const publicSearchInputShape = {
  query: publicSearchQuery,
  limit: publicSearchLimit.optional(),
};

export const publicSearchInput = z.object(publicSearchInputShape);
export type PublicSearchInput = z.output<typeof publicSearchInput>;

export const publicSearchResult = z.object({
  domain: z.string().describe("Lowercase ASCII (punycode) domain name."),
  available: z.boolean().describe("True when the listing can be bought now; false while an order or quote holds it."),
  sale_price_cents: z
    .number()
    .int()
    .nonnegative()
    .nullable()
    .describe("Buy-now price in minor units of `currency`; null when the price is masked."),
  currency: z.string().describe("ISO 4217 code, e.g. USD."),
  price_masked: z.boolean().describe("True when the caller sent no valid access token; sign in (OAuth) for real prices."),
});

export const publicSearchOutputShape = {
  results: z.array(publicSearchResult).describe("Best match first."),
};

export const publicSearchResponse = z.object(publicSearchOutputShape);
export type PublicSearchResponse = z.output<typeof publicSearchResponse>;
