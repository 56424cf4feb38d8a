import type { ReactNode } from "react";
import { cn } from "./cn";

export interface StatProps {
  label: ReactNode;
  value: ReactNode;
  hint?: ReactNode;
  className?: string;
  /** Stable hook for tests and analytics, e.g. "sandbox-inventory". */
  testId?: string;
}

/** A headline number with its label, for dashboard summaries. */
export function Stat({ label, value, hint, className, testId }: StatProps) {
  return (
    <div className={cn("rounded-xl border border-line bg-surface p-5 shadow-card", className)} data-testid={testId}>
      <dt className="text-sm font-medium text-muted">{label}</dt>
      <dd className="mt-2 text-2xl font-semibold tracking-tight text-ink tabular-nums">{value}</dd>
      {hint ? <dd className="mt-1 text-xs text-faint">{hint}</dd> : null}
    </div>
  );
}
