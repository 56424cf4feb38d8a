import type { HTMLAttributes } from "react";
import { cn } from "./cn";

export type BadgeTone = "neutral" | "brand" | "success" | "warning" | "danger" | "info";

const tones: Record<BadgeTone, string> = {
  neutral: "bg-subtle text-muted ring-line-strong/60",
  brand: "bg-brand-soft text-brand-ink ring-brand/20",
  success: "bg-success-soft text-success-ink ring-success-ink/20",
  warning: "bg-warning-soft text-warning-ink ring-warning-ink/20",
  danger: "bg-danger-soft text-danger-ink ring-danger-ink/20",
  info: "bg-info-soft text-info-ink ring-info-ink/20",
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  tone?: BadgeTone;
}

export function Badge({ tone = "neutral", className, ...props }: BadgeProps) {
  return (
    <span
      className={cn(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset",
        tones[tone],
        className,
      )}
      {...props}
    />
  );
}
