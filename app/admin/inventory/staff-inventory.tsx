"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Badge, Button, buttonClasses, Input, Label, PagedList, type BadgeTone, PageHeader, RelativeTime, Select } from "@/components/ui";
import { ListingFormDialog, RemoveListing } from "./listing-dialogs";

// One environment's listings, newest first, filtered from the URL (?env=,
// ?status=, ?q=), with add, reprice and remove; bulk changes on the import page.

const KEYS = ["env", "status", "q"] as const;
const statuses = [
  { value: "listed", label: "Available", tone: "success" },
  { value: "reserved", label: "Reserved", tone: "warning" },
  { value: "sold", label: "Sold", tone: "info" },
  { value: "removed", label: "Removed", tone: "neutral" },
] as const satisfies readonly { value: string; label: string; tone: BadgeTone }[];
type Status = (typeof statuses)[number]["value"];

export const environmentOf = (value: string): "sandbox" | "live" => (value === "sandbox" ? "sandbox" : "live");

export function StaffInventory() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(KEYS);
  const [q, setQ] = useState(filters.q);
  const environment = environmentOf(filters.env);
  const status = statuses.find((s) => s.value === filters.status)?.value;
  const input = useMemo(() => ({ environment, status, q: filters.q || undefined, limit: 25 }), [environment, status, filters.q]);
  const list = useInfiniteQuery(trpc.admin.inventory.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const counts = useQuery(trpc.admin.inventory.counts.queryOptions({ environment }));
  const rows = list.data?.pages.flatMap((page) => page.listings) ?? [];
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ q: q.trim() });
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Inventory"
        description={
          counts.data ? (
            <span data-testid="inventory-counts">
              {environment === "live" ? "Live" : "Sandbox"}: {statuses.map((s) => `${counts.data[s.value].toLocaleString("en-US")} ${s.label.toLowerCase()}`).join(" · ")}
            </span>
          ) : (
            "The domains for sale, per environment."
          )
        }
        actions={
          <>
            <Link href={`/admin/inventory/import?env=${environment}`} className={buttonClasses({ variant: "secondary" })}>
              Import CSV
            </Link>
            <ListingFormDialog environment={environment} trigger={<Button>Add domain</Button>} />
          </>
        }
      />
      <form onSubmit={onSearch} className="grid gap-3 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter listings">
        <div className="space-y-1.5">
          <Label htmlFor="inventory-env">Environment</Label>
          <Select id="inventory-env" value={environment} onChange={(event) => setFilters({ env: event.target.value === "live" ? "" : event.target.value })}>
            <option value="live">Live</option>
            <option value="sandbox">Sandbox</option>
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="inventory-q">Domain</Label>
          <Input id="inventory-q" value={q} onChange={(event) => setQ(event.target.value)} placeholder="part of the name" />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="inventory-status">Status</Label>
          <Select id="inventory-status" value={status ?? ""} onChange={(event) => setFilters({ status: event.target.value })}>
            <option value="">Any status</option>
            {statuses.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="flex items-end">
          <Button type="submit">Search</Button>
        </div>
      </form>
      <PagedList
        query={list}
        count={rows.length}
        loading="Loading listings…"
        errorTitle="We couldn't load the listings"
        empty={{ title: "No listings match", description: filters.q || status ? "Change or clear the filters." : `Nothing in the ${environment} inventory yet: add a domain or import a CSV.` }}
      >
        <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label={`${environment} listings`}>
          {rows.map((listing) => (
            <li key={listing.id} className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3" data-testid="staff-listing" data-domain={listing.name}>
              <div className="min-w-0 flex-1 basis-56">
                <span className="font-medium break-all text-ink">{listing.name}</span>
                <div className="flex flex-wrap gap-x-2 text-xs text-muted">
                  <span>
                    updated <RelativeTime value={listing.updatedAt} />
                  </span>
                  <Link href={`/admin/audit?targetId=${listing.id}`} className="text-brand hover:text-brand-hover" aria-label={`Audit log of ${listing.name}`}>
                    Audit log
                  </Link>
                  {listing.status === "reserved" || listing.status === "sold" ? (
                    <Link
                      href={`/admin/orders?q=${encodeURIComponent(listing.name)}&environment=${listing.environment}`}
                      className="text-brand hover:text-brand-hover"
                      aria-label={`Orders of ${listing.name}`}
                    >
                      Orders
                    </Link>
                  ) : null}
                </div>
              </div>
              <ListingStatus status={listing.status} />
              <div className="tabular-nums sm:w-32 sm:text-right" data-testid="listing-price">
                {formatMoney(listing.priceCents, listing.currency)}
                <div className="text-xs text-muted">{listing.floorPriceCents != null ? `floor ${formatMoney(listing.floorPriceCents, listing.currency)}` : "no floor"}</div>
              </div>
              <div className="ml-auto flex justify-end gap-1 sm:ml-0 sm:w-40">
                {listing.status === "listed" ? (
                  <>
                    <ListingFormDialog
                      environment={listing.environment}
                      listing={listing}
                      trigger={
                        <Button variant="secondary" size="sm" aria-label={`Reprice ${listing.name}`}>
                          Reprice
                        </Button>
                      }
                    />
                    <RemoveListing listing={listing} />
                  </>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      </PagedList>
    </div>
  );
}

export function ListingStatus({ status }: { status: Status }) {
  const s = statuses.find((x) => x.value === status) ?? statuses[3];
  return (
    <Badge tone={s.tone} data-testid="listing-status" data-status={status}>
      {s.label}
    </Badge>
  );
}
