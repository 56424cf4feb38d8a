"use client";

import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { formatDay, numberFormat } from "./link-format";

// Clicks per UTC day as bars. The chart is a picture (hidden from assistive
// technology); the same numbers are in the table beside it, which screen
// readers and keyboard users read instead.

export function ClicksChart({ days }: { days: { date: string; clicks: number }[] }) {
  const total = days.reduce((n, d) => n + d.clicks, 0);
  const peak = days.reduce((best, d) => (d.clicks > best.clicks ? d : best), days[0] ?? { date: "", clicks: 0 });
  return (
    <figure className="space-y-2" data-testid="clicks-chart">
      <div className="h-44 w-full" aria-hidden="true">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={days} margin={{ top: 8, right: 8, bottom: 0, left: -24 }} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke="var(--color-line)" />
            <XAxis
              dataKey="date"
              tickFormatter={formatDay}
              tick={{ fontSize: 11, fill: "var(--color-faint)" }}
              tickLine={false}
              axisLine={{ stroke: "var(--color-line)" }}
              minTickGap={24}
            />
            <YAxis allowDecimals={false} domain={[0, (max: number) => Math.max(max, 1)]} tick={{ fontSize: 11, fill: "var(--color-faint)" }} tickLine={false} axisLine={false} />
            <Tooltip
              cursor={{ fill: "var(--color-brand-soft)" }}
              labelFormatter={(label) => formatDay(String(label))}
              formatter={(value) => [numberFormat.format(Number(value)), "Clicks"]}
              contentStyle={{ fontSize: 12, borderRadius: 6, borderColor: "var(--color-line)" }}
            />
            <Bar dataKey="clicks" fill="var(--color-brand)" radius={[3, 3, 0, 0]} maxBarSize={28} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-xs text-faint">
        {numberFormat.format(total)} {total === 1 ? "click" : "clicks"} in {days.length} days
        {peak.clicks > 0 ? `; busiest ${formatDay(peak.date)} with ${numberFormat.format(peak.clicks)}` : ""}. Days in UTC.
      </figcaption>
      {total > 0 ? (
        <details className="text-xs text-muted">
          <summary className="cursor-pointer rounded-sm font-medium text-brand-ink">Clicks per day as a table</summary>
          <table className="mt-2 w-full max-w-xs text-left">
            <thead>
              <tr>
                <th scope="col" className="py-1 font-medium">
                  Day
                </th>
                <th scope="col" className="py-1 text-right font-medium">
                  Clicks
                </th>
              </tr>
            </thead>
            <tbody>
              {days
                .filter((d) => d.clicks > 0)
                .map((d) => (
                  <tr key={d.date}>
                    <td className="py-0.5">{formatDay(d.date)}</td>
                    <td className="py-0.5 text-right tabular-nums">{numberFormat.format(d.clicks)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </details>
      ) : null}
    </figure>
  );
}
