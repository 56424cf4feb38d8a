import { z } from "zod";
import { defineEndpoint } from "@/server/http/contract";
import { currencyCode, domainNameInput, moneyCents } from "./common";

// Discovery: search, one domain's details, availability and pricing. All four
// read the inventory of the credential's environment only, scope `search`,
// rate class `search`.

const PRICE_RULE =
  "`sale_price_cents` is the buy-now price while the listing is on the market (status `listed` or `reserved`); " +
  "it is null once the domain is sold or when it was never listed.";

const AVAILABILITY_RULE =
  "`available` is true when the listing is on sale and nothing holds it for someone else: no other order, and no " +
  "unexpired quote of another partner. A quote of the calling partner does not make the domain unavailable to that " +
  "partner. Hosted-checkout links do not hold a domain; the first completed payment wins.";

/** Listing status as a partner sees it: `reserved` also covers a hold by another partner's quote. */
export const visibleStatus = z
  .enum(["listed", "reserved", "sold"])
  .describe(
    "`listed`: on sale. `reserved`: held by a pending order or by another partner's unexpired quote; it may return " +
      "to `listed`. `sold`: gone for good.",
  );

// --- GET /domains/search ----------------------------------------------------------

export const SEARCH_MAX_RESULTS = 5;

export const searchQuery = z.object({
  q: z
    .string({ error: "q is required" })
    .trim()
    .min(1, "q must not be empty")
    .max(200, "q must be at most 200 characters")
    .describe(
      'Free text: keywords ("pizza delivery"), a name with or without TLD ("pizzanow.io", "pizza .io"), or a URL ' +
        '("https://www.pizzanow.io"). A TLD typed in the query is preferred, not required.',
    ),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(SEARCH_MAX_RESULTS)
    .default(SEARCH_MAX_RESULTS)
    .describe(`Maximum number of results, 1 to ${SEARCH_MAX_RESULTS} (default ${SEARCH_MAX_RESULTS}).`),
});

export const searchResult = z.object({
  domain: z.string().describe("Lowercase ASCII (punycode) domain name."),
  available: z.boolean(),
  status: visibleStatus.exclude(["sold"]),
  sale_price_cents: moneyCents,
  currency: currencyCode,
  tld: z.string(),
  vertical: z.string().nullable().describe('Market segment, e.g. "legal", "food"; null when uncategorised.'),
  score: z.number().min(0).max(1).describe("Relevance in [0, 1]; comparable within one response only."),
});

export const searchResponse = z.object({
  query: z.string().describe("The query as understood after normalisation (lowercased, scheme and www removed)."),
  results: z.array(searchResult).max(SEARCH_MAX_RESULTS),
});

export const searchDomainsEndpoint = defineEndpoint({
  operationId: "searchDomains",
  method: "GET",
  path: "/api/partner/v1/domains/search",
  tag: "Discovery",
  summary: "Search the inventory",
  description:
    `Returns at most ${SEARCH_MAX_RESULTS} listings relevant to \`q\`, best first, and fewer (possibly none) when fewer ` +
    "pass the relevance threshold: results are never padded. Only domains on the market are returned (sold and " +
    "removed listings never appear); one held for someone else appears with `available: false`. An exact name " +
    "match always ranks first. Hybrid search: run-together queries are split into words (\"bestpizza\"), misspelt " +
    "words are corrected, words are matched by meaning too (\"attorney\" finds lawyer names) and by trigram " +
    "similarity; a TLD typed in the query (\"pizza .io\") and a budget (\"under $500\") are preferred, and at " +
    "most two TLDs of one label are returned. There is no pagination and no cursor: discovery is not a " +
    "bulk export. " +
    PRICE_RULE,
  scopes: ["search"],
  rateClass: "search",
  query: searchQuery,
  response: searchResponse,
  errors: ["validation_error"],
});

// --- GET /domains/{name} ----------------------------------------------------------

export const domainDetailsParams = z.object({ name: domainNameInput });

export const domainDetails = z.object({
  domain: z.string().describe("Lowercase ASCII (punycode) domain name."),
  available: z.boolean(),
  status: visibleStatus,
  sale_price_cents: moneyCents.nullable().describe(PRICE_RULE),
  floor_price_cents: moneyCents
    .nullable()
    .describe("Lowest price the seller accepts in a negotiated or brokered sale; null when none is set or once sold."),
  currency: currencyCode,
  label: z.string().describe("The name without its TLD."),
  tld: z.string().describe('Everything after the first dot, e.g. "com" or "co.uk".'),
  length: z.number().int().describe("Characters in the label (the name without the TLD), hyphens included."),
  keywords: z.array(z.string()).describe("The words the label is made of, as keyword search matches them."),
  vertical: z.string().nullable(),
  description: z.string().nullable(),
  registered_year: z.number().int().nullable().describe("Year the name was first registered, when known."),
});

export const getDomainEndpoint = defineEndpoint({
  operationId: "getDomain",
  method: "GET",
  path: "/api/partner/v1/domains/{name}",
  tag: "Discovery",
  summary: "Price, availability and metadata of one domain",
  description:
    "A listing that is `listed` or `reserved` answers 200 with its prices. A `sold` listing still answers 200, with " +
    "`available: false`, `status: \"sold\"` and null prices, so a partner can tell a sale that just happened from a " +
    "typo. A name that was never listed in the credential's environment, or whose listing was removed, is 404 " +
    "`not_found`. " +
    AVAILABILITY_RULE,
  scopes: ["search"],
  rateClass: "search",
  params: domainDetailsParams,
  response: domainDetails,
  errors: ["validation_error", "not_found"],
});

// --- GET /availability --------------------------------------------------------------

export const domainQuery = z.object({ domain: domainNameInput });

export const availability = z.object({
  domain: z.string().describe("The normalised name that was checked."),
  available: z.boolean(),
  status: visibleStatus
    .or(z.literal("unlisted"))
    .describe("`unlisted`: not in the inventory of this environment (never listed, or removed)."),
  sale_price_cents: moneyCents.nullable().describe(PRICE_RULE),
  currency: currencyCode.nullable().describe("Currency of `sale_price_cents`; null when the price is null."),
});

export const getAvailabilityEndpoint = defineEndpoint({
  operationId: "getAvailability",
  method: "GET",
  path: "/api/partner/v1/availability",
  tag: "Discovery",
  summary: "Is a domain available, and at what price",
  description:
    "Always 200 for a well-formed name: an unlisted, removed or sold domain answers `available: false` (never 404). " +
    AVAILABILITY_RULE +
    " " +
    PRICE_RULE,
  scopes: ["search"],
  rateClass: "search",
  query: domainQuery,
  response: availability,
  errors: ["validation_error"],
});

// --- GET /pricing -------------------------------------------------------------------

export const pricing = z.object({
  domain: z.string(),
  available: z.boolean().describe("Same meaning as on GET /availability."),
  sale_price_cents: moneyCents.describe("Buy-now price: what POST /quotes and POST /orders expect right now."),
  floor_price_cents: moneyCents
    .nullable()
    .describe("Lowest price the seller accepts in a negotiated or brokered sale; null when none is set."),
  currency: currencyCode,
});

export const getPricingEndpoint = defineEndpoint({
  operationId: "getPricing",
  method: "GET",
  path: "/api/partner/v1/pricing",
  tag: "Discovery",
  summary: "Buy-now and floor price of one domain",
  description:
    "200 for a listing on the market (`listed`, or `reserved` with `available: false`). 404 `not_found` when the " +
    "domain is not listed in the credential's environment: never listed, removed, or already sold.",
  scopes: ["search"],
  rateClass: "search",
  query: domainQuery,
  response: pricing,
  errors: ["validation_error", "not_found"],
});

export const discoveryContracts = [
  searchDomainsEndpoint,
  getDomainEndpoint,
  getAvailabilityEndpoint,
  getPricingEndpoint,
] as const;
