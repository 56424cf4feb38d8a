import { formatMoney } from "@/app/checkout/format";
import type { BadgeTone } from "@/components/ui";

// Display rules of the referral pages: the report period, money in several
// currencies, rates, and the labels of link types and ledger states.

export const PERIODS = [
  { value: "7d", label: "Last 7 days", days: 7 },
  { value: "30d", label: "Last 30 days", days: 30 },
  { value: "90d", label: "Last 90 days", days: 90 },
] as const;
export type Period = (typeof PERIODS)[number];

export function periodOf(value: string): Period {
  return PERIODS.find((p) => p.value === value) ?? PERIODS[1];
}

const DAY_MS = 86_400_000;

/**
 * The period's start: midnight UTC of the first of its days (today counts as
 * one), so the query input stays the same all day and the cache can serve it.
 * The end is left open: the services read it as now.
 */
export function periodStart(period: Period, now = new Date()): string {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(today - (period.days - 1) * DAY_MS).toISOString();
}

/** Every UTC day of the period with its clicks; the report lists only days that had any. */
export function fillDays(series: { date: string; clicks: number }[], period: Period, now = new Date()): { date: string; clicks: number }[] {
  const byDate = new Map(series.map((d) => [d.date, d.clicks]));
  const start = Date.parse(periodStart(period, now));
  return Array.from({ length: period.days }, (_, i) => {
    const date = new Date(start + i * DAY_MS).toISOString().slice(0, 10);
    return { date, clicks: byDate.get(date) ?? 0 };
  });
}

const shortDate = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });

/** "2026-03-04" -> "Mar 4" */
export function formatDay(date: string): string {
  return shortDate.format(new Date(`${date}T00:00:00Z`));
}

export const numberFormat = new Intl.NumberFormat("en-US");

/** "12.5%" of part / whole, or null when there is no whole to divide by. */
export function formatRate(part: number, whole: number): string | null {
  if (whole <= 0) return null;
  const percent = (part / whole) * 100;
  return `${percent >= 10 || percent === 0 ? Math.round(percent) : percent.toFixed(1)}%`;
}

/** Amounts in one or more currencies, "$12.00 + €3.00"; "—" for none. */
export function formatAmounts(amounts: { currency: string; cents: number }[]): string {
  const shown = amounts.filter((a) => a.cents !== 0);
  return shown.length ? shown.map((a) => formatMoney(a.cents, a.currency)).join(" + ") : "—";
}

export const commissionOf = (revenue: { currency: string; commission_cents: number }[]) =>
  formatAmounts(revenue.map((r) => ({ currency: r.currency, cents: r.commission_cents })));

export const gmvOf = (revenue: { currency: string; gmv_cents: number }[]) =>
  formatAmounts(revenue.map((r) => ({ currency: r.currency, cents: r.gmv_cents })));

export const linkTypeLabels: Record<string, string> = { generic: "Storefront", domain: "Domain", product: "Product page" };

export const productLabels = { marketplace: "Marketplace (/domains)", brokerage: "Brokerage (/brokerage)" } as const;

export type CommissionState = "accrued" | "pending" | "paid_out" | "reversed";

export const commissionStates: { value: CommissionState; label: string; tone: BadgeTone; hint: string }[] = [
  { value: "accrued", label: "Accrued", tone: "info", hint: "Sale recorded; the domain transfer is not complete yet." },
  { value: "pending", label: "Pending", tone: "warning", hint: "Transfer complete; paid at the settlement after the order settles." },
  { value: "paid_out", label: "Paid out", tone: "success", hint: "Included in a referral payout." },
  { value: "reversed", label: "Reversed", tone: "neutral", hint: "The order was refunded or cancelled." },
];

export function commissionStateOf(value: string) {
  return commissionStates.find((s) => s.value === value);
}

export const commissionSourceLabels: Record<string, string> = { referral: "Referral sale", sale: "Checkout sale", brokerage: "Brokerage" };

const monthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

/** A settlement period [start, end): "March 2026" for a calendar month, else "Mar 3 – Mar 9" (last day included). */
export function formatPeriod(start: string, end: string): string {
  const from = new Date(`${start}T00:00:00Z`);
  const to = new Date(`${end}T00:00:00Z`);
  if (from.getUTCDate() === 1 && to.getUTCDate() === 1 && (to.getUTCMonth() - from.getUTCMonth() + 12) % 12 === 1) return monthFormat.format(from);
  return `${formatDay(start)} – ${formatDay(new Date(to.getTime() - DAY_MS).toISOString().slice(0, 10))}`;
}
