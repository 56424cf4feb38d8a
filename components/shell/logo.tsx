import { cn } from "@/components/ui/cn";
import { PRODUCT_NAME } from "./brand";

/** The mark (same drawing as public/favicon.svg), inline so it needs no request. */
export function LogoMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" fill="none" aria-hidden="true" className={cn("size-7 shrink-0", className)}>
      <defs>
        <linearGradient id="logo-mark-gradient" x1="0" y1="0" x2="32" y2="32" gradientUnits="userSpaceOnUse">
          <stop offset="0" stopColor="#6366f1" />
          <stop offset="1" stopColor="#4338ca" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#logo-mark-gradient)" />
      <circle cx="16" cy="16" r="8.5" stroke="#fff" strokeWidth="2" />
      <path
        d="M7.5 16h17M16 7.5c2.6 2.4 3.8 5.2 3.8 8.5s-1.2 6.1-3.8 8.5c-2.6-2.4-3.8-5.2-3.8-8.5s1.2-6.1 3.8-8.5Z"
        stroke="#fff"
        strokeWidth="2"
        strokeLinejoin="round"
      />
    </svg>
  );
}

export interface LogoProps {
  className?: string;
  /** A small label after the name, e.g. "Partners" or "Admin". */
  suffix?: string;
  /** On phones show only the mark (the name stays readable to screen readers). */
  compact?: boolean;
}

export function Logo({ className, suffix, compact = false }: LogoProps) {
  return (
    <span className={cn("inline-flex items-center gap-2.5", className)}>
      <LogoMark />
      <span
        className={cn(
          "text-[0.9375rem] font-semibold tracking-tight whitespace-nowrap text-ink",
          compact && "max-sm:sr-only",
        )}
      >
        {PRODUCT_NAME}
      </span>
      {suffix ? (
        <span className="rounded-md bg-brand-soft px-1.5 py-0.5 text-xs font-medium text-brand-ink">{suffix}</span>
      ) : null}
    </span>
  );
}
