import type { BadgeTone } from "@/components/ui";

// Display rules of the brokerage pages: status labels and tones, the four steps
// a case goes through, the status filter of the URL, and budget input.

export const STATUSES = ["OPEN", "RESEARCHING", "NEGOTIATING", "COMPLETED", "CLOSED_NO_DEAL"] as const;
export type CaseStatus = (typeof STATUSES)[number];

export const statusLabels: Record<CaseStatus, string> = {
  OPEN: "Open",
  RESEARCHING: "Researching",
  NEGOTIATING: "Negotiating",
  COMPLETED: "Completed",
  CLOSED_NO_DEAL: "Closed, no deal",
};

export const statusTones: Record<CaseStatus, BadgeTone> = {
  OPEN: "info",
  RESEARCHING: "brand",
  NEGOTIATING: "warning",
  COMPLETED: "success",
  CLOSED_NO_DEAL: "neutral",
};

/** The path of a case that ends in a deal; CLOSED_NO_DEAL leaves it at any open step. */
export const STEPS: readonly CaseStatus[] = ["OPEN", "RESEARCHING", "NEGOTIATING", "COMPLETED"];

/** 1-based step of an open or completed case; null once closed without a deal. */
export function stepOf(status: string): number | null {
  const index = STEPS.indexOf(status as CaseStatus);
  return index < 0 ? null : index + 1;
}

export type Tier = "managed" | "self_serve";
/** Service fee per tier in basis points (BROKERAGE_FEE_BPS, handed down by the page). */
export type FeeBps = Record<Tier, number>;

export const tierLabels: Record<Tier, { label: string; hint: string }> = {
  managed: { label: "Managed", hint: "We negotiate end to end." },
  self_serve: { label: "Self-serve", hint: "We research and reach the owner; the buyer negotiates." },
};

export const tierLabel = (tier: string) => tierLabels[tier as Tier]?.label ?? tier;

/** 1500 -> "15%" */
export const formatBps = (bps: number) => `${bps / 100}%`;

/** The URL's ?status= (comma-separated) as a filter; unknown values are dropped. */
export const STATUS_FILTERS: { value: string; label: string }[] = [
  { value: "", label: "All statuses" },
  { value: "OPEN,RESEARCHING,NEGOTIATING", label: "In progress" },
  ...STATUSES.map((s) => ({ value: s, label: statusLabels[s] })),
];

export function parseStatusFilter(value: string): CaseStatus[] | undefined {
  const statuses = [...new Set(value.split(","))].filter((s): s is CaseStatus => (STATUSES as readonly string[]).includes(s));
  return statuses.length ? statuses : undefined;
}

export const CURRENCIES = ["USD", "EUR", "GBP"] as const;

/**
 * "15,000" or "15000.50" -> minor units (1500050), without float arithmetic;
 * null when it is not a positive amount with at most two decimals.
 */
export function parseBudget(input: string): number | null {
  const text = input.replace(/[\s,]/g, "");
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const cents = BigInt(match[1]!) * 100n + BigInt((match[2] ?? "").padEnd(2, "0"));
  if (cents <= 0n || cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return Number(cents);
}
