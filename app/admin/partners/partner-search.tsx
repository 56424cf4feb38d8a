"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Badge, Button, Input, Label, PagedList, PageHeader, RelativeTime } from "@/components/ui";

// Partners by name, email or id, newest first; ?q= in the URL.

export function PartnerSearch() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(["q"] as const);
  const [q, setQ] = useState(filters.q);
  const list = useInfiniteQuery(
    trpc.admin.partners.list.infiniteQueryOptions({ q: filters.q || undefined, limit: 25 }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  const rows = list.data?.pages.flatMap((page) => page.partners) ?? [];
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ q: q.trim() });
  };
  return (
    <div className="space-y-6">
      <PageHeader title="Partners" description="Every partner organisation, newest first." />
      <form onSubmit={onSearch} className="flex flex-wrap items-end gap-2" aria-label="Search partners">
        <div className="min-w-0 flex-1 space-y-1.5 sm:max-w-md">
          <Label htmlFor="partner-q">Name, email or id</Label>
          <Input id="partner-q" value={q} onChange={(event) => setQ(event.target.value)} />
        </div>
        <Button type="submit">Search</Button>
      </form>
      <PagedList
        query={list}
        count={rows.length}
        loading="Loading partners…"
        errorTitle="We couldn't load partners"
        empty={{ title: "No partners match", description: "Search by part of the name, the email or the id." }}
      >
        <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="Partners">
          {rows.map((partner) => (
            <li key={partner.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3" data-testid="staff-partner">
              <div className="min-w-0 flex-1 basis-64">
                <Link href={`/admin/partners/${partner.id}`} className="font-medium text-ink hover:text-brand">
                  {partner.name}
                </Link>
                <div className="text-xs break-all text-muted">
                  {partner.email} · joined <RelativeTime value={partner.createdAt} />
                </div>
              </div>
              <div className="flex flex-wrap gap-1">
                <Badge>{partner.paymentModel === "mor" ? "MoR" : "Hosted checkout"}</Badge>
                {partner.isAffiliate ? <Badge tone="success">Affiliate</Badge> : null}
                <Badge tone={partner.liveApprovedAt ? "success" : "warning"}>{partner.liveApprovedAt ? "Live" : "Sandbox only"}</Badge>
              </div>
            </li>
          ))}
        </ul>
      </PagedList>
    </div>
  );
}
