"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import { ErrorState, Skeleton } from "@/components/ui";
import { commissionOf, formatRate, gmvOf, numberFormat, type Period } from "./link-format";

// The period's funnel over all links: clicks -> checkouts -> sales (GET /analytics).
//
// Checkouts: no "checkout started" event is recorded for referral visits. What
// exists is the checkout session itself: a storefront checkout started by a
// visitor carrying a valid pdm_ref cookie stores the link on the session
// (checkout_sessions.referral_link_id). The analytics service counts those
// sessions by their creation time, and so does this funnel; each stage counts
// its own events inside the window, so a sale from a checkout started before
// the window can make a later stage larger than the one before it.

export function Funnel({ from, period }: { from: string; period: Period }) {
  const trpc = useTRPC();
  const analytics = useQuery(trpc.links.analytics.queryOptions({ from }));

  if (analytics.isPending) {
    return (
      <div aria-busy="true" className="grid gap-3 sm:grid-cols-3">
        <span className="sr-only">Loading the funnel…</span>
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-28 rounded-xl" />
        ))}
      </div>
    );
  }
  if (analytics.isError) {
    return <ErrorState title="We couldn't load the funnel" error={analytics.error} onRetry={() => analytics.refetch()} />;
  }

  const data = analytics.data;
  const stages = [
    { key: "clicks", label: "Clicks", value: data.clicks, rate: null, hint: "Unique visitors per day, bots excluded" },
    { key: "checkouts", label: "Checkouts", value: data.checkouts, rate: formatRate(data.checkouts, data.clicks), hint: "of clicks" },
    { key: "sales", label: "Sales", value: data.sales, rate: formatRate(data.sales, data.checkouts), hint: "of checkouts" },
  ];
  const widest = Math.max(1, ...stages.map((s) => s.value));
  return (
    <div className="space-y-3" data-testid="funnel">
      <dl className="grid grid-cols-3 gap-2 sm:gap-3">
        {stages.map((stage) => (
          <div key={stage.key} className="rounded-xl border border-line bg-surface p-3 shadow-card sm:p-5" data-testid={`funnel-${stage.key}`}>
            <dt className="text-xs font-medium text-muted sm:text-sm">{stage.label}</dt>
            <dd className="mt-1 text-xl font-semibold tracking-tight text-ink tabular-nums sm:mt-2 sm:text-2xl" data-testid="funnel-value">
              {numberFormat.format(stage.value)}
            </dd>
            <dd className="mt-2" aria-hidden="true">
              <div className="h-1.5 rounded-full bg-subtle">
                <div className="h-1.5 rounded-full bg-brand" style={{ width: `${Math.max(stage.value ? 4 : 0, (stage.value / widest) * 100)}%` }} />
              </div>
            </dd>
            <dd className="mt-2 text-xs text-faint">
              {stage.rate === null ? (stage.key === "clicks" ? <span className="max-sm:hidden">{stage.hint}</span> : "—") : `${stage.rate} ${stage.hint}`}
            </dd>
          </div>
        ))}
      </dl>
      <p className="text-sm text-muted" data-testid="funnel-summary">
        {period.label}:{" "}
        {data.revenue.length ? (
          <>
            sales worth <strong className="font-medium text-ink">{gmvOf(data.revenue)}</strong>, commission{" "}
            <strong className="font-medium text-ink">{commissionOf(data.revenue)}</strong>
            {data.conversion_rate !== null ? `; ${formatRate(data.sales, data.clicks)} of clicks became sales` : ""}
          </>
        ) : (
          "no referral sales yet"
        )}
        {data.reversed_sales ? `; ${numberFormat.format(data.reversed_sales)} refunded or cancelled, not counted` : ""}.
      </p>
    </div>
  );
}
