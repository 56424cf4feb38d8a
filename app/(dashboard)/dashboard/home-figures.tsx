"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/providers";
import { chartColors } from "@/components/dashboard/chart-frame";
import { formatChange, formatCount, formatDayYear, formatMoney, formatRate, lastDayOf } from "@/components/dashboard/finance-format";
import { Sparkline } from "@/components/dashboard/sparkline";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { buttonClasses, ErrorState, Skeleton } from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Change, HomeFigures as Figures, HomePeriod } from "@/server/services/partner-home";

// The home's key figures for the last 7, 30 or 90 days (?period= in the URL):
// money as GET /transactions and GET /analytics report it, to the cent, each
// with a daily sparkline and its change against the period just before.

const KEYS = ["period"] as const;
const PERIODS: { value: HomePeriod; label: string; days: number }[] = [
  { value: "7d", label: "7 days", days: 7 },
  { value: "30d", label: "30 days", days: 30 },
  { value: "90d", label: "90 days", days: 90 },
];

export function HomeFigures() {
  const trpc = useTRPC();
  const [state, setState] = useUrlState(KEYS);
  const period = PERIODS.find((p) => p.value === state.period) ?? PERIODS[1]!;
  const figures = useQuery(trpc.home.figures.queryOptions({ period: period.value }));

  return (
    <section aria-labelledby="key-figures-heading" className="space-y-4" data-testid="key-figures">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="key-figures-heading" className="text-base font-semibold tracking-tight text-ink">
            Key figures
          </h2>
          <p className="mt-0.5 text-sm text-muted" data-testid="key-figures-window">
            {figures.data ? (
              <>
                {formatDayYear(figures.data.from)} to {formatDayYear(lastDayOf(figures.data.to))} (UTC), against the {period.days} days before
              </>
            ) : (
              <>The last {period.days} days (UTC), against the {period.days} days before</>
            )}
          </p>
        </div>
        <div role="group" aria-label="Period" className="flex self-start rounded-md border border-line-strong bg-subtle p-0.5 text-sm font-medium sm:self-auto">
          {PERIODS.map((option) => (
            <button
              key={option.value}
              type="button"
              aria-pressed={option.value === period.value}
              onClick={() => setState({ period: option.value === "30d" ? null : option.value })}
              className={cn(
                "rounded px-3 py-1 transition-colors",
                option.value === period.value ? "bg-surface text-ink shadow-card" : "text-muted hover:text-ink",
              )}
            >
              {option.label}
            </button>
          ))}
        </div>
      </div>

      {figures.isPending ? (
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-busy="true">
          <span className="sr-only">Loading key figures…</span>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} className="h-40 rounded-xl" />
          ))}
        </div>
      ) : figures.isError ? (
        <ErrorState title="We couldn't load your key figures" error={figures.error} onRetry={figures.refetch} />
      ) : (
        <FigureGrid figures={figures.data} days={period.days} />
      )}
    </section>
  );
}

function FigureGrid({ figures, days }: { figures: Figures; days: number }) {
  const { currency } = figures;
  const money = (cents: number) => formatMoney(cents, currency);
  const others = (list: { currency: string; cents: number }[]) =>
    list.filter((entry) => entry.currency !== currency && entry.cents > 0).map((entry) => formatMoney(entry.cents, entry.currency));
  const versus = `the previous ${days} days`;
  const otherGmv = others(figures.gmv.byCurrency);
  const otherCommission = others(figures.commission.byCurrency);
  return (
    <>
      <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="figures" data-from={figures.from} data-to={figures.to} data-currency={currency}>
        <Figure
          id="gmv"
          label="GMV"
          value={money(figures.gmv.value)}
          raw={figures.gmv.value}
          change={figures.gmv.change}
          versus={versus}
          series={figures.gmv.series}
          hint={otherGmv.length ? `Sales that stand, in ${currency}; also ${otherGmv.join(", ")}` : "Sales that stand: refunds and cancellations excluded"}
        />
        <Figure
          id="orders"
          label="Orders"
          value={formatCount(figures.orders.value)}
          raw={figures.orders.value}
          change={figures.orders.change}
          versus={versus}
          series={figures.orders.series}
          color={chartColors.info}
          hint="Every order recorded in the period, in any status"
        />
        <Figure
          id="commission"
          label="Commission earned"
          value={money(figures.commission.value)}
          raw={figures.commission.value}
          change={figures.commission.change}
          versus={versus}
          series={figures.commission.series}
          color={chartColors.success}
          hint={
            <>
              Sales {money(figures.commission.salesCents)}
              {figures.isAffiliate ? ` · referrals ${money(figures.commission.referralCents)}` : null}
              {otherCommission.length ? `; also ${otherCommission.join(", ")}` : null}
            </>
          }
        />
        <Figure
          id="checkout-conversion"
          label="Checkout link conversion"
          value={formatRate(figures.checkoutConversion.value)}
          raw={figures.checkoutConversion.value}
          change={figures.checkoutConversion.change}
          versus={versus}
          series={figures.checkoutConversion.series}
          color={chartColors.brand}
          hint={
            figures.checkoutConversion.created
              ? `${formatCount(figures.checkoutConversion.paid)} of ${formatCount(figures.checkoutConversion.created)} hosted checkout links paid`
              : "No hosted checkout links created in the period"
          }
        />
        <Figure
          id="webhook-success"
          label="Webhook success rate"
          value={formatRate(figures.webhookSuccess.value)}
          raw={figures.webhookSuccess.value}
          change={figures.webhookSuccess.change}
          versus={versus}
          series={figures.webhookSuccess.series}
          color={chartColors.success}
          hint={
            figures.webhookSuccess.succeeded + figures.webhookSuccess.failed
              ? `${formatCount(figures.webhookSuccess.succeeded)} delivered, ${formatCount(figures.webhookSuccess.failed)} failed${figures.webhookSuccess.pending ? `, ${formatCount(figures.webhookSuccess.pending)} still trying` : ""}`
              : "No finished webhook deliveries in the period"
          }
        />
        <Figure
          id="api-errors"
          label="API error rate"
          value={formatRate(figures.apiErrors.value)}
          raw={figures.apiErrors.value}
          change={figures.apiErrors.change}
          versus={versus}
          upIsGood={false}
          series={figures.apiErrors.series}
          color={chartColors.danger}
          hint={
            figures.apiErrors.total
              ? `${formatCount(figures.apiErrors.errors)} of ${formatCount(figures.apiErrors.total)} requests answered 4xx or 5xx${figures.apiErrors.serverErrors ? ` (${formatCount(figures.apiErrors.serverErrors)} 5xx)` : ""}${days > 30 ? "; the log keeps 30 days" : ""}`
              : "No signed API requests in the period"
          }
        />
      </dl>
      <p className="text-sm">
        <Link href={`/dashboard/finance?from=${figures.from.slice(0, 10)}&to=${lastDayOf(figures.to)}`} className={buttonClasses({ variant: "secondary", size: "sm" })}>
          Open these {days} days in Finance
        </Link>
      </p>
    </>
  );
}

interface FigureProps {
  id: string;
  label: string;
  value: string;
  /** The exact value (cents, count or rate), for tests and tools. */
  raw: number | null;
  change: Change;
  versus: string;
  /** False when a rise is bad news (error rates). */
  upIsGood?: boolean;
  series: (number | null)[];
  color?: string;
  hint: ReactNode;
}

function Figure({ id, label, value, raw, change, versus, upIsGood = true, series, color, hint }: FigureProps) {
  return (
    <div className="flex min-w-0 flex-col rounded-xl border border-line bg-surface p-5 shadow-card" data-testid={`figure-${id}`} data-value={raw ?? ""}>
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="mt-2 flex flex-wrap items-baseline gap-x-2 gap-y-1">
        <span className="text-2xl font-semibold tracking-tight text-ink tabular-nums" data-testid="figure-value">
          {value}
        </span>
        <ChangeBadge change={change} versus={versus} upIsGood={upIsGood} />
      </dd>
      <dd className="mt-3">
        <Sparkline values={series} color={color} testId="sparkline" />
      </dd>
      <dd className="mt-2 text-xs text-faint">{hint}</dd>
    </div>
  );
}

function ChangeBadge({ change, versus, upIsGood }: { change: Change; versus: string; upIsGood: boolean }) {
  if (!change) {
    return (
      <span className="text-xs text-faint" data-testid="figure-change">
        nothing to compare in {versus}
      </span>
    );
  }
  const good = change.value === 0 ? null : change.value > 0 === upIsGood;
  return (
    <span
      data-testid="figure-change"
      data-change={change.value}
      className={cn(
        "inline-flex items-center gap-0.5 rounded-full px-1.5 py-0.5 text-xs font-medium tabular-nums",
        good === null ? "bg-subtle text-muted" : good ? "bg-success-soft text-success-ink" : "bg-danger-soft text-danger-ink",
      )}
    >
      <span aria-hidden="true">{change.value > 0 ? "▲" : change.value < 0 ? "▼" : "■"}</span>
      {formatChange(change)}
      <span className="sr-only"> against {versus}</span>
    </span>
  );
}

