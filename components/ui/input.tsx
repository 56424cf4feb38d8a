import type { InputHTMLAttributes, LabelHTMLAttributes, ReactNode } from "react";
import { cn } from "./cn";

export const inputClasses =
  "block h-10 w-full rounded-md border border-line-strong bg-surface px-3 text-sm text-ink shadow-card " +
  "placeholder:text-faint transition-colors hover:border-faint " +
  "focus:border-brand focus:outline-none focus:ring-3 focus:ring-brand/20 " +
  "aria-invalid:border-danger aria-invalid:focus:ring-danger/20 disabled:bg-subtle disabled:text-faint";

export function Input({ className, ...props }: InputHTMLAttributes<HTMLInputElement>) {
  return <input className={cn(inputClasses, className)} {...props} />;
}

export function Label({ className, ...props }: LabelHTMLAttributes<HTMLLabelElement>) {
  return <label className={cn("block text-sm font-medium text-ink", className)} {...props} />;
}

export interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: ReactNode;
  /** Right-aligned extra beside the label (e.g. a "forgot?" link). */
  aside?: ReactNode;
}

/** Label + input + hint/error, wired with aria-describedby so screen readers read them. */
export function Field({ id, label, hint, error, aside, className, ...props }: FieldProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <div className="flex items-baseline justify-between gap-2">
        <Label htmlFor={id}>{label}</Label>
        {aside}
      </div>
      <Input id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} {...props} />
      {hint ? (
        <p id={hintId} className="text-xs text-faint">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="text-xs font-medium text-danger-ink">
          {error}
        </p>
      ) : null}
    </div>
  );
}
