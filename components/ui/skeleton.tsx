import { cn } from "./cn";

/** Placeholder block shown while data loads; hidden from assistive tech. */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn("block animate-pulse rounded-md bg-line", className)} />;
}
