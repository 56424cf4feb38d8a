import { currencyDigits, formatMoney } from "@/app/checkout/format";

// Display helpers of the money views (home figures, Finance): amounts arrive as
// integer minor units and are formatted exactly; chart axes use a compact,
// rounded form, which is only ever a label beside the exact figure.

export { formatMoney };

/** "$1.2K": an axis or sparkline label, rounded; never the figure of record. */
export function formatMoneyCompact(cents: number, currency: string): string {
  const units = cents / 10 ** currencyDigits(currency);
  // Below ten units the cents matter, or the ticks of a small chart would all read "$0".
  const fraction = Math.abs(units) < 10 ? currencyDigits(currency) : 1;
  return new Intl.NumberFormat("en-US", { style: "currency", currency, notation: "compact", maximumFractionDigits: fraction }).format(units);
}

const integer = new Intl.NumberFormat("en-US");
export const formatCount = (n: number) => integer.format(n);

/** 0.3333 -> "33.3%"; null (no denominator) -> "—". */
export function formatRate(rate: number | null): string {
  if (rate === null) return "—";
  return `${(Math.round(rate * 1000) / 10).toFixed(1)}%`;
}

const dayFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
const dayYearFormat = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", timeZone: "UTC" });
const monthFormat = new Intl.DateTimeFormat("en-US", { month: "short", year: "numeric", timeZone: "UTC" });
const longMonthFormat = new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" });

const utc = (value: string) => new Date(value.length === 10 ? `${value}T00:00:00Z` : value);

/** "Jun 3" */
export const formatDay = (value: string) => dayFormat.format(utc(value));
/** "Jun 3, 2025" */
export const formatDayYear = (value: string) => dayYearFormat.format(utc(value));
/** "June 2025" */
export const formatMonth = (value: string) => longMonthFormat.format(utc(value));

export type Granularity = "day" | "week" | "month";

/** A chart bucket's start as its axis label. */
export function formatBucket(bucket: string, granularity: Granularity): string {
  if (granularity === "month") return monthFormat.format(utc(bucket));
  return dayFormat.format(utc(bucket));
}

/** A bucket in full, for tables and tooltips. */
export function describeBucket(bucket: string, granularity: Granularity): string {
  if (granularity === "month") return formatMonth(bucket);
  if (granularity === "week") return `Week of ${formatDayYear(bucket)}`;
  return formatDayYear(bucket);
}

/** The last day of a window whose `to` is exclusive (an ISO instant at midnight UTC). */
export function lastDayOf(toExclusive: string): string {
  return new Date(utc(toExclusive).getTime() - 86_400_000).toISOString().slice(0, 10);
}

/** The minus sign and separators a person reads: "+198.5%", "−25.0 pts". */
export function formatChange(change: { kind: "percent" | "points"; value: number }): string {
  const sign = change.value > 0 ? "+" : change.value < 0 ? "−" : "±";
  const size = Math.abs(change.value).toFixed(1);
  return change.kind === "percent" ? `${sign}${size}%` : `${sign}${size} pts`;
}
