"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import { Button, EmptyState, ErrorState, LoadingRows, RelativeTime, RowCard, rowClick, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Environment } from "@/db/schema";
import { tierLabel, type CaseStatus } from "./brokerage-format";
import { ProgressBar, StatusBadge } from "./case-progress";

// Own cases, newest first (GET /brokerage), keyset-paged. A table on wide
// screens, cards on phones; a row opens the case (?case=<id>).

const PAGE_SIZE = 20;

export interface CaseSummary {
  case_id: string;
  domain: string;
  tier: string;
  status: string;
  buyer_email: string;
  budget: number;
  currency: string;
  final_price_cents: number | null;
  partner_share_cents: number | null;
  created_at: string;
  updated_at: string;
}

interface ListProps {
  cases: CaseSummary[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

export function CaseList({
  environment,
  statuses,
  selectedId,
  onSelect,
  onClearFilter,
  onCreate,
}: {
  environment: Environment;
  statuses: CaseStatus[] | undefined;
  selectedId: string | null;
  onSelect: (id: string) => void;
  onClearFilter: () => void;
  onCreate?: () => void;
}) {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.brokerage.list.infiniteQueryOptions({ limit: PAGE_SIZE, status: statuses }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const cases = list.data?.pages.flatMap((page) => page.data) ?? [];

  if (list.isPending) return <LoadingRows label="Loading cases…" rows={4} />;
  if (list.isError) return <ErrorState title="We couldn't load your brokerage cases" error={list.error} onRetry={() => list.refetch()} />;
  if (cases.length === 0) {
    return statuses ? (
      <EmptyState
        title="No cases with this status"
        description="Clear the filter to see every case."
        action={
          <Button variant="secondary" onClick={onClearFilter}>
            Clear filter
          </Button>
        }
      />
    ) : (
      <EmptyState
        title={`No ${environment} brokerage cases yet`}
        description="When a buyer wants a domain that is not listed, check whether it can be brokered and open a case; you follow it here and the buyer on a progress page."
        action={onCreate ? <Button onClick={onCreate}>New case</Button> : undefined}
      />
    );
  }
  return (
    <div className="space-y-4">
      <CaseTable cases={cases} selectedId={selectedId} onSelect={onSelect} />
      <CaseCards cases={cases} selectedId={selectedId} onSelect={onSelect} />
      <div className="flex flex-col items-center gap-2 sm:flex-row sm:justify-between">
        <p className="text-xs text-faint">{cases.length === 1 ? "1 case" : `${cases.length} cases`}, newest first</p>
        {list.hasNextPage ? (
          <Button variant="secondary" onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>
            {list.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

function DomainButton({ item, onSelect }: { item: CaseSummary; onSelect: (id: string) => void }) {
  return (
    <button
      type="button"
      onClick={() => onSelect(item.case_id)}
      className="block max-w-full truncate rounded-sm text-left font-medium text-ink hover:underline"
      data-testid="case-open"
    >
      {item.domain}
    </button>
  );
}

/** Final price and share once completed, else the buyer's budget. */
function Outcome({ item }: { item: CaseSummary }) {
  if (item.final_price_cents !== null) {
    return (
      <>
        <span className="block font-medium text-ink">{formatMoney(item.final_price_cents, item.currency)}</span>
        <span className="block text-xs text-success-ink">
          your share {item.partner_share_cents !== null ? formatMoney(item.partner_share_cents, item.currency) : "—"}
        </span>
      </>
    );
  }
  return (
    <>
      <span className="block text-ink">{formatMoney(item.budget, item.currency)}</span>
      <span className="block text-xs text-faint">budget</span>
    </>
  );
}

function CaseTable({ cases, selectedId, onSelect }: ListProps) {
  return (
    <div className="overflow-hidden rounded-xl border border-line bg-surface shadow-card max-md:hidden">
      <Table className="table-fixed">
        <THead>
          <tr>
            <TH>Domain</TH>
            <TH className="w-52">Status</TH>
            <TH className="w-28 max-lg:hidden">Tier</TH>
            <TH className="w-40 text-right">Budget or price</TH>
            <TH className="w-28">Updated</TH>
          </tr>
        </THead>
        <TBody>
          {cases.map((item) => (
            <TR
              key={item.case_id}
              data-testid="case-row"
              data-case-id={item.case_id}
              aria-current={item.case_id === selectedId ? "true" : undefined}
              onClick={rowClick(item.case_id, onSelect)}
              className={cn("cursor-pointer", item.case_id === selectedId && "bg-brand-soft/40")}
            >
              <TD className="min-w-0">
                <DomainButton item={item} onSelect={onSelect} />
                <span className="block truncate text-xs text-muted">{item.buyer_email}</span>
              </TD>
              <TD>
                <StatusBadge status={item.status} />
                <ProgressBar status={item.status} className="mt-2 w-36" />
              </TD>
              <TD className="text-muted max-lg:hidden">{tierLabel(item.tier)}</TD>
              <TD className="text-right tabular-nums">
                <Outcome item={item} />
              </TD>
              <TD className="whitespace-nowrap text-muted">
                <RelativeTime value={item.updated_at} />
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </div>
  );
}

function CaseCards({ cases, selectedId, onSelect }: ListProps) {
  return (
    <ul className="space-y-2 md:hidden">
      {cases.map((item) => (
        <RowCard key={item.case_id} rowId={item.case_id} onOpen={onSelect} selected={item.case_id === selectedId} data-testid="case-card">
          <div className="flex min-w-0 items-start justify-between gap-3">
            <div className="min-w-0 flex-1">
              <DomainButton item={item} onSelect={onSelect} />
              <span className="block truncate text-xs text-muted">{item.buyer_email}</span>
            </div>
            <StatusBadge status={item.status} />
          </div>
          <ProgressBar status={item.status} className="mt-3" />
          <div className="mt-2 flex items-end justify-between gap-3 text-sm tabular-nums">
            <span className="text-xs text-muted">
              {tierLabel(item.tier)} · <RelativeTime value={item.updated_at} />
            </span>
            <span className="text-right">
              <Outcome item={item} />
            </span>
          </div>
        </RowCard>
      ))}
    </ul>
  );
}
