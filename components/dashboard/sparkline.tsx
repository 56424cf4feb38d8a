"use client";

import { Area, AreaChart, ResponsiveContainer, YAxis } from "recharts";
import { chartColors } from "./chart-frame";

// A figure's daily trend, drawn small under the number. Decorative: the number,
// its change and the Finance tables carry the information, so it is hidden from
// assistive technology. Days without a value (a rate with nothing to divide) leave a gap.

export function Sparkline({ values, color = chartColors.brand, testId }: { values: (number | null)[]; color?: string; testId?: string }) {
  const data = values.map((value, index) => ({ index, value }));
  const gradientId = `spark-${color.slice(1)}`;
  return (
    <div aria-hidden="true" className="h-10 w-full min-w-0" data-testid={testId} data-points={values.length}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 200, height: 40 }}>
        <AreaChart data={data} margin={{ top: 3, right: 2, bottom: 1, left: 2 }} accessibilityLayer={false}>
          <defs>
            <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={color} stopOpacity={0.22} />
              <stop offset="100%" stopColor={color} stopOpacity={0} />
            </linearGradient>
          </defs>
          <YAxis hide domain={[0, "auto"]} />
          <Area
            type="monotone"
            dataKey="value"
            stroke={color}
            strokeWidth={1.5}
            fill={`url(#${gradientId})`}
            isAnimationActive={false}
            dot={(props: { cx?: number; cy?: number; index?: number }) => {
              // A value with no neighbour draws no line: show it as a dot.
              const i = props.index ?? 0;
              const alone = values[i] !== null && (values[i - 1] ?? null) === null && (values[i + 1] ?? null) === null;
              return alone && props.cx !== undefined && props.cy !== undefined ? (
                <circle key={i} cx={props.cx} cy={props.cy} r={2.5} fill={color} />
              ) : (
                <g key={i} />
              );
            }}
            activeDot={false}
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
