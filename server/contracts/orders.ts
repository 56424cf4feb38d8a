import { z } from "zod";
import { orderStatus as orderStatusEnum, saleChannel } from "@/db/schema";
import { defineEndpoint } from "@/server/http/contract";
import { currencyCode, domainNameInput, listEnvelope, listQuery, moneyCents, timestamp, isoInstant } from "./common";

// Merchant-of-record commerce: quotes, orders and refunds. Every decision the
// spec leaves open is written into these descriptions, so the OpenAPI document
// records it once.

export const QUOTE_TTL_MINUTES = 10;
export const RISK_THRESHOLD_CENTS = 1_000_000;
export const IDEMPOTENCY_TTL_HOURS = 24;

/** The order statuses, as the database enumerates them. */
export const orderStatuses = orderStatusEnum.enumValues;
export const saleChannels = saleChannel.enumValues;

export const orderStatus = z
  .enum(orderStatuses)
  .describe(
    "`EXTERNALLY_PAID`: partner-collected sale recorded. `PAID`: buyer paid on hosted checkout. `MANUAL_REVIEW`: held " +
      `(every order above ${RISK_THRESHOLD_CENTS} minor units is held on creation); once cleared it returns to the paid ` +
      "state it was recorded with. `TRANSFER_IN_PROGRESS`, `TRANSFER_COMPLETED` (the settlement clock starts), `SETTLED`. " +
      "`REFUNDED` and `CANCELLED` are final and return the domain to the inventory.",
  );

const MOR_ONLY =
  "Merchant-of-record partners only: a partner whose buyers pay on hosted checkout gets 403 `forbidden` (it sells " +
  "through POST /checkout-session).";

// --- POST /quotes -------------------------------------------------------------------

export const createQuoteBody = z.strictObject({ domain: domainNameInput });

export const quoteSchema = z
  .object({
    quote_id: z
      .string()
      .describe(
        "Signed, tamper-evident token `qt_<id>.<payload>.<signature>` binding partner, environment, domain, price, " +
          "currency and expiry. Pass it unchanged as `quote_id` of POST /orders; treat it as opaque.",
      ),
    domain: z.string(),
    sale_price_cents: moneyCents.describe("The firm price an order carrying this quote pays, even if the listing is repriced."),
    currency: currencyCode,
    expires_at: timestamp.describe(`Creation time plus ${QUOTE_TTL_MINUTES} minutes.`),
  })
  .meta({ id: "Quote" });

export const createQuoteEndpoint = defineEndpoint({
  operationId: "createQuote",
  method: "POST",
  path: "/api/partner/v1/quotes",
  tag: "Merchant of record",
  summary: "Lock the buy-now price of a domain for 10 minutes",
  description:
    `Returns a firm price and reserves the domain for the calling partner for ${QUOTE_TTL_MINUTES} minutes: while the ` +
    "quote is unexpired and unused, other partners see the domain as `reserved` (`available: false`) and their quotes " +
    "and orders get 409 `conflict`. The calling partner may quote the same domain again (each quote gets a fresh " +
    "expiry). A quote is used up by the first order that names the domain. 404 `not_found`: the domain is not listed " +
    "in the credential's environment (never listed or removed). 409 `conflict`: already sold, or held by another " +
    "partner's order or quote. 429 `rate_limited` with `Retry-After`: the partner already holds 1,000 open quotes in " +
    "this environment (each reserves a name from everyone else); order or let some expire.",
  scopes: ["buy"],
  rateClass: "write",
  body: createQuoteBody,
  response: quoteSchema,
  successStatus: 201,
  errors: ["validation_error", "not_found", "conflict", "rate_limited"],
});

// --- the order resource ---------------------------------------------------------------

const buyerOutput = z.object({
  email: z.string(),
  name: z.string().nullable(),
  country: z.string().nullable().describe("ISO 3166-1 alpha-2, uppercase."),
});

export const timelineEntry = z.object({
  status: orderStatus,
  at: timestamp,
  note: z.string().nullable().describe("Why the order moved, when known (e.g. the refund reason)."),
});

const orderFields = {
  public_id: z.string().describe("Public order id (`ord_...`), time-ordered."),
  domain: z.string(),
  status: orderStatus,
  sale_price_cents: moneyCents.describe("Gross sale price: the quote's price when the order carried a valid quote, else the listing price."),
  currency: currencyCode,
  channel: z
    .enum(["mor", "checkout", "marketplace"])
    .describe("`mor`: recorded by the partner with POST /orders. `checkout`: paid on the partner's hosted checkout."),
  commission_bps: z.number().int().describe("The partner's sale commission rate when the order was recorded, in basis points."),
  commission_cents: moneyCents.describe(
    "Commission retained by the service: sale_price_cents x commission_bps / 10000, rounded to the nearest cent with " +
      "halves rounded up (integer arithmetic, never floats). For a merchant-of-record sale the partner owes the service " +
      "sale_price_cents minus commission_cents at settlement.",
  ),
  buyer: buyerOutput,
  return_url: z.string().nullable(),
  cancel_url: z.string().nullable(),
  quote_id: z.string().nullable().describe("The quote token exactly as sent, or null."),
  external_payment_ref: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
};

export const orderListItem = z.object(orderFields).meta({ id: "OrderSummary" });

export const orderSchema = z
  .object({
    ...orderFields,
    timeline: z
      .array(timelineEntry)
      .describe("Every status the order has had, oldest first; the first entry is the status it was recorded with."),
  })
  .meta({ id: "Order" });

// --- POST /orders ---------------------------------------------------------------------

const visibleAscii = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_PATTERN = visibleAscii;

/** ISO 3166-1 alpha-2 as ICU knows it: an unknown code has no display name. */
const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });
function isRegionCode(code: string): boolean {
  try {
    return regionNames.of(code) !== code;
  } catch {
    return false;
  }
}

const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an absolute http or https URL" })
  .max(2000)
  .optional();

export const createOrderBody = z.strictObject({
  domain: domainNameInput,
  expected_price: moneyCents.describe(
    "The price the buyer paid, in minor units. Must equal the price in force: the quote's `sale_price_cents` when " +
      "`quote_id` is given, else the listing's current `sale_price_cents`; otherwise 422 `price_mismatch`.",
  ),
  currency: currencyCode.describe("Must equal the currency of the price in force (else 422 `price_mismatch`)."),
  buyer: z.strictObject({
    email: z.email().max(254),
    name: z.string().trim().min(1).max(200).optional(),
    country: z
      .string()
      .length(2)
      .transform((v) => v.toUpperCase())
      .refine(isRegionCode, "must be an ISO 3166-1 alpha-2 country code such as US or DE")
      .optional()
      .describe("ISO 3166-1 alpha-2 code, case-insensitive (stored uppercase)."),
  }),
  return_url: httpUrl.describe("Absolute http(s) URL, at most 2,000 characters."),
  cancel_url: httpUrl.describe("Absolute http(s) URL, at most 2,000 characters."),
  quote_id: z.string().min(1).max(1000).optional().describe("A `quote_id` from POST /quotes for the same domain."),
  external_payment_ref: z.string().trim().min(1).max(255).optional().describe("The partner's own payment reference, echoed back."),
});

export const createOrderEndpoint = defineEndpoint({
  operationId: "createOrder",
  method: "POST",
  path: "/api/partner/v1/orders",
  tag: "Merchant of record",
  summary: "Record a partner-collected sale",
  description:
    "Records a sale the partner has already charged. The order is `EXTERNALLY_PAID`, or `MANUAL_REVIEW` when the sale " +
    `price exceeds the risk threshold of ${RISK_THRESHOLD_CENTS} minor units. The order, its first timeline entry, ` +
    "the `order.recorded` event, the domain leaving the inventory (status sold) and the quote being used up are " +
    "written in one transaction. " +
    MOR_ONLY +
    "\n\nPricing: with a valid `quote_id` the order is priced at the quote even if the listing was repriced since; " +
    `a quote older than ${QUOTE_TTL_MINUTES} minutes gets 422 \`quote_expired\`; a quote of another partner, ` +
    "environment or domain, a quote that was tampered with, or one that is not a quote token gets 400 " +
    "`validation_error` (detail path `quote_id`). A quote already used by an earlier order gets 409 `conflict`. " +
    "`expected_price` and `currency` must equal the price in force, else 422 `price_mismatch`. 404 `not_found`: the " +
    "domain is not listed (never listed or removed). 409 `conflict`: sold, held by another order, or held by another " +
    "partner's unexpired quote." +
    "\n\nIdempotency (header `Idempotency-Key`, required): 1 to 255 visible ASCII characters (0x21-0x7E; a UUID v4 is " +
    "a good choice). Keys are scoped to the partner and environment (any of the partner's credentials may retry) and " +
    `kept ${IDEMPOTENCY_TTL_HOURS} hours; after that the key is forgotten and may be used again. The request ` +
    "fingerprint is the SHA-256 of the raw body bytes, so a retry must resend the identical bytes. Same key and same " +
    "body: the stored answer is replayed with the same status and the same body (a replayed 201 is byte-identical; a " +
    "replayed error keeps its code, message and details and carries the replaying request's `request_id`). Same key " +
    "and a different body: 409 `conflict`. Two requests with one key at the same time: exactly one executes; the " +
    "other waits for it to finish and replays its answer, or, after waiting 10 seconds, gets 409 `conflict` saying a " +
    "request with this key is in progress. Stored and replayed: 201, and the 404, 409 and 422 answers of the order " +
    "logic. Never stored, so a retry runs afresh: authentication errors, 403, 400 (`validation_error`, " +
    "`missing_idempotency_key`), 429 and 5xx. Checks run in this order: signature, scope and rate limit; body " +
    "validation; merchant-of-record; Idempotency-Key; then the order logic.",
  scopes: ["buy"],
  rateClass: "write",
  body: createOrderBody,
  requiredHeaders: [
    {
      name: "Idempotency-Key",
      description:
        `1-255 visible ASCII characters (UUID v4 recommended), unique per operation; reuse only to retry the same body. Kept ${IDEMPOTENCY_TTL_HOURS} h.`,
    },
  ],
  response: orderSchema,
  successStatus: 201,
  errors: ["validation_error", "missing_idempotency_key", "forbidden", "not_found", "conflict", "price_mismatch", "quote_expired"],
});

// --- GET /orders ----------------------------------------------------------------------

export const listOrdersQuery = listQuery.extend({
  status: z
    .string()
    .optional()
    .transform((v) => (v ? [...new Set(v.split(",").map((s) => s.trim()))] : undefined))
    .pipe(z.array(z.enum(orderStatuses)).optional())
    .describe("One status or a comma-separated list, e.g. `EXTERNALLY_PAID,MANUAL_REVIEW`."),
  channel: z
    .string()
    .optional()
    .transform((v) => (v ? [...new Set(v.split(",").map((s) => s.trim()))] : undefined))
    .pipe(z.array(z.enum(saleChannels)).optional())
    .describe("One sale channel or a comma-separated list: `mor`, `checkout`, `marketplace`."),
  domain: domainNameInput.optional().describe("Exactly this domain (normalised like every domain input)."),
  q: z
    .string()
    .trim()
    .toLowerCase()
    .max(100)
    .optional()
    .transform((v) => v || undefined)
    .describe("Part of the domain name, case-insensitive (`shop` finds `myshop.com`). Terms of three characters or more use an index."),
  from: isoInstant.optional().describe("ISO 8601 date or date-time (UTC unless an offset is given); `created_at` >= from."),
  to: isoInstant.optional().describe("ISO 8601 date or date-time; `created_at` < to (exclusive). Must be after `from`."),
});

/** The filters of GET /orders without paging: the dashboard's list and its CSV export take exactly these. */
export const orderFiltersQuery = listOrdersQuery.omit({ limit: true, cursor: true });

export const listOrdersEndpoint = defineEndpoint({
  operationId: "listOrders",
  method: "GET",
  path: "/api/partner/v1/orders",
  tag: "Merchant of record",
  summary: "List the partner's orders",
  description:
    "The partner's orders in the credential's environment, newest first (by `created_at`, ties by `public_id`), from " +
    "every channel. Paging is keyset-based: `next_cursor` marks the last order returned, so orders recorded while a " +
    "client pages never make a page skip or repeat an order (they appear at the head of a fresh listing). A cursor " +
    "from another partner or environment is 400 `validation_error`. Filters combine with AND.",
  scopes: ["buy", "search"],
  rateClass: "reporting",
  query: listOrdersQuery,
  response: listEnvelope(orderListItem),
  errors: ["validation_error"],
});

// --- GET /orders/{public_id} ------------------------------------------------------------

export const getOrderEndpoint = defineEndpoint({
  operationId: "getOrder",
  method: "GET",
  path: "/api/partner/v1/orders/{public_id}",
  tag: "Merchant of record",
  summary: "One order with its status timeline",
  description:
    "The order with `timeline`, the transfer and fulfilment history. An order of another partner or environment is " +
    "404 `not_found`, exactly like one that does not exist.",
  scopes: ["buy", "search"],
  rateClass: "reporting",
  params: z.object({ public_id: z.string().min(1).max(64).describe("The order's `public_id`.") }),
  response: orderSchema,
  errors: ["not_found"],
});

// --- POST /refunds --------------------------------------------------------------------

export const createRefundBody = z.strictObject({
  order_id: z.string().min(1).max(64).describe("The order's `public_id`."),
  reason: z.string().trim().min(1).max(500).optional().describe("Free text, recorded on the timeline."),
  amount_cents: moneyCents
    .optional()
    .describe("Full refunds only: when given it must equal the order's `sale_price_cents` (else 400 `validation_error`)."),
});

export const refundSchema = z
  .object({
    refund_id: z.string().describe("Refund id (`rf_...`)."),
    order_id: z.string(),
    amount_cents: moneyCents,
    currency: currencyCode,
    status: z.literal("succeeded").describe("Always `succeeded`: the refund is recorded at once."),
    reason: z.string().nullable(),
    created_at: timestamp,
    order: orderSchema,
  })
  .meta({ id: "Refund" });

export const createRefundEndpoint = defineEndpoint({
  operationId: "createRefund",
  method: "POST",
  path: "/api/partner/v1/refunds",
  tag: "Merchant of record",
  summary: "Refund a partner-collected order before its transfer starts",
  description:
    "Records a full refund of a partner-collected order: the order becomes `REFUNDED`, an `order.refunded` event is " +
    "emitted, the domain returns to the inventory and the order leaves settlement. The partner collected the money, " +
    "so it repays its buyer itself; the refund cancels what the partner would have owed. Allowed only while the " +
    "order is `EXTERNALLY_PAID` or `MANUAL_REVIEW`: once the transfer has started (`TRANSFER_IN_PROGRESS`, " +
    "`TRANSFER_COMPLETED`, `SETTLED`) the answer is 409 `conflict` and a clawback goes through support; an order " +
    "already refunded or cancelled is also 409 `conflict`. An order of another partner or environment is 404 " +
    "`not_found`. An order the marketplace collected (paid on hosted checkout, even through the partner's own link) " +
    "is 403 `forbidden`: its money goes back through the payment processor, which marketplace support does. " +
    MOR_ONLY,
  scopes: ["buy"],
  rateClass: "write",
  body: createRefundBody,
  response: refundSchema,
  successStatus: 201,
  errors: ["validation_error", "forbidden", "not_found", "conflict"],
});

export const orderContracts = [
  createQuoteEndpoint,
  createOrderEndpoint,
  listOrdersEndpoint,
  getOrderEndpoint,
  createRefundEndpoint,
] as const;
