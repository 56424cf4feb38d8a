import type { HTMLAttributes } from "react";
import { cn } from "./cn";

/** Inline code: key ids, endpoints, header names. */
export function Code({ className, ...props }: HTMLAttributes<HTMLElement>) {
  return (
    <code
      className={cn("rounded bg-subtle px-1.5 py-0.5 font-mono text-[0.8125em] text-ink ring-1 ring-line", className)}
      {...props}
    />
  );
}

const blockTones = {
  dark: "bg-[#0b1020] text-slate-200",
  light: "bg-subtle text-ink ring-1 ring-line",
} as const;

export interface CodeBlockProps extends HTMLAttributes<HTMLPreElement> {
  tone?: keyof typeof blockTones;
}

/** A block of code or a terminal snippet; scrolls rather than wraps. */
export function CodeBlock({ tone = "dark", className, ...props }: CodeBlockProps) {
  return (
    <pre
      className={cn(
        "overflow-x-auto rounded-lg p-4 font-mono text-[0.8125rem] leading-relaxed",
        blockTones[tone],
        className,
      )}
      {...props}
    />
  );
}
