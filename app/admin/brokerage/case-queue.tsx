"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Badge, Label, PagedList, PageHeader, RelativeTime, Select } from "@/components/ui";
import type { BrokerageStatus } from "@/server/services/brokerage";

// The brokerage queue: every partner's cases, the open ones by default, one
// stage at a time with ?stage=.

// Client code: the contract module loads server code, so the stages are listed here (the type keeps them in step).
type Stage = BrokerageStatus;
const brokerageStatuses: readonly Stage[] = ["OPEN", "RESEARCHING", "NEGOTIATING", "COMPLETED", "CLOSED_NO_DEAL"];
const openBrokerageStatuses: readonly Stage[] = ["OPEN", "RESEARCHING", "NEGOTIATING"];

export function CaseQueue() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(["stage"] as const);
  const stage = (brokerageStatuses as readonly string[]).includes(filters.stage) ? (filters.stage as Stage) : undefined;
  const statuses: Stage[] = stage ? [stage] : filters.stage === "all" ? [] : [...openBrokerageStatuses];
  const list = useInfiniteQuery(
    trpc.admin.brokerage.list.infiniteQueryOptions({ statuses, limit: 25 }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  const rows = list.data?.pages.flatMap((page) => page.cases) ?? [];
  return (
    <div className="space-y-6">
      <PageHeader title="Brokerage queue" description="Cases for unlisted domains, newest first. Each move and note shows on the buyer's progress page." />
      <div className="max-w-xs space-y-1.5">
        <Label htmlFor="stage">Stage</Label>
        <Select id="stage" value={filters.stage} onChange={(event) => setFilters({ stage: event.target.value })}>
          <option value="">Open cases</option>
          <option value="all">All cases</option>
          {brokerageStatuses.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </Select>
      </div>
      <PagedList
        query={list}
        count={rows.length}
        loading="Loading cases…"
        errorTitle="We couldn't load the cases"
        empty={{ title: "No cases here", description: "Partners open cases with POST /brokerage or from their dashboard." }}
      >
        <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="Brokerage cases">
          {rows.map((c) => (
            <li key={c.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3" data-testid="staff-case">
              <div className="min-w-0 flex-1 basis-64">
                <Link href={`/admin/brokerage/${c.id}`} className="font-medium break-all text-ink hover:text-brand">
                  {c.domain}
                </Link>
                <div className="text-xs text-muted">
                  {c.partnerName} · {c.environment} · {c.tier} · <RelativeTime value={c.createdAt} />
                </div>
              </div>
              <Badge tone={c.status === "COMPLETED" ? "success" : c.status === "CLOSED_NO_DEAL" ? "neutral" : "warning"}>{c.status}</Badge>
              <span className="w-28 text-right text-sm tabular-nums">budget {formatMoney(c.budgetCents, c.currency)}</span>
            </li>
          ))}
        </ul>
      </PagedList>
    </div>
  );
}
