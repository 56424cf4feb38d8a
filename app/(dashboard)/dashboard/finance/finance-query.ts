// The Finance page's URL and what it asks for. The URL holds the REST lists'
// own filter parameters (status, payment_model, kind, state, currency), so
// the tRPC call, the REST call and the CSV link are one query string. Dates
// are days: the page shows an inclusive "to" day (as the orders page does) and
// the REST lists take `to` exclusive, so the query gets the day after it.

import { nextDay, validDay } from "@/components/dashboard/utc-day";

export const FINANCE_KEYS = ["tab", "from", "to", "currency", "status", "payment_model", "kind", "state", "granularity", "statement"] as const;
export type FinanceFilters = Record<(typeof FINANCE_KEYS)[number], string>;
export type FinanceSetter = (changes: Partial<Record<keyof FinanceFilters, string | null>>) => void;

export const TABS = [
  { value: "overview", label: "Overview" },
  { value: "settlements", label: "Settlements" },
  { value: "transactions", label: "Transactions" },
  { value: "payouts", label: "Payouts" },
  { value: "commissions", label: "Commissions" },
] as const;
export type FinanceTab = (typeof TABS)[number]["value"];
export type ExportList = Exclude<FinanceTab, "overview">;

export function tabOf(filters: FinanceFilters): FinanceTab {
  return TABS.find((t) => t.value === filters.tab)?.value ?? "overview";
}

export const ORDER_STATUSES = [
  "EXTERNALLY_PAID",
  "PAID",
  "MANUAL_REVIEW",
  "TRANSFER_IN_PROGRESS",
  "TRANSFER_COMPLETED",
  "SETTLED",
  "REFUNDED",
  "CANCELLED",
] as const;
export const PAYMENT_MODELS = ["mor", "checkout", "marketplace"] as const;
export const PAYOUT_KINDS = ["commission", "brokerage", "referral"] as const;
export const COMMISSION_STATES = ["accrued", "pending", "paid_out", "reversed"] as const;
export type CommissionState = (typeof COMMISSION_STATES)[number];
export const GRANULARITIES = ["day", "week", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

export { nextDay, validDay };

/** The comma list's known values, in the list's own order; unknown ones are dropped. */
export function listOf<T extends string>(value: string, allowed: readonly T[]): T[] {
  const given = new Set(value.split(",").map((v) => v.trim()));
  return allowed.filter((a) => given.has(a));
}

/** Adds or removes one value of a comma list, keeping the canonical order. */
export function toggled<T extends string>(value: string, item: T, allowed: readonly T[]): string | null {
  const current = new Set<string>(listOf(value, allowed));
  if (current.has(item)) current.delete(item);
  else current.add(item);
  const next = allowed.filter((a) => current.has(a));
  return next.length ? next.join(",") : null;
}

function dates(filters: FinanceFilters) {
  const from = validDay(filters.from);
  const to = validDay(filters.to);
  return { from, to: to ? nextDay(to) : undefined };
}

const defined = <T extends Record<string, string | undefined>>(record: T) =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== "")) as { [K in keyof T]?: string };

/** GET /settlements's filters: from/to on period_start, currency. */
export function settlementsQuery(filters: FinanceFilters) {
  const currency = /^[A-Za-z]{3}$/.test(filters.currency.trim()) ? filters.currency.trim().toUpperCase() : undefined;
  return defined({ ...dates(filters), currency });
}

/** GET /transactions's filters: from/to on created_at, status and payment_model comma lists. */
export function transactionsQuery(filters: FinanceFilters) {
  const status = listOf(filters.status, ORDER_STATUSES).join(",");
  const paymentModel = listOf(filters.payment_model, PAYMENT_MODELS).join(",");
  return defined({ ...dates(filters), status, payment_model: paymentModel });
}

/** GET /payouts's filters: from/to on created_at, kind comma list. */
export function payoutsQuery(filters: FinanceFilters) {
  return defined({ ...dates(filters), kind: listOf(filters.kind, PAYOUT_KINDS).join(",") });
}

/** GET /me/commissions's filters: from/to on entry creation, one state. */
export function commissionsQuery(filters: FinanceFilters): { from?: string; to?: string; state?: CommissionState } {
  const state = COMMISSION_STATES.find((s) => s === filters.state);
  return { ...defined(dates(filters)), ...(state ? { state } : {}) };
}

export function chartsQuery(filters: FinanceFilters) {
  const granularity: Granularity = (GRANULARITIES as readonly string[]).includes(filters.granularity) ? (filters.granularity as Granularity) : "day";
  return { ...defined(dates(filters)), granularity };
}

const queries: Record<ExportList, (filters: FinanceFilters) => Record<string, string | undefined>> = {
  settlements: settlementsQuery,
  transactions: transactionsQuery,
  payouts: payoutsQuery,
  commissions: commissionsQuery,
};

/** `/dashboard/export/{list}?...`: the list's REST filter parameters, as shown. */
export function exportHref(list: ExportList, filters: FinanceFilters): string {
  const query = new URLSearchParams(defined(queries[list](filters)) as Record<string, string>).toString();
  return `/dashboard/export/${list}${query ? `?${query}` : ""}`;
}
