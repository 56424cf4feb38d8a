"use client";

import type { SelectHTMLAttributes } from "react";
import { cn } from "./cn";
import { inputClasses } from "./input";

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  /** Classes for the wrapper (width, margins); className goes on the <select>. */
  containerClassName?: string;
}

/** Native select with the input look; a native control keeps mobile pickers and form posts working. */
export function Select({ className, containerClassName, ...props }: SelectProps) {
  return (
    <div className={cn("relative", containerClassName)}>
      <select className={cn(inputClasses, "appearance-none pr-9", className)} {...props} />
      <svg
        aria-hidden="true"
        viewBox="0 0 16 16"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.5"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-faint"
      >
        <path d="M4 6l4 4 4-4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </div>
  );
}
