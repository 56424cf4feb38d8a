"use client";

import type { ReactNode } from "react";
import { Alert } from "./alert";
import { Button } from "./button";
import { Skeleton } from "./skeleton";

// The loading and error states every dashboard view shows while its query runs
// or after it failed, so no page invents its own.

/** Placeholder rows while a list loads; announced once to screen readers. */
export function LoadingRows({ label, rows = 4 }: { label: string; rows?: number }) {
  return (
    <div aria-busy="true" className="space-y-2" data-testid="loading">
      <span className="sr-only">{label}</span>
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-10 w-full" />
      ))}
    </div>
  );
}

/** A failed query: what went wrong and a retry. */
export function ErrorState({ title, error, onRetry }: { title: ReactNode; error: { message: string }; onRetry?: () => unknown }) {
  return (
    <Alert tone="danger" title={title} data-testid="error-state">
      <p>{error.message}</p>
      {onRetry ? (
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void onRetry()}>
          Try again
        </Button>
      ) : null}
    </Alert>
  );
}
