"use client";

import type { ReactNode } from "react";
import { Badge, Button, buttonClasses, Input, Label, type BadgeTone } from "@/components/ui";
import { cn } from "@/components/ui/cn";
import { validDay, type FinanceFilters, type FinanceSetter } from "./finance-query";

// Pieces every Finance tab shares: the filter bar (dates plus the tab's own
// filters), multi-value filter chips, totals, the CSV link and Load more.

export const statusLabels: Record<string, { label: string; tone: BadgeTone }> = {
  EXTERNALLY_PAID: { label: "Paid to you", tone: "info" },
  PAID: { label: "Paid", tone: "info" },
  MANUAL_REVIEW: { label: "In review", tone: "warning" },
  TRANSFER_IN_PROGRESS: { label: "Transferring", tone: "brand" },
  TRANSFER_COMPLETED: { label: "Transferred", tone: "success" },
  SETTLED: { label: "Settled", tone: "success" },
  REFUNDED: { label: "Refunded", tone: "neutral" },
  CANCELLED: { label: "Cancelled", tone: "neutral" },
};

export const paymentModelLabels: Record<string, string> = { mor: "Merchant of record", checkout: "Hosted checkout", marketplace: "Marketplace" };
export const payoutKindLabels: Record<string, string> = { commission: "Sale commission", brokerage: "Brokerage share", referral: "Referral" };
export const commissionStateLabels: Record<string, { label: string; tone: BadgeTone }> = {
  accrued: { label: "Accrued", tone: "info" },
  pending: { label: "Pending", tone: "warning" },
  paid_out: { label: "Paid out", tone: "success" },
  reversed: { label: "Reversed", tone: "neutral" },
};

export function StatusBadge({ status }: { status: string }) {
  const known = statusLabels[status] ?? { label: status, tone: "neutral" as const };
  return (
    <Badge tone={known.tone} title={status} data-status={status}>
      {known.label}
    </Badge>
  );
}

export function FilterBar({
  label,
  filters,
  setFilters,
  dateHint,
  children,
  onClear,
}: {
  label: string;
  filters: FinanceFilters;
  setFilters: FinanceSetter;
  /** What the dates filter on, e.g. "order creation" or "period start". */
  dateHint: string;
  children?: ReactNode;
  onClear?: () => void;
}) {
  const from = validDay(filters.from) ?? "";
  const to = validDay(filters.to) ?? "";
  return (
    <div role="search" aria-label={label} className="rounded-xl border border-line bg-surface p-4 shadow-card">
      <div className="flex flex-wrap items-end gap-3">
        <div className="w-[calc(50%-0.375rem)] space-y-1.5 sm:w-40">
          <Label htmlFor="finance-from">From (UTC)</Label>
          <Input id="finance-from" type="date" value={from} max={to || undefined} onChange={(e) => setFilters({ from: e.target.value })} />
        </div>
        <div className="w-[calc(50%-0.375rem)] space-y-1.5 sm:w-40">
          <Label htmlFor="finance-to">To (UTC, inclusive)</Label>
          <Input id="finance-to" type="date" value={to} min={from || undefined} onChange={(e) => setFilters({ to: e.target.value })} />
        </div>
        {children}
        {onClear ? (
          <Button variant="ghost" size="sm" className="mb-1" onClick={onClear}>
            Clear filters
          </Button>
        ) : null}
      </div>
      <p className="mt-2 text-xs text-faint">Dates filter on {dateHint}; leave them empty for all time.</p>
    </div>
  );
}

/** Several values of one filter (a REST comma list), each a toggle. */
export function ChipGroup<T extends string>({
  legend,
  options,
  selected,
  labels,
  onToggle,
}: {
  legend: string;
  options: readonly T[];
  selected: readonly T[];
  labels: Record<string, string | { label: string }>;
  onToggle: (value: T) => void;
}) {
  return (
    <fieldset className="min-w-0 basis-full">
      <legend className="mb-1.5 text-sm font-medium text-ink">
        {legend} <span className="font-normal text-faint">{selected.length ? `(${selected.length} chosen)` : "(any)"}</span>
      </legend>
      <div className="flex flex-wrap gap-1.5">
        {options.map((option) => {
          const on = selected.includes(option);
          const entry = labels[option];
          const text = typeof entry === "string" ? entry : (entry?.label ?? option);
          return (
            <button
              key={option}
              type="button"
              aria-pressed={on}
              onClick={() => onToggle(option)}
              className={cn(
                "rounded-full border px-2.5 py-1 text-xs font-medium transition-colors",
                on ? "border-brand bg-brand-soft text-brand-ink" : "border-line-strong bg-surface text-muted hover:text-ink",
              )}
            >
              {text}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

export interface TotalItem {
  label: string;
  value: string;
  testId?: string;
}

/** Totals of the whole filtered list, one row of figures per currency. */
export function TotalsPanel({ title, rows, empty }: { title: string; rows: { key: string; heading: string; items: TotalItem[] }[]; empty?: string }) {
  return (
    <section aria-label={title} className="rounded-xl border border-line bg-surface p-4 shadow-card" data-testid="totals">
      <h2 className="text-sm font-semibold text-ink">{title}</h2>
      {rows.length === 0 ? (
        <p className="mt-1 text-sm text-muted">{empty ?? "Nothing in this selection."}</p>
      ) : (
        <div className="mt-3 space-y-3">
          {rows.map((row) => (
            <div key={row.key} data-testid={`totals-${row.key}`}>
              <h3 className="text-xs font-medium tracking-wide text-faint uppercase">{row.heading}</h3>
              <dl className="mt-1 grid grid-cols-2 gap-x-4 gap-y-2 sm:grid-cols-3 lg:grid-cols-5">
                {row.items.map((item) => (
                  <div key={item.label} className="min-w-0">
                    <dt className="text-xs text-muted">{item.label}</dt>
                    <dd className="text-base font-semibold text-ink tabular-nums" data-testid={item.testId}>
                      {item.value}
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
          ))}
        </div>
      )}
    </section>
  );
}

/** The export of what the tab shows; the route streams it (built by the export route's owner). */
export function CsvLink({ href, label }: { href: string; label: string }) {
  return (
    <a href={href} download className={buttonClasses({ variant: "secondary", size: "sm" })} data-testid="download-csv">
      <svg aria-hidden="true" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="1.5" className="size-4">
        <path d="M8 2v8m0 0l-3-3m3 3l3-3M3 12.5h10" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      Download CSV<span className="sr-only"> of {label}</span>
    </a>
  );
}

export function TabToolbar({ title, description, actions }: { title: string; description: ReactNode; actions?: ReactNode }) {
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
      <div className="min-w-0">
        <h2 className="text-base font-semibold tracking-tight text-ink">{title}</h2>
        <p className="mt-0.5 text-sm text-muted">{description}</p>
      </div>
      {actions ? <div className="flex shrink-0 flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}

export function LoadMore({
  count,
  noun,
  hasMore,
  loading,
  onMore,
}: {
  count: number;
  noun: [string, string];
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
}) {
  return (
    <div className="flex flex-col items-center gap-2 sm:flex-row sm:justify-between">
      <p className="text-xs text-faint" aria-live="polite">
        {count === 1 ? `1 ${noun[0]}` : `${count} ${noun[1]}`} shown, newest first{hasMore ? "; more below" : ""}
      </p>
      {hasMore ? (
        <Button variant="secondary" onClick={onMore} disabled={loading}>
          {loading ? "Loading…" : "Load more"}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * The list as a table from tablet width up; phones get PhoneCards instead.
 * `relative` keeps visually hidden (absolutely placed) text inside the card,
 * where it cannot widen the page.
 */
export function TableCard({ children }: { children: ReactNode }) {
  return <div className="relative overflow-hidden rounded-xl border border-line bg-surface shadow-card max-sm:hidden">{children}</div>;
}

/** The list on a phone: one card per row, the amount always in view. */
export function PhoneCards({ label, children }: { label: string; children: ReactNode }) {
  return (
    <ul aria-label={label} className="space-y-2 sm:hidden">
      {children}
    </ul>
  );
}

export function PhoneCard({ children, testId, ...data }: { children: ReactNode; testId: string } & Record<`data-${string}`, string>) {
  return (
    <li className="rounded-xl border border-line bg-surface p-3 shadow-card" data-testid={testId} {...data}>
      {children}
    </li>
  );
}
