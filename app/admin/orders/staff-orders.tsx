"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Button, buttonClasses, Input, Label, PagedList, PageHeader, RelativeTime, Select } from "@/components/ui";
import type { OrderStatus } from "@/server/services/order-states";
import { StaffOrderStatus, staffOrderStatuses } from "./order-status";

// Orders across partners, newest first, filtered from the URL. The manual-review
// queue is ?status=MANUAL_REVIEW.

const KEYS = ["status", "environment", "q", "partner"] as const;

export function StaffOrders() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(KEYS);
  const [q, setQ] = useState(filters.q);
  const input = useMemo(
    () => ({
      status: (staffOrderStatuses as string[]).includes(filters.status) ? (filters.status as OrderStatus) : undefined,
      environment: filters.environment === "sandbox" || filters.environment === "live" ? (filters.environment as "sandbox" | "live") : undefined,
      q: filters.q || undefined,
      partnerId: filters.partner || undefined,
      limit: 25,
    }),
    [filters.status, filters.environment, filters.q, filters.partner],
  );
  const list = useInfiniteQuery(trpc.admin.orders.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const rows = list.data?.pages.flatMap((page) => page.orders) ?? [];
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ q: q.trim() });
  };
  const inReview = filters.status === "MANUAL_REVIEW";

  return (
    <div className="space-y-6">
      <PageHeader
        title={inReview ? "Manual review queue" : "Orders"}
        description={inReview ? "Sales held for review: approve to let the transfer start, or reject to cancel and refund." : "Every order of every partner, newest first."}
        actions={
          inReview ? (
            <Link href="/admin/orders" className={buttonClasses({ variant: "secondary" })}>
              All orders
            </Link>
          ) : (
            <Link href="/admin/orders?status=MANUAL_REVIEW" className={buttonClasses({ variant: "secondary" })}>
              Manual review queue
            </Link>
          )
        }
      />
      <form onSubmit={onSearch} className="grid gap-3 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter orders">
        <div className="space-y-1.5">
          <Label htmlFor="order-q">Domain</Label>
          <Input id="order-q" value={q} onChange={(event) => setQ(event.target.value)} placeholder="part of the name" />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="order-status">Status</Label>
          <Select id="order-status" value={filters.status} onChange={(event) => setFilters({ status: event.target.value })}>
            <option value="">Any status</option>
            {staffOrderStatuses.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="order-env">Environment</Label>
          <Select id="order-env" value={filters.environment} onChange={(event) => setFilters({ environment: event.target.value })}>
            <option value="">Both</option>
            <option value="live">Live</option>
            <option value="sandbox">Sandbox</option>
          </Select>
        </div>
        <div className="flex items-end gap-2">
          <Button type="submit">Search</Button>
          {filters.partner ? (
            <Button variant="ghost" onClick={() => setFilters({ partner: "" })}>
              Any partner
            </Button>
          ) : null}
        </div>
      </form>
      <PagedList
        query={list}
        count={rows.length}
        loading="Loading orders…"
        errorTitle="We couldn't load the orders"
        empty={{ title: inReview ? "Nothing waits for review" : "No orders match", description: inReview ? "Sales above the risk threshold appear here." : "Change or clear the filters." }}
      >
        <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="Orders">
          {rows.map((order) => (
            <li key={order.id} className="flex flex-wrap items-center gap-x-6 gap-y-1 px-4 py-3" data-testid="staff-order" data-order-id={order.id}>
              <div className="min-w-0 flex-1 basis-64">
                <Link href={`/admin/orders/${order.id}`} className="font-medium break-all text-ink hover:text-brand">
                  {order.domain}
                </Link>
                <div className="text-xs text-muted">
                  {order.partnerName ?? "Marketplace"} · {order.environment} · <RelativeTime value={order.createdAt} />
                </div>
              </div>
              <StaffOrderStatus status={order.status} />
              <span className="w-28 text-right tabular-nums">{formatMoney(order.salePriceCents, order.currency)}</span>
            </li>
          ))}
        </ul>
      </PagedList>
    </div>
  );
}
