"use client";

import type { ReactNode } from "react";
import { Button } from "./button";
import { EmptyState } from "./empty-state";
import { ErrorState, LoadingRows } from "./query-states";

/** What PagedList reads of a TanStack infinite query. */
export interface PagedQuery {
  isPending: boolean;
  isError: boolean;
  error: { message: string } | null;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

/**
 * The states every keyset-paged list goes through, in one place: loading,
 * error with retry, empty, then the rows (whatever markup the caller renders)
 * and a "Load more" button while the server says there is more.
 */
export function PagedList({
  query,
  count,
  loading,
  errorTitle,
  empty,
  children,
}: {
  query: PagedQuery;
  /** Rows loaded so far. */
  count: number;
  loading: string;
  errorTitle: string;
  empty: { title: string; description?: ReactNode; action?: ReactNode };
  children: ReactNode;
}) {
  if (query.isPending) return <LoadingRows label={loading} rows={6} />;
  if (query.isError) return <ErrorState title={errorTitle} error={query.error ?? { message: "Something went wrong." }} onRetry={() => query.refetch()} />;
  if (count === 0) return <EmptyState {...empty} />;
  return (
    <>
      {children}
      {query.hasNextPage ? (
        <Button variant="secondary" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
          {query.isFetchingNextPage ? "Loading…" : "Load more"}
        </Button>
      ) : null}
    </>
  );
}
