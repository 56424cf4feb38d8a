"use client";

import { useEffect, useState } from "react";
import { formatExact, formatRelative } from "./relative-time-format";
import { Tooltip } from "./tooltip";

// The pure formatters live in relative-time-format.ts (no "use client") so server code can call them.
export { formatExact, formatRelative };

export interface RelativeTimeProps {
  value: string | Date | null | undefined;
  /** Shown when value is missing or not a valid date. */
  fallback?: string;
}

export function RelativeTime({ value, fallback = "—" }: RelativeTimeProps) {
  const [now, setNow] = useState(() => Date.now());

  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(id);
  }, []);

  const date = value == null ? null : new Date(value);
  if (!date || Number.isNaN(date.getTime())) return <span className="text-faint">{fallback}</span>;

  const exact = formatExact(date);
  return (
    <Tooltip content={exact}>
      {/* Focusable so keyboard users can open the tooltip; server and client clocks differ by a few ms. */}
      <time dateTime={date.toISOString()} title={exact} tabIndex={0} suppressHydrationWarning>
        {formatRelative(date, new Date(now))}
      </time>
    </Tooltip>
  );
}
