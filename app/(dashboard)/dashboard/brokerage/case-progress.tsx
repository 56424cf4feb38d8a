import { Badge } from "@/components/ui";
import { cn } from "@/components/ui/cn";
import { statusLabels, statusTones, stepOf, STEPS, type CaseStatus } from "./brokerage-format";

/** The status as a badge. */
export function StatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={statusTones[status as CaseStatus] ?? "neutral"} data-testid="case-status" data-status={status}>
      {statusLabels[status as CaseStatus] ?? status}
    </Badge>
  );
}

/**
 * Four segments for OPEN -> RESEARCHING -> NEGOTIATING -> COMPLETED, filled up
 * to the current step; a case closed without a deal shows none filled. The text
 * alternative says the same in words.
 */
export function ProgressBar({ status, className }: { status: string; className?: string }) {
  const step = stepOf(status);
  const words = step === null ? "Closed without a deal" : `Step ${step} of ${STEPS.length}: ${statusLabels[status as CaseStatus]}`;
  return (
    <div className={cn("flex items-center gap-1", className)} role="img" aria-label={words} title={words}>
      {STEPS.map((s, index) => (
        <span
          key={s}
          className={cn(
            "h-1.5 flex-1 rounded-full",
            step === null ? "bg-line" : index < step ? (status === "COMPLETED" ? "bg-success-ink/70" : "bg-brand") : "bg-line",
          )}
        />
      ))}
    </div>
  );
}
