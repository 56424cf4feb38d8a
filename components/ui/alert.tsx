import type { HTMLAttributes, ReactNode } from "react";
import { cn } from "./cn";

export type AlertTone = "info" | "success" | "warning" | "danger";

const tones: Record<AlertTone, string> = {
  info: "border-info-ink/15 bg-info-soft text-info-ink",
  success: "border-success-ink/15 bg-success-soft text-success-ink",
  warning: "border-warning-ink/15 bg-warning-soft text-warning-ink",
  danger: "border-danger-ink/15 bg-danger-soft text-danger-ink",
};

export interface AlertProps extends Omit<HTMLAttributes<HTMLDivElement>, "title"> {
  tone?: AlertTone;
  title?: ReactNode;
}

/**
 * Danger alerts use role="alert" so a failed form submission is announced;
 * the others are polite status messages.
 */
export function Alert({ tone = "info", title, className, children, ...props }: AlertProps) {
  return (
    <div
      role={tone === "danger" ? "alert" : "status"}
      className={cn("rounded-lg border px-4 py-3 text-sm", tones[tone], className)}
      {...props}
    >
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}
