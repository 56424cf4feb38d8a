"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import {
  Badge,
  Button,
  CopyButton,
  EmptyState,
  ErrorState,
  LoadingRows,
  RelativeTime,
  RowCard,
  rowClick,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Environment } from "@/db/schema";
import { commissionOf, linkTypeLabels, numberFormat } from "./link-format";

// Own links, newest first, with all-time figures (GET /links). A table on wide
// screens, one card per link on phones; ?link=<id> opens a link's detail.

const PAGE_SIZE = 20;

export interface LinkRow {
  id: string;
  url: string;
  type: string;
  target: string;
  domain: string | null;
  label: string | null;
  created_at: string;
  clicks: number;
  checkouts: number;
  conversions: number;
  revenue: { currency: string; gmv_cents: number; commission_cents: number }[];
}

interface ListProps {
  links: LinkRow[];
  selectedId: string | null;
  onSelect: (id: string) => void;
}

export function LinkList({
  environment,
  selectedId,
  onSelect,
  onCreate,
}: {
  environment: Environment;
  selectedId: string | null;
  onSelect: (id: string) => void;
  /** Absent for viewers. */
  onCreate?: () => void;
}) {
  const trpc = useTRPC();
  const list = useInfiniteQuery(
    trpc.links.list.infiniteQueryOptions({ limit: PAGE_SIZE }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const links = list.data?.pages.flatMap((page) => page.data) ?? [];

  if (list.isPending) return <LoadingRows label="Loading links…" rows={4} />;
  if (list.isError) return <ErrorState title="We couldn't load your links" error={list.error} onRetry={() => list.refetch()} />;
  if (links.length === 0) {
    return (
      <EmptyState
        title={`No ${environment} links yet`}
        description="Create a link to the storefront, a listed domain or the brokerage page, share it, and its clicks and sales show up here."
        action={onCreate ? <Button onClick={onCreate}>Create link</Button> : undefined}
      />
    );
  }
  return (
    <div className="space-y-4">
      <LinkTable links={links} selectedId={selectedId} onSelect={onSelect} />
      <LinkCards links={links} selectedId={selectedId} onSelect={onSelect} />
      <div className="flex flex-col items-center gap-2 sm:flex-row sm:justify-between">
        <p className="text-xs text-faint">
          {links.length === 1 ? "1 link" : `${numberFormat.format(links.length)} links`}, newest first; figures are all-time, refunded sales excluded.
        </p>
        {list.hasNextPage ? (
          <Button variant="secondary" onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>
            {list.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** The link's name; the button is the row's keyboard target. */
function LinkName({ link, onSelect }: { link: LinkRow; onSelect: (id: string) => void }) {
  return (
    <button
      type="button"
      onClick={() => onSelect(link.id)}
      className="block max-w-full truncate rounded-sm text-left font-medium text-ink hover:underline"
      data-testid="link-open"
    >
      {link.label ?? <span className="text-muted italic">Unlabelled link</span>}
    </button>
  );
}

function LinkUrl({ link }: { link: LinkRow }) {
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span className="truncate font-mono text-xs text-muted" title={link.url} data-testid="link-url">
        {link.url.replace(/^https?:\/\//, "")}
      </span>
      <CopyButton value={link.url} label={`Copy link ${link.url}`} />
    </span>
  );
}

function Destination({ link }: { link: LinkRow }) {
  return (
    <span className="flex min-w-0 items-center gap-2">
      <Badge className="shrink-0">{linkTypeLabels[link.type] ?? link.type}</Badge>
      {/* A domain link names its domain; the others show the storefront path they lead to. */}
      <span className={cn("truncate text-xs text-muted", !link.domain && "font-mono")} title={link.target}>
        {link.domain ?? link.target}
      </span>
    </span>
  );
}

function LinkTable({ links, selectedId, onSelect }: ListProps) {
  return (
    <div className="overflow-hidden rounded-xl border border-line bg-surface shadow-card max-md:hidden">
      <Table className="table-fixed">
        <THead>
          <tr>
            <TH>Link</TH>
            <TH className="w-72 max-lg:hidden">Destination</TH>
            <TH className="w-20 text-right">Clicks</TH>
            <TH className="w-24 text-right max-lg:hidden">Checkouts</TH>
            <TH className="w-20 text-right">Sales</TH>
            <TH className="w-32 text-right">Commission</TH>
            <TH className="w-28 max-xl:hidden">Created</TH>
          </tr>
        </THead>
        <TBody>
          {links.map((link) => (
            <TR
              key={link.id}
              data-testid="link-row"
              data-link-id={link.id}
              aria-current={link.id === selectedId ? "true" : undefined}
              onClick={rowClick(link.id, onSelect)}
              className={cn("cursor-pointer", link.id === selectedId && "bg-brand-soft/40")}
            >
              <TD className="min-w-0 py-2">
                <LinkName link={link} onSelect={onSelect} />
                <LinkUrl link={link} />
              </TD>
              <TD className="max-lg:hidden">
                <Destination link={link} />
              </TD>
              <TD className="text-right tabular-nums" data-testid="link-clicks">
                {numberFormat.format(link.clicks)}
              </TD>
              <TD className="text-right tabular-nums max-lg:hidden">{numberFormat.format(link.checkouts)}</TD>
              <TD className="text-right tabular-nums" data-testid="link-sales-count">
                {numberFormat.format(link.conversions)}
              </TD>
              <TD className="text-right tabular-nums">{commissionOf(link.revenue)}</TD>
              <TD className="whitespace-nowrap text-muted max-xl:hidden">
                <RelativeTime value={link.created_at} />
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </div>
  );
}

/** Phones: one card per link. */
function LinkCards({ links, selectedId, onSelect }: ListProps) {
  return (
    <ul className="space-y-2 md:hidden">
      {links.map((link) => (
        <RowCard key={link.id} rowId={link.id} onOpen={onSelect} selected={link.id === selectedId} data-testid="link-card">
          <div className="flex min-w-0 items-start justify-between gap-3">
            <div className="min-w-0 flex-1">
              <LinkName link={link} onSelect={onSelect} />
            </div>
            <Badge className="shrink-0">{linkTypeLabels[link.type] ?? link.type}</Badge>
          </div>
          <LinkUrl link={link} />
          <dl className="mt-2 grid grid-cols-3 gap-2 text-xs">
            <div>
              <dt className="text-faint">Clicks</dt>
              <dd className="font-medium text-ink tabular-nums">{numberFormat.format(link.clicks)}</dd>
            </div>
            <div>
              <dt className="text-faint">Sales</dt>
              <dd className="font-medium text-ink tabular-nums">{numberFormat.format(link.conversions)}</dd>
            </div>
            <div>
              <dt className="text-faint">Commission</dt>
              <dd className="font-medium text-ink tabular-nums">{commissionOf(link.revenue)}</dd>
            </div>
          </dl>
        </RowCard>
      ))}
    </ul>
  );
}
