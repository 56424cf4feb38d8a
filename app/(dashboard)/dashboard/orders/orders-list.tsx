"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import {
  Button,
  buttonClasses,
  Code,
  CopyButton,
  EmptyState,
  ErrorState,
  Input,
  Label,
  LoadingRows,
  PageHeader,
  RelativeTime,
  RowCard,
  rowClick,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Environment } from "@/db/schema";
import { CheckoutLinkDialog } from "./checkout-link-dialog";
import {
  channelLabels,
  channelShortLabels,
  exportHref,
  FILTER_KEYS,
  formatMoney,
  orderQuery,
  OrderStatusBadge,
  orderStatuses,
  saleChannels,
  statusLabels,
  type OrderFilterValues,
} from "./order-format";

// Orders of the selected environment, newest first: the query of GET /orders
// with its filters in the URL (status, channel, part of the domain, a UTC day
// range), keyset-paged with "Load more". A row opens /dashboard/orders/{id}.
// "Download CSV" streams the whole filtered list; "Create checkout link" makes
// a hosted-checkout link as POST /checkout-session does.

const PAGE_SIZE = 25;
const SEARCH_DELAY_MS = 300;

type OrderRow = {
  id: string;
  domain: string;
  status: string;
  channel: string;
  salePriceCents: number;
  commissionCents: number;
  currency: string;
  createdAt: string;
};

export function OrdersList({ environment, canChange }: { environment: Environment; canChange: boolean }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [filters, setFilters] = useUrlState(FILTER_KEYS);
  const query = useMemo(() => orderQuery(filters), [filters]);
  const list = useInfiniteQuery(
    trpc.orders.list.infiniteQueryOptions({ ...query, limit: PAGE_SIZE }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  const orders = useMemo(() => list.data?.pages.flatMap((page) => page.orders) ?? [], [list.data]);
  const filtered = Object.values(query).some(Boolean);
  const clear = () => setFilters({ status: null, channel: null, q: null, from: null, to: null });
  const open = (id: string) => router.push(`/dashboard/orders/${id}`);

  return (
    <div className="space-y-6">
      <PageHeader
        title="Orders"
        description={
          <>
            Every sale in <strong className="font-medium text-ink">{environment}</strong>, newest first: recorded with{" "}
            <Code className="whitespace-nowrap">POST /orders</Code> or paid on your hosted checkout links.
          </>
        }
        actions={
          <>
            <a href={exportHref(filters)} download className={buttonClasses({ variant: "secondary" })} data-testid="download-csv">
              Download CSV
            </a>
            {canChange ? <CheckoutLinkDialog environment={environment} /> : null}
          </>
        }
      />

      <OrderFilters filters={filters} setFilters={setFilters} filtered={filtered} onClear={clear} />

      {list.isPending ? (
        <LoadingRows label="Loading orders…" rows={6} />
      ) : list.isError ? (
        <ErrorState title="We couldn't load your orders" error={list.error} onRetry={() => list.refetch()} />
      ) : orders.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No orders match these filters"
            description="Widen the dates, pick another status or clear the filters to see every order."
            action={
              <Button variant="secondary" onClick={clear}>
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState
            title={`No ${environment} orders yet`}
            description="Orders appear here when you record a sale with POST /api/partner/v1/orders or a buyer pays on one of your hosted checkout links."
          />
        )
      ) : (
        <div className="space-y-4">
          <OrderTable orders={orders} onOpen={open} />
          <OrderCards orders={orders} onOpen={open} />
          <div className="flex flex-col items-center gap-2 sm:flex-row sm:justify-between">
            <p className="text-xs text-faint" aria-live="polite">
              {orders.length === 1 ? "1 order" : `${orders.length} orders`} shown, newest first
              {list.hasNextPage ? "; more below" : ""}
            </p>
            {list.hasNextPage ? (
              <Button variant="secondary" onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            ) : null}
          </div>
        </div>
      )}
    </div>
  );
}

function OrderFilters({
  filters,
  setFilters,
  filtered,
  onClear,
}: {
  filters: OrderFilterValues;
  setFilters: (changes: Partial<Record<keyof OrderFilterValues, string | null>>) => void;
  filtered: boolean;
  onClear: () => void;
}) {
  // The search reaches the URL a moment after typing stops; a change of the URL
  // from elsewhere (clear, back) resets the field.
  const [search, setSearch] = useState(filters.q);
  const [urlSearch, setUrlSearch] = useState(filters.q);
  if (urlSearch !== filters.q) {
    setUrlSearch(filters.q);
    setSearch(filters.q);
  }
  useEffect(() => {
    if (search.trim() === filters.q) return;
    const timer = setTimeout(() => setFilters({ q: search.trim() }), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search, filters.q, setFilters]);

  return (
    <form
      role="search"
      aria-label="Filter orders"
      onSubmit={(event) => {
        event.preventDefault();
        setFilters({ q: search.trim() });
      }}
      className="rounded-xl border border-line bg-surface p-4 shadow-card"
    >
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <div className="col-span-2 space-y-1.5 lg:col-span-1">
          <Label htmlFor="filter-domain">Domain</Label>
          <Input
            id="filter-domain"
            type="search"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
            placeholder="e.g. shop"
            spellCheck={false}
            autoComplete="off"
            maxLength={100}
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-status">Status</Label>
          <Select id="filter-status" value={filters.status} onChange={(event) => setFilters({ status: event.target.value })}>
            <option value="">Any status</option>
            {orderStatuses.map((status) => (
              <option key={status} value={status}>
                {statusLabels[status].label} ({status})
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-channel">Channel</Label>
          <Select id="filter-channel" value={filters.channel} onChange={(event) => setFilters({ channel: event.target.value })}>
            <option value="">Any channel</option>
            {saleChannels.map((channel) => (
              <option key={channel} value={channel}>
                {channelLabels[channel]}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-from">From (UTC)</Label>
          <Input id="filter-from" type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => setFilters({ from: event.target.value })} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-to">To (UTC, inclusive)</Label>
          <Input id="filter-to" type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => setFilters({ to: event.target.value })} />
        </div>
      </div>
      {filtered ? (
        <div className="mt-3 flex justify-end">
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setSearch("");
              onClear();
            }}
          >
            Clear filters
          </Button>
        </div>
      ) : null}
    </form>
  );
}

interface ListProps {
  orders: OrderRow[];
  onOpen: (id: string) => void;
}

function OrderId({ id }: { id: string }) {
  return (
    <span className="flex min-w-0 items-center gap-1">
      <span className="truncate font-mono text-xs text-muted" title={id}>
        {id}
      </span>
      <CopyButton value={id} label={`Copy order id ${id}`} />
    </span>
  );
}

function DomainLink({ order, wrap = false }: { order: OrderRow; wrap?: boolean }) {
  return (
    <Link
      href={`/dashboard/orders/${order.id}`}
      className={cn("block font-medium text-ink hover:underline", wrap ? "break-all" : "truncate")}
      title={order.domain}
    >
      {order.domain}
    </Link>
  );
}

const channelName = (channel: string) => channelLabels[channel as keyof typeof channelLabels] ?? channel;

function OrderTable({ orders, onOpen }: ListProps) {
  return (
    <div className="overflow-hidden rounded-xl border border-line bg-surface shadow-card max-lg:hidden">
      <Table className="table-fixed">
        <THead>
          <tr>
            <TH className="w-[17rem]">Order</TH>
            <TH>Domain</TH>
            <TH className="w-32">Status</TH>
            <TH className="w-28 max-xl:hidden">Channel</TH>
            <TH className="w-28 text-right">Price</TH>
            <TH className="w-32 text-right">Commission</TH>
            <TH className="w-24">Created</TH>
          </tr>
        </THead>
        <TBody>
          {orders.map((order) => (
            <TR key={order.id} data-testid="order-row" data-order-id={order.id} onClick={rowClick(order.id, onOpen)} className="cursor-pointer">
              <TD className="py-1.5">
                <OrderId id={order.id} />
              </TD>
              <TD className="min-w-0">
                <DomainLink order={order} />
              </TD>
              <TD>
                <OrderStatusBadge status={order.status} />
              </TD>
              <TD className="truncate text-muted max-xl:hidden" title={channelName(order.channel)}>
                {channelShortLabels[order.channel as keyof typeof channelShortLabels] ?? order.channel}
              </TD>
              <TD className="text-right tabular-nums">{formatMoney(order.salePriceCents, order.currency)}</TD>
              <TD className="text-right text-muted tabular-nums">{formatMoney(order.commissionCents, order.currency)}</TD>
              <TD className="whitespace-nowrap text-muted">
                <RelativeTime value={order.createdAt} />
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </div>
  );
}

/** Phones and tablets: one card per order instead of a table. */
function OrderCards({ orders, onOpen }: ListProps) {
  return (
    <ul className="space-y-2 lg:hidden">
      {orders.map((order) => (
        <RowCard key={order.id} rowId={order.id} onOpen={onOpen} data-testid="order-card" data-order-id={order.id}>
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0 flex-1">
              <DomainLink order={order} wrap />
            </div>
            <OrderStatusBadge status={order.status} />
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
            <span className="font-medium tabular-nums">{formatMoney(order.salePriceCents, order.currency)}</span>
            <span className="text-muted tabular-nums">commission {formatMoney(order.commissionCents, order.currency)}</span>
          </div>
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
            <RelativeTime value={order.createdAt} />
            <span>{channelName(order.channel)}</span>
          </div>
          <div className="mt-1">
            <OrderId id={order.id} />
          </div>
        </RowCard>
      ))}
    </ul>
  );
}
