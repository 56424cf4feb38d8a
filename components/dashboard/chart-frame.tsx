"use client";

import { useState, type ReactNode } from "react";
import { Button, Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui";

// Every dashboard chart sits in this frame: a title and a one-line reading of
// the data, the chart itself (an image to assistive technology, labelled by that
// reading) and a "Show as table" switch to the very same data as a table, for
// keyboard and screen-reader users and anyone who wants the exact figures.

/** Chart colours: the design tokens of globals.css as literals (SVG attributes take no CSS variables everywhere). */
export const chartColors = {
  brand: "#4f46e5",
  brandSoft: "#c7d2fe",
  success: "#047857",
  warning: "#b45309",
  danger: "#b91c1c",
  info: "#1d4ed8",
  muted: "#6b7280",
  grid: "#e3e6eb",
  ink: "#0f172a",
} as const;

/** Axis tick text: readable at phone width, muted. */
export const axisTick = { fontSize: 11, fill: "#4b5565" } as const;

export interface ChartFrameProps {
  id: string;
  title: ReactNode;
  description?: ReactNode;
  /** The chart in words, e.g. "GMV per day, highest $1,234.00 on Jun 3"; read instead of the picture. */
  summary: string;
  /** The same data as a table. */
  table: ReactNode;
  /** The chart, usually a ResponsiveContainer. */
  children: ReactNode;
  /** Chart height in pixels. */
  height?: number;
  testId?: string;
}

export function ChartFrame({ id, title, description, summary, table, children, height = 260, testId }: ChartFrameProps) {
  const [asTable, setAsTable] = useState(false);
  const bodyId = `${id}-body`;
  return (
    <Card data-testid={testId} className="min-w-0">
      <figure className="m-0" aria-labelledby={`${id}-title`}>
        <CardHeader className="gap-3 sm:flex-row sm:items-start sm:justify-between">
          <figcaption className="min-w-0">
            <CardTitle id={`${id}-title`}>{title}</CardTitle>
            {description ? <CardDescription className="mt-1">{description}</CardDescription> : null}
          </figcaption>
          <Button variant="secondary" size="sm" className="self-start" aria-controls={bodyId} aria-expanded={asTable} onClick={() => setAsTable((v) => !v)}>
            {asTable ? "Show as chart" : "Show as table"}
          </Button>
        </CardHeader>
        <CardContent id={bodyId} className="pt-4">
          {asTable ? (
            <div data-testid="chart-table">{table}</div>
          ) : (
            <div role="img" aria-label={summary} data-testid="chart" style={{ height }} className="w-full min-w-0">
              {children}
            </div>
          )}
        </CardContent>
      </figure>
    </Card>
  );
}
