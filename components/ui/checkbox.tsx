"use client";

import * as RadixCheckbox from "@radix-ui/react-checkbox";
import type { ReactNode } from "react";
import { cn } from "./cn";

export interface CheckboxProps {
  id: string;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
  label: ReactNode;
  description?: ReactNode;
  disabled?: boolean;
}

export function Checkbox({ id, checked, onCheckedChange, label, description, disabled }: CheckboxProps) {
  const descriptionId = description ? `${id}-description` : undefined;
  return (
    <div className={cn("flex items-start gap-3", disabled && "opacity-60")}>
      <RadixCheckbox.Root
        id={id}
        checked={checked}
        // Radix reports "indeterminate" too; this API is two-state.
        onCheckedChange={(value) => onCheckedChange(value === true)}
        disabled={disabled}
        aria-describedby={descriptionId}
        className={cn(
          "mt-0.5 inline-flex size-4 shrink-0 items-center justify-center rounded border border-line-strong bg-surface text-white shadow-card",
          "transition-colors hover:border-faint data-[state=checked]:border-brand data-[state=checked]:bg-brand",
        )}
      >
        <RadixCheckbox.Indicator>
          <svg aria-hidden="true" viewBox="0 0 16 16" fill="none" stroke="currentColor" strokeWidth="2.5" className="size-3">
            <path d="M3 8.5l3 3 7-7" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
      <div className="text-sm">
        <label htmlFor={id} className={cn("font-medium text-ink", !disabled && "cursor-pointer")}>
          {label}
        </label>
        {description ? (
          <p id={descriptionId} className="mt-0.5 text-muted">
            {description}
          </p>
        ) : null}
      </div>
    </div>
  );
}
