import { z } from "zod";
import { defineEndpoint } from "@/server/http/contract";
import { currencyCode, domainNameInput, listEnvelope, listQuery, moneyCents, timestamp, isoInstant } from "./common";
import { orderStatus } from "./orders";
import { payout } from "./settlements";

// Referral program (SPEC "Referral", DECISIONS "Links" and "Credentials"): tracked
// links, click counting at GET /r/{code}, attributed storefront sales and the
// commission ledger. Every decision the spec leaves open is written here.

const AFFILIATE_ONLY =
  "Affiliate partners only: a credential whose partner has no affiliate account gets 403 `forbidden` with a " +
  "message saying so, even when it holds the scope.";

const CLICKS =
  "A click is counted at GET /r/{code}: at most one per visitor, link and UTC day (the visitor is the id in the " +
  "`pdm_ref` attribution cookie, or a new random id; only its keyed hash is stored). Requests whose User-Agent is " +
  "missing or names an automated client (bot, crawler, spider, slurp, curl, wget, python-requests, Go-http-client, " +
  "libwww, okhttp, scrapy, preview fetchers such as facebookexternalhit) are recorded as bot clicks and excluded from " +
  "every count. Headless browsers are counted as people: they run scripts and keep cookies like one.";

const ATTRIBUTION =
  "GET /r/{code} sets the `pdm_ref` cookie (HttpOnly, SameSite=Lax, Secure on https, 30 days, value " +
  "`<link id>.<visitor id>.<HMAC-SHA256>`) and redirects (302) to the link's `target` on the storefront. The last " +
  "link followed wins. A storefront purchase by a buyer carrying a valid cookie becomes a referral sale of the " +
  "link's partner, commission = sale price × the partner's referral rate (default 1000 bps) / 10000, nearest cent, " +
  "halves up. Links of one environment attribute only that environment's sales.";

const LEDGER =
  "Commission ledger states: `accrued` when the sale is recorded, `pending` when the domain transfer completes, " +
  "`paid_out` when the settlement run after the order's settlement pays it (one payout of kind `referral` per " +
  "partner, period of transfer completion and currency), `reversed` when the order is refunded or cancelled. Every " +
  "move happens in the transaction that causes it.";

const SUMS = "Amounts are per currency; refunded or cancelled sales (commission `reversed`) are not counted.";

/** A date filter bound: ISO 8601 date (midnight UTC) or date-time. */
const dateBound = (what: string) =>
  isoInstant.describe(`${what} ISO 8601 date (midnight UTC) or date-time; \`from\` is inclusive, \`to\` exclusive.`);

const window = {
  from: dateBound("Start of the window:").optional(),
  to: dateBound("End of the window:").optional(),
};

const money = z
  .object({ currency: currencyCode, gmv_cents: moneyCents, commission_cents: moneyCents })
  .meta({ id: "ReferralRevenue", description: "Gross sale amount and referral commission in one currency." });

// --- Links ---------------------------------------------------------------------------

export const linkProducts = { marketplace: "/domains", brokerage: "/brokerage" } as const;
export type LinkProduct = keyof typeof linkProducts;

export const createLinkBody = z
  .strictObject({
    type: z.enum(["generic", "domain", "product"]),
    domain: domainNameInput.optional().describe("Required for `domain` links: a domain listed in the credential's environment."),
    product: z
      .enum(Object.keys(linkProducts) as [LinkProduct, ...LinkProduct[]])
      .optional()
      .describe("Required for `product` links: `marketplace` (the storefront, /domains) or `brokerage` (the brokerage page, /brokerage)."),
    label: z.string().trim().min(1).max(100).optional().describe("Your own name for the link, up to 100 characters."),
  })
  .superRefine((body, ctx) => {
    if (body.type === "domain" && !body.domain) ctx.addIssue({ code: "custom", path: ["domain"], message: "required for a domain link" });
    if (body.type === "product" && !body.product) ctx.addIssue({ code: "custom", path: ["product"], message: "required for a product link" });
    if (body.type !== "domain" && body.domain) ctx.addIssue({ code: "custom", path: ["domain"], message: "only allowed on a domain link" });
    if (body.type !== "product" && body.product) ctx.addIssue({ code: "custom", path: ["product"], message: "only allowed on a product link" });
  });

export const referralLink = z
  .object({
    id: z.string().describe("Link id (`lnk_...`)."),
    url: z.string().describe("`{base_url}/r/{code}`, `code` being 10 random base62 characters. Share this."),
    type: z.enum(["generic", "domain", "product"]),
    target: z
      .string()
      .describe("Storefront path the link redirects to: generic `/domains`, domain `/domains/{name}`, product `/domains` or `/brokerage`."),
    domain: z.string().nullable(),
    product: z.string().nullable(),
    label: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: "ReferralLink" });

export const createLinkEndpoint = defineEndpoint({
  operationId: "createLink",
  method: "POST",
  path: "/api/partner/v1/links",
  tag: "Referral",
  summary: "Create a tracked referral link",
  description: [AFFILIATE_ONLY, ATTRIBUTION, "A `domain` link needs a domain listed (for sale) in the credential's environment, else 400 `validation_error` on `domain`."].join("\n\n"),
  scopes: ["refer"],
  rateClass: "write",
  body: createLinkBody,
  response: referralLink,
  successStatus: 201,
  errors: ["validation_error", "forbidden"],
});

export const linkWithStats = referralLink
  .extend({
    clicks: z.number().int().nonnegative().describe("Unique human clicks (per visitor per UTC day), bots excluded."),
    checkouts: z.number().int().nonnegative().describe("Storefront checkouts started by attributed visitors."),
    conversions: z.number().int().nonnegative().describe("Referral sales, refunded or cancelled ones excluded."),
    revenue: z.array(money).describe(SUMS),
  })
  .meta({ id: "ReferralLinkWithStats" });

export const listLinksEndpoint = defineEndpoint({
  operationId: "listLinks",
  method: "GET",
  path: "/api/partner/v1/links",
  tag: "Referral",
  summary: "Own links with click and conversion statistics",
  description: [AFFILIATE_ONLY, "Newest first. Statistics are all-time.", CLICKS].join("\n\n"),
  scopes: ["refer"],
  rateClass: "reporting",
  query: listQuery,
  response: listEnvelope(linkWithStats),
  errors: ["validation_error", "forbidden"],
});

// --- Reports ---------------------------------------------------------------------------

export const clicksReport = z
  .object({
    from: timestamp.nullable(),
    to: timestamp.nullable(),
    clicks: z.number().int().nonnegative().describe("Unique human clicks in the window."),
    bot_clicks: z.number().int().nonnegative().describe("Clicks recorded as automated (not in `clicks`)."),
    series: z
      .array(z.object({ date: z.iso.date(), clicks: z.number().int().nonnegative() }))
      .optional()
      .describe("With `interval=day`: unique human clicks per UTC day that had any, ascending."),
  })
  .meta({ id: "ReferralClicks" });

// Query schemas are exported so the dashboard's tRPC procedures take the very same input.
export const clicksQuery = z.object({ ...window, interval: z.enum(["day"]).optional().describe("`day` adds a per-day series.") });
export const listSalesQuery = listQuery.extend(window);

export const listClicksEndpoint = defineEndpoint({
  operationId: "getReferralClicks",
  method: "GET",
  path: "/api/partner/v1/me/clicks",
  tag: "Referral",
  summary: "Referral click totals",
  description: [AFFILIATE_ONLY, CLICKS, "`from`/`to` filter on the click time; both optional."].join("\n\n"),
  scopes: ["report"],
  rateClass: "reporting",
  query: clicksQuery,
  response: clicksReport,
  errors: ["validation_error", "forbidden"],
});

export const referralSale = z
  .object({
    id: z.string().describe("Referral sale id (`rs_...`)."),
    link_id: z.string(),
    order_id: z.string(),
    buyer_email: z
      .string()
      .describe("The buyer's full email: buyers of your own attributed sales are your referred customers, so it is not masked."),
    domain: z.string(),
    amount_cents: moneyCents,
    commission_cents: moneyCents,
    currency: currencyCode,
    order_status: orderStatus,
    commission_state: z.enum(["accrued", "pending", "paid_out", "reversed"]),
    created_at: timestamp,
  })
  .meta({ id: "ReferralSale" });

export const listSalesEndpoint = defineEndpoint({
  operationId: "listReferralSales",
  method: "GET",
  path: "/api/partner/v1/me/sales",
  tag: "Referral",
  summary: "Sales attributed to own links",
  description: [AFFILIATE_ONLY, ATTRIBUTION, "Newest first; `from`/`to` filter on the sale time. Refunded sales stay listed with their status."].join("\n\n"),
  scopes: ["report"],
  rateClass: "reporting",
  query: listSalesQuery,
  response: listEnvelope(referralSale),
  errors: ["validation_error", "forbidden"],
});

export const commissionState = z.enum(["accrued", "pending", "paid_out", "reversed"]);

export const commissionEntry = z
  .object({
    id: z.string().describe("Ledger entry id (`cm_...`)."),
    source: z.string().describe("`referral` (a referral sale), `sale` (hosted-checkout sale), `brokerage`."),
    source_id: z.string(),
    order_id: z.string().nullable(),
    state: commissionState,
    amount_cents: moneyCents,
    currency: currencyCode,
    payout_id: z.string().nullable(),
    balance_cents: z
      .number()
      .int()
      .describe(
        "Running balance: commission still owed to you (`accrued` + `pending`) over this entry and every earlier one in " +
          "its currency, by entry time, whatever the window. The newest entry's balance is what you are owed now.",
      ),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "CommissionEntry" });

export const commissionTotals = z
  .object({
    currency: currencyCode,
    accrued_cents: moneyCents,
    pending_cents: moneyCents,
    paid_out_cents: moneyCents,
    reversed_cents: moneyCents,
  })
  .meta({ id: "CommissionTotals" });

export const listCommissionsQuery = listQuery.extend({ ...window, state: commissionState.optional().describe("Only entries in this state.") });

export const listCommissionsEndpoint = defineEndpoint({
  operationId: "listCommissions",
  method: "GET",
  path: "/api/partner/v1/me/commissions",
  tag: "Referral",
  summary: "Commission ledger with running balance",
  description: [AFFILIATE_ONLY, LEDGER, "Newest first; `from`/`to` filter on entry creation; `totals` sum every entry in the window per state and currency, whatever the page."].join(
    "\n\n",
  ),
  scopes: ["report"],
  rateClass: "reporting",
  query: listCommissionsQuery,
  response: listEnvelope(commissionEntry).extend({ totals: z.array(commissionTotals) }),
  errors: ["validation_error", "forbidden"],
});

export const listReferralPayoutsQuery = listQuery.extend(window);

export const listReferralPayoutsEndpoint = defineEndpoint({
  operationId: "listReferralPayouts",
  method: "GET",
  path: "/api/partner/v1/me/payouts",
  tag: "Referral",
  summary: "Referral payout history and total paid",
  description: [
    AFFILIATE_ONLY,
    LEDGER,
    "Payouts of kind `referral`, newest first; `from`/`to` filter on `created_at`; `total_paid` sums every payout in the window per currency. GET /payouts lists every kind.",
  ].join("\n\n"),
  scopes: ["report"],
  rateClass: "reporting",
  query: listReferralPayoutsQuery,
  response: listEnvelope(payout).extend({
    total_paid: z.array(z.object({ currency: currencyCode, amount_cents: moneyCents })),
  }),
  errors: ["validation_error", "forbidden"],
});

export const analyticsReport = z
  .object({
    from: timestamp,
    to: timestamp,
    clicks: z.number().int().nonnegative().describe("Unique human clicks."),
    checkouts: z.number().int().nonnegative().describe("Storefront checkouts started by attributed visitors."),
    sales: z.number().int().nonnegative().describe("Referral sales, refunded or cancelled excluded."),
    reversed_sales: z.number().int().nonnegative().describe("Referral sales since refunded or cancelled."),
    conversion_rate: z.number().nullable().describe("`sales / clicks`, null without clicks."),
    revenue: z.array(money).describe(SUMS),
  })
  .meta({ id: "ReferralAnalytics" });

export const analyticsQuery = z.object(window);

export const getAnalyticsEndpoint = defineEndpoint({
  operationId: "getReferralAnalytics",
  method: "GET",
  path: "/api/partner/v1/analytics",
  tag: "Referral",
  summary: "Referral funnel, GMV and commission over a date range",
  description: [
    AFFILIATE_ONLY,
    "Window: `to` defaults to now and `from` to 30 days before `to`. Each stage counts events inside the window: clicks by click time, checkouts by start time, sales by sale time.",
    CLICKS,
  ].join("\n\n"),
  scopes: ["report"],
  rateClass: "reporting",
  query: analyticsQuery,
  response: analyticsReport,
  errors: ["validation_error", "forbidden"],
});

export const referralContracts = [
  createLinkEndpoint,
  listLinksEndpoint,
  listClicksEndpoint,
  listSalesEndpoint,
  listCommissionsEndpoint,
  listReferralPayoutsEndpoint,
  getAnalyticsEndpoint,
];
