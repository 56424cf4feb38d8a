import { z } from "zod";
import { saleChannel } from "@/db/schema";
import { defineEndpoint } from "@/server/http/contract";
import { currencyCode, listEnvelope, listQuery, moneyCents, timestamp, isoInstant } from "./common";
import { orderStatuses } from "./orders";

// Settlement and reconciliation (SPEC "Settlement and reconciliation", DECISIONS
// "Settlement periods"): GET /settlements, /transactions, /payouts. All three are
// rate class `reporting`, read only the credential's partner and environment, and
// page newest first with `limit`/`cursor`. The descriptions below are the API
// reference's record of how the figures are made.

const ROUNDING =
  "Commission is fixed per order when the order is recorded: `commission_cents = sale_price_cents × " +
  "commission_bps / 10000`, rounded to the nearest cent with halves up (exact integer arithmetic). " +
  "Every total is the exact sum of per-order figures, never bps applied to a total, so a statement equals " +
  "the sum of its orders in GET /transactions to the cent. All amounts are integers in minor units.";

const PERIODS =
  "Settlement periods are calendar months in UTC. A settlement run closes every period that has ended: each " +
  "order in `TRANSFER_COMPLETED` whose transfer completed inside the period becomes `SETTLED` (event " +
  "`order.settled`, `settlement_id` set) and is counted in one statement per partner, environment, currency " +
  "and period. Orders not yet transfer-completed, and refunded or cancelled orders, are never in a statement.";

const LATE_ORDERS =
  "A closed statement never changes. If an order's transfer completion lands in a period that was already " +
  "closed (a completion that was being committed while the run read the period, or one after staff closed the " +
  "month early), the next run settles it into " +
  "a supplementary statement of that same period: same `period_start`, `sequence` 2, 3, ... Sum all sequences " +
  "of a period for its full figures.";

const PAYMENT_MODELS =
  "Merchant-of-record sales (`payment_model` `mor`, recorded with POST /orders): the partner collected the " +
  "buyer's money and keeps its commission, so the statement's `amount_owed_cents = gross_sold_cents - " +
  "commission_retained_cents` is owed by the partner to the service. Hosted-checkout sales (`checkout`, the " +
  "non-MoR flow): the service collected the money and pays the partner its commission at settlement, as one " +
  "payout of kind `commission` per period and currency, listed by GET /payouts; these are not MoR statements " +
  "and do not appear in GET /settlements.";

/** A date filter bound: ISO 8601 date (midnight UTC) or date-time. */
const dateBound = (what: string) =>
  isoInstant.describe(`${what} ISO 8601 date (midnight UTC) or date-time, e.g. 2025-01-01 or 2025-01-01T00:00:00Z.`);

/** `a,b,c` of allowed values, for filters that take several at once. */
function commaList<T extends string>(values: readonly [T, ...T[]], what: string) {
  return z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(values, { error: `each ${what} must be one of ${values.join(", ")}` })).min(1, `name at least one ${what}`))
    .describe(`One ${what} or several separated by commas: ${values.join(", ")}.`);
}

const currencyFilter = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, "must be a three-letter currency code")
  .describe("Only amounts in this currency (ISO 4217, case-insensitive).");

// --- GET /settlements ------------------------------------------------------------

export const settlementStatement = z
  .object({
    id: z.string().describe("Statement id (`stl_...`)."),
    period_start: z.iso.date().describe("First day of the calendar month (UTC), inclusive."),
    period_end: z.iso.date().describe("First day of the next month (UTC), exclusive."),
    sequence: z
      .number()
      .int()
      .min(1)
      .describe("1 for the period's statement; 2, 3, ... for supplementary statements of late orders of the same period."),
    currency: currencyCode,
    gross_sold_cents: moneyCents.describe("Sum of `sale_price_cents` of the statement's orders."),
    commission_retained_cents: moneyCents.describe("Sum of the orders' `commission_cents`: the commission the partner kept."),
    amount_owed_cents: moneyCents.describe("`gross_sold_cents - commission_retained_cents`, owed by the partner to the service."),
    order_count: z.number().int().nonnegative(),
    status: z.string().describe("`closed`: final; the figures never change."),
    created_at: timestamp.describe("When the settlement run closed the statement."),
  })
  .meta({ id: "SettlementStatement", description: "A merchant-of-record settlement statement for one period and currency." });

export const listSettlementsQuery = listQuery.extend({
  from: dateBound("Statements whose period starts at or after this").optional(),
  to: dateBound("Statements whose period starts before this").optional(),
  currency: currencyFilter.optional(),
});

export const listSettlementsEndpoint = defineEndpoint({
  operationId: "listSettlements",
  method: "GET",
  path: "/api/partner/v1/settlements",
  tag: "Settlement and reconciliation",
  summary: "Settlement statements per period",
  description: [
    "Merchant-of-record statements, newest period first (then newest statement). Only merchant-of-record " +
      "partners have statements: a non-MoR partner's credential gets 403 `forbidden` and finds its " +
      "commission in GET /payouts.",
    "`from` (inclusive) and `to` (exclusive) filter on `period_start`: `from=2025-01-01&to=2025-04-01` gives " +
      "January to March.",
    PERIODS,
    PAYMENT_MODELS,
    ROUNDING,
    LATE_ORDERS,
  ].join("\n\n"),
  scopes: ["buy"],
  rateClass: "reporting",
  query: listSettlementsQuery,
  response: listEnvelope(settlementStatement),
  errors: ["forbidden"],
});

// --- GET /transactions ----------------------------------------------------------

const paymentModels = saleChannel.enumValues;

export const transaction = z
  .object({
    id: z.string().describe("The order's `public_id` (`ord_...`)."),
    domain: z.string(),
    status: z.enum(orderStatuses),
    payment_model: z
      .enum(paymentModels)
      .describe("`mor`: the partner collected payment (POST /orders). `checkout`: the service collected it on the hosted page."),
    sale_price_cents: moneyCents,
    commission_bps: z.number().int().nonnegative().describe("The partner's commission rate on this sale, in basis points."),
    commission_cents: moneyCents.describe(
      "sale_price_cents × commission_bps / 10000, to the nearest cent with halves up; fixed when the order was recorded.",
    ),
    currency: currencyCode,
    created_at: timestamp,
    transfer_completed_at: timestamp.nullable().describe("When the domain reached the buyer's registrar; starts the settlement clock."),
    settlement_id: z.string().nullable().describe("The statement that settled the order, once SETTLED."),
  })
  .meta({ id: "Transaction", description: "One order in the partner's sales history." });

export const transactionTotals = z
  .object({
    currency: currencyCode,
    count: z.number().int().nonnegative().describe("Orders matching the filters, in every status."),
    gmv_cents: moneyCents.describe("Sum of sale_price_cents of the matching orders that are not REFUNDED or CANCELLED."),
    commission_cents: moneyCents.describe("Sum of commission_cents of the same orders."),
  })
  .meta({ id: "TransactionTotals" });

export const listTransactionsQuery = listQuery.extend({
  from: dateBound("Orders created at or after this").optional(),
  to: dateBound("Orders created before this").optional(),
  status: commaList(orderStatuses, "status").optional(),
  payment_model: commaList(paymentModels, "payment_model").optional(),
});

export const listTransactionsEndpoint = defineEndpoint({
  operationId: "listTransactions",
  method: "GET",
  path: "/api/partner/v1/transactions",
  tag: "Settlement and reconciliation",
  summary: "Sales history with totals",
  description: [
    "Every order of the partner in the credential's environment, one row per order, in every status, newest " +
      "first. `from` (inclusive) and `to` (exclusive) filter on `created_at`; `status` and `payment_model` take " +
      "one value or a comma-separated list.",
    "`totals` has one entry per currency over the whole filtered set, not just the returned page, and is the " +
      "same on every page. Refunded and cancelled orders are listed and counted in `count` but add nothing to " +
      "`gmv_cents` or `commission_cents`.",
    ROUNDING,
  ].join("\n\n"),
  scopes: ["report"],
  rateClass: "reporting",
  query: listTransactionsQuery,
  response: listEnvelope(transaction).extend({
    totals: z.array(transactionTotals).describe("Per currency, over every page of the filtered set; sorted by currency."),
  }),
});

// --- GET /payouts ---------------------------------------------------------------

export const payout = z
  .object({
    id: z.string().describe("Payout id (`po_...`)."),
    kind: z
      .string()
      .describe("`commission` (hosted-checkout sale commissions of a settled period), `brokerage` (brokerage share), `referral`."),
    amount_cents: moneyCents,
    currency: currencyCode,
    status: z
      .string()
      .describe("`pending` (owed; live payouts wait for the bank transfer) or `paid` (sent; sandbox payouts are paid when written)."),
    reference: z.string().nullable().describe("The bank or processor reference of the transfer, once paid (live)."),
    settlement_id: z.string().nullable().describe("For `commission` payouts, the settlement statement it pays."),
    period_start: z.iso.date().nullable().describe("For `commission` payouts, the settled period (first day, UTC)."),
    period_end: z.iso.date().nullable().describe("Exclusive end of that period."),
    paid_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "Payout", description: "Money the service paid to the partner." });

export const listPayoutsQuery = listQuery.extend({
  from: dateBound("Payouts created at or after this").optional(),
  to: dateBound("Payouts created before this").optional(),
  kind: z
    .string()
    .transform((value) =>
      value
        .split(",")
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().regex(/^[a-z_]{1,32}$/, "a payout kind such as commission")).min(1).max(10))
    .optional()
    .describe("One kind or several separated by commas: commission, brokerage, referral."),
});

export const listPayoutsEndpoint = defineEndpoint({
  operationId: "listPayouts",
  method: "GET",
  path: "/api/partner/v1/payouts",
  tag: "Settlement and reconciliation",
  summary: "Payouts made to the partner",
  description: [
    "Payouts in the credential's environment, newest first. A settlement run pays every non-MoR (hosted-checkout) " +
      "statement at once: one payout of kind `commission` per partner, period and currency, equal to the sum of " +
      "the settled orders' `commission_cents` (no payout when that is zero); the matching sale commissions in the " +
      "commission ledger become `paid_out`. Brokerage shares appear as kind `brokerage`. Merchant-of-record " +
      "partners keep their commission when collecting, so their MoR sales produce no payouts.",
    "`from` (inclusive) and `to` (exclusive) filter on `created_at`; `kind` takes one value or a comma-separated list.",
  ].join("\n\n"),
  scopes: ["report"],
  rateClass: "reporting",
  query: listPayoutsQuery,
  response: listEnvelope(payout),
});

export const settlementContracts = [listSettlementsEndpoint, listTransactionsEndpoint, listPayoutsEndpoint];
