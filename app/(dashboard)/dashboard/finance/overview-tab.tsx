"use client";

import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Bar, BarChart, CartesianGrid, ComposedChart, LabelList, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useTRPC } from "@/app/providers";
import { axisTick, chartColors, ChartFrame } from "@/components/dashboard/chart-frame";
import {
  describeBucket,
  formatBucket,
  formatCount,
  formatDayYear,
  formatMoney,
  formatMoneyCompact,
  formatRate,
  lastDayOf,
} from "@/components/dashboard/finance-format";
import { Card, CardContent, CardDescription, CardHeader, CardTitle, ErrorState, Label, Select, Skeleton, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { getFinanceCharts } from "@/server/services/finance";
import { FilterBar, statusLabels, TabToolbar, TotalsPanel } from "./finance-parts";
import { chartsQuery, GRANULARITIES, type FinanceFilters, type FinanceSetter, type Granularity } from "./finance-query";

// The Finance overview: GMV and commission over time (per day, ISO week or
// month, UTC), orders by status and the referral funnel of GET /analytics, over
// the chosen dates (the last 30 days when none). Each chart has its table.

type Charts = Awaited<ReturnType<typeof getFinanceCharts>>;

const granularityLabels: Record<Granularity, string> = { day: "Day", week: "Week", month: "Month" };

export function OverviewTab({ filters, setFilters }: { filters: FinanceFilters; setFilters: FinanceSetter }) {
  const trpc = useTRPC();
  const query = chartsQuery(filters);
  const charts = useQuery(trpc.finance.charts.queryOptions(query));
  const filtered = Boolean(query.from || query.to);

  return (
    <div className="space-y-4">
      <TabToolbar
        title="Overview"
        description={
          charts.data
            ? `${formatDayYear(charts.data.from)} to ${formatDayYear(lastDayOf(charts.data.to))} (UTC)${filtered ? "" : ", the last 30 days"}, by ${query.granularity}.`
            : "Sales, commission and referrals over time."
        }
        actions={
          <div role="group" aria-label="Group by" className="flex rounded-md border border-line-strong bg-subtle p-0.5 text-sm font-medium">
            {GRANULARITIES.map((g) => (
              <button
                key={g}
                type="button"
                aria-pressed={query.granularity === g}
                onClick={() => setFilters({ granularity: g === "day" ? null : g })}
                className={cn("rounded px-3 py-1 transition-colors", query.granularity === g ? "bg-surface text-ink shadow-card" : "text-muted hover:text-ink")}
              >
                {granularityLabels[g]}
              </button>
            ))}
          </div>
        }
      />
      <FilterBar
        label="Choose the dates"
        filters={filters}
        setFilters={setFilters}
        dateHint="when a sale was recorded"
        onClear={filtered ? () => setFilters({ from: null, to: null }) : undefined}
      />
      {charts.isPending ? (
        <div className="grid gap-4 lg:grid-cols-2" aria-busy="true">
          <span className="sr-only">Loading charts…</span>
          <Skeleton className="h-80 rounded-xl lg:col-span-2" />
          <Skeleton className="h-72 rounded-xl" />
          <Skeleton className="h-72 rounded-xl" />
        </div>
      ) : charts.isError ? (
        <ErrorState title="We couldn't load the charts" error={charts.error} onRetry={charts.refetch} />
      ) : (
        <ChartsGrid charts={charts.data} currency={filters.currency} onCurrency={(currency) => setFilters({ currency })} />
      )}
    </div>
  );
}

function ChartsGrid({ charts, currency, onCurrency }: { charts: Charts; currency: string; onCurrency: (c: string | null) => void }) {
  const gmvOf = (s: Charts["series"][number]) => s.points.reduce((n, p) => n + p.gmvCents, 0);
  const byGmv = [...charts.series].sort((a, b) => gmvOf(b) - gmvOf(a));
  const series = charts.series.find((s) => s.currency === currency.toUpperCase()) ?? byGmv[0];
  const points = series?.points ?? charts.buckets.map((bucket) => ({ bucket, orders: 0, gmvCents: 0, commissionCents: 0, referralCommissionCents: 0 }));
  const code = series?.currency ?? "USD";
  const total = (pick: (p: (typeof points)[number]) => number) => points.reduce((n, p) => n + pick(p), 0);
  const isAffiliate = charts.funnel !== null;

  return (
    <div className="space-y-4">
      {charts.series.length > 1 ? (
        <div className="w-40 space-y-1.5">
          <Label htmlFor="chart-currency">Currency</Label>
          <Select id="chart-currency" value={code} onChange={(e) => onCurrency(e.target.value)}>
            {charts.series.map((s) => (
              <option key={s.currency} value={s.currency}>
                {s.currency}
              </option>
            ))}
          </Select>
        </div>
      ) : null}
      <TotalsPanel
        title="In these dates"
        rows={[
          {
            key: code,
            heading: code,
            items: [
              { label: "GMV", value: formatMoney(total((p) => p.gmvCents), code), testId: "overview-gmv" },
              { label: "Orders", value: formatCount(total((p) => p.orders)), testId: "overview-orders" },
              { label: "Sales commission", value: formatMoney(total((p) => p.commissionCents), code), testId: "overview-commission" },
              ...(isAffiliate ? [{ label: "Referral commission", value: formatMoney(total((p) => p.referralCommissionCents), code), testId: "overview-referral-commission" }] : []),
            ],
          },
        ]}
      />
      <div className="grid min-w-0 gap-4 lg:grid-cols-2">
        <div className="min-w-0 lg:col-span-2">
          <GmvChart points={points} currency={code} granularity={charts.granularity} referral={isAffiliate} />
        </div>
        <StatusChart statuses={charts.statuses} />
        <FunnelChart funnel={charts.funnel} />
      </div>
    </div>
  );
}

/** A scrolling box for a long chart table; focusable so a keyboard can scroll it. */
function ScrollTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className="relative max-h-80 overflow-y-auto rounded-lg border border-line">
      {children}
    </div>
  );
}

interface Point {
  bucket: string;
  orders: number;
  gmvCents: number;
  commissionCents: number;
  referralCommissionCents: number;
}

function GmvChart({ points, currency, granularity, referral }: { points: Point[]; currency: string; granularity: Granularity; referral: boolean }) {
  const gmv = points.reduce((n, p) => n + p.gmvCents, 0);
  const commission = points.reduce((n, p) => n + p.commissionCents + p.referralCommissionCents, 0);
  const best = points.reduce<Point | undefined>((top, p) => (!top || p.gmvCents > top.gmvCents ? p : top), undefined);
  const summary =
    gmv === 0
      ? `No sales in ${currency} in these dates; commission ${formatMoney(commission, currency)}.`
      : `GMV per ${granularity} in ${currency}: ${formatMoney(gmv, currency)} in total, highest ${formatMoney(best!.gmvCents, currency)} in ${describeBucket(best!.bucket, granularity)}; commission ${formatMoney(commission, currency)} in total.`;
  const data = points.map((p) => ({ ...p, label: formatBucket(p.bucket, granularity) }));
  return (
    <ChartFrame
      id="chart-gmv"
      testId="chart-gmv"
      title="GMV and commission"
      description={`Per ${granularity}, ${currency}. GMV counts sales that stand; refunds and cancellations add nothing.`}
      summary={summary}
      height={280}
      table={
        <ScrollTable label={`GMV and commission per ${granularity}`}>
          <Table>
            <THead>
              <tr>
                <TH>{granularityLabels[granularity]}</TH>
                <TH className="text-right">Orders</TH>
                <TH className="text-right">GMV</TH>
                <TH className="text-right">Sales commission</TH>
                {referral ? <TH className="text-right">Referral commission</TH> : null}
              </tr>
            </THead>
            <TBody>
              {points.map((p) => (
                <TR key={p.bucket} data-testid="gmv-row" data-bucket={p.bucket}>
                  <TD className="whitespace-nowrap">{describeBucket(p.bucket, granularity)}</TD>
                  <TD className="text-right tabular-nums">{formatCount(p.orders)}</TD>
                  <TD className="text-right tabular-nums" data-testid="gmv-cell">
                    {formatMoney(p.gmvCents, currency)}
                  </TD>
                  <TD className="text-right tabular-nums">{formatMoney(p.commissionCents, currency)}</TD>
                  {referral ? <TD className="text-right tabular-nums">{formatMoney(p.referralCommissionCents, currency)}</TD> : null}
                </TR>
              ))}
            </TBody>
          </Table>
        </ScrollTable>
      }
    >
      {gmv === 0 && commission === 0 ? (
        <p className="flex h-full items-center justify-center text-sm text-muted">No sales in {currency} in these dates.</p>
      ) : (
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 600, height: 280 }}>
          <ComposedChart data={data} margin={{ top: 8, right: 4, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke={chartColors.grid} vertical={false} />
            <XAxis dataKey="label" tick={axisTick} tickLine={false} axisLine={{ stroke: chartColors.grid }} minTickGap={16} interval="preserveStartEnd" />
            <YAxis tick={axisTick} tickLine={false} axisLine={false} width={56} tickFormatter={(v: number) => formatMoneyCompact(v, currency)} allowDecimals={false} />
            <Tooltip
              formatter={(value, name) => [formatMoney(Number(value), currency), name]}
              labelFormatter={(_, payload) => {
                const bucket = (payload?.[0]?.payload as Point | undefined)?.bucket;
                return bucket ? describeBucket(bucket, granularity) : "";
              }}
              contentStyle={{ fontSize: 12, borderRadius: 8, borderColor: chartColors.grid }}
            />
            <Legend
              wrapperStyle={{ fontSize: 12 }}
              iconSize={10}
              itemSorter={null}
              formatter={(value: string) => <span style={{ color: chartColors.ink }}>{value}</span>}
            />
            <Bar dataKey="gmvCents" name="GMV" fill={chartColors.brandSoft} stroke={chartColors.brand} strokeWidth={1} radius={[3, 3, 0, 0]} maxBarSize={36} isAnimationActive={false} />
            <Line dataKey="commissionCents" name="Sales commission" stroke={chartColors.success} strokeWidth={2} dot={false} type="monotone" isAnimationActive={false} />
            {referral ? (
              <Line dataKey="referralCommissionCents" name="Referral commission" stroke={chartColors.warning} strokeWidth={2} strokeDasharray="4 3" dot={false} type="monotone" isAnimationActive={false} />
            ) : null}
          </ComposedChart>
        </ResponsiveContainer>
      )}
    </ChartFrame>
  );
}

function StatusChart({ statuses }: { statuses: Charts["statuses"] }) {
  const total = statuses.reduce((n, s) => n + s.count, 0);
  const data = statuses.map((s) => ({ ...s, label: statusLabels[s.status]?.label ?? s.status }));
  const summary = total
    ? `Orders by status: ${data.map((s) => `${s.label} ${s.count}`).join(", ")}; ${total} in all.`
    : "No orders in these dates.";
  return (
    <ChartFrame
      id="chart-statuses"
      testId="chart-statuses"
      title="Orders by status"
      description="Orders recorded in these dates, where they are now."
      summary={summary}
      height={Math.max(160, data.length * 40 + 20)}
      table={
        <Table>
          <THead>
            <tr>
              <TH>Status</TH>
              <TH className="text-right">Orders</TH>
              <TH className="text-right">Sale amount</TH>
            </tr>
          </THead>
          <TBody>
            {data.map((s) => (
              <TR key={s.status} data-testid="status-row" data-status={s.status}>
                <TD>{s.label}</TD>
                <TD className="text-right tabular-nums">{formatCount(s.count)}</TD>
                <TD className="text-right tabular-nums">{s.amounts.map((a) => formatMoney(a.cents, a.currency)).join(" + ")}</TD>
              </TR>
            ))}
            {data.length === 0 ? (
              <TR>
                <TD colSpan={3} className="text-muted">
                  No orders in these dates.
                </TD>
              </TR>
            ) : null}
          </TBody>
        </Table>
      }
    >
      {total ? (
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 400, height: 200 }}>
          <BarChart data={data} layout="vertical" margin={{ top: 0, right: 28, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke={chartColors.grid} horizontal={false} />
            <XAxis type="number" allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} />
            <YAxis type="category" dataKey="label" tick={axisTick} tickLine={false} axisLine={false} width={92} />
            <Tooltip formatter={(value) => [formatCount(Number(value)), "Orders"]} contentStyle={{ fontSize: 12, borderRadius: 8, borderColor: chartColors.grid }} />
            <Bar dataKey="count" name="Orders" fill={chartColors.info} radius={[0, 3, 3, 0]} maxBarSize={24} isAnimationActive={false}>
              <LabelList dataKey="count" position="right" style={{ fontSize: 11, fill: chartColors.ink }} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      ) : (
        <p className="flex h-full items-center justify-center text-sm text-muted">No orders in these dates.</p>
      )}
    </ChartFrame>
  );
}

function FunnelChart({ funnel }: { funnel: Charts["funnel"] }) {
  if (!funnel) {
    return (
      <Card data-testid="chart-funnel">
        <CardHeader>
          <CardTitle>Referral funnel</CardTitle>
          <CardDescription>Clicks on your referral links, checkouts they started and the sales they made.</CardDescription>
        </CardHeader>
        <CardContent>
          <p className="text-sm text-muted">Referral links come with an affiliate account. Ask us to enable the affiliate program for your organisation.</p>
        </CardContent>
      </Card>
    );
  }
  const stages = [
    { stage: "Clicks", count: funnel.clicks },
    { stage: "Checkouts", count: funnel.checkouts },
    { stage: "Sales", count: funnel.sales },
  ];
  const share = (n: number) => (funnel.clicks ? formatRate(n / funnel.clicks) : "—");
  const summary = `Referral funnel: ${funnel.clicks} clicks, ${funnel.checkouts} checkouts started, ${funnel.sales} sales; ${formatRate(funnel.conversionRate)} of clicks became sales.`;
  return (
    <ChartFrame
      id="chart-funnel"
      testId="chart-funnel"
      title="Referral funnel"
      description={`Unique human clicks, checkouts started and sales that stand, as GET /analytics counts them.${funnel.reversedSales ? ` ${funnel.reversedSales} refunded sale${funnel.reversedSales === 1 ? "" : "s"} not counted.` : ""}`}
      summary={summary}
      height={160}
      table={
        <Table>
          <THead>
            <tr>
              <TH>Stage</TH>
              <TH className="text-right">Count</TH>
              <TH className="text-right">Of clicks</TH>
            </tr>
          </THead>
          <TBody>
            {stages.map((s) => (
              <TR key={s.stage} data-testid="funnel-row" data-stage={s.stage.toLowerCase()}>
                <TD>{s.stage}</TD>
                <TD className="text-right tabular-nums">{formatCount(s.count)}</TD>
                <TD className="text-right tabular-nums">{share(s.count)}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      }
    >
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 400, height: 160 }}>
        <BarChart data={stages} layout="vertical" margin={{ top: 0, right: 28, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid stroke={chartColors.grid} horizontal={false} />
          <XAxis type="number" allowDecimals={false} tick={axisTick} tickLine={false} axisLine={false} />
          <YAxis type="category" dataKey="stage" tick={axisTick} tickLine={false} axisLine={false} width={76} />
          <Tooltip formatter={(value) => [formatCount(Number(value)), "Count"]} contentStyle={{ fontSize: 12, borderRadius: 8, borderColor: chartColors.grid }} />
          <Bar dataKey="count" name="Count" fill={chartColors.brand} radius={[0, 3, 3, 0]} maxBarSize={24} isAnimationActive={false}>
            <LabelList dataKey="count" position="right" style={{ fontSize: 11, fill: chartColors.ink }} />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </ChartFrame>
  );
}
