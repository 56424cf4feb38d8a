"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useMemo, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Badge, Button, ConfirmDialog, CopyButton, Field, Input, Label, PagedList, PageHeader, RelativeTime, Select, useToast } from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";

// What the service owes partners: commission payouts of closed statements,
// brokerage shares and referral commissions. Live payouts wait here as pending
// until staff send the bank transfer and record its reference. Filters live in
// the URL; the default view is the queue (?status=pending).

type Payout = inferRouterOutputs<AppRouter>["admin"]["payouts"]["list"]["payouts"][number];

const KEYS = ["status", "environment", "kind", "q", "partner"] as const;
const kindLabels: Record<string, string> = { commission: "Sale commission", brokerage: "Brokerage share", referral: "Referral commission" };

export function StaffPayouts() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(KEYS);
  const [q, setQ] = useState(filters.q);
  // No status in the URL means the queue; "any" shows every payout.
  const status = filters.status === "" ? "pending" : filters.status;
  const input = useMemo(
    () => ({
      status: status === "pending" || status === "paid" ? (status as "pending" | "paid") : undefined,
      environment: filters.environment === "sandbox" || filters.environment === "live" ? (filters.environment as "sandbox" | "live") : undefined,
      kind: ["commission", "brokerage", "referral"].includes(filters.kind) ? (filters.kind as "commission" | "brokerage" | "referral") : undefined,
      q: filters.q || undefined,
      partnerId: filters.partner || undefined,
      limit: 25,
    }),
    [status, filters.environment, filters.kind, filters.q, filters.partner],
  );
  const list = useInfiniteQuery(trpc.admin.payouts.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const rows = list.data?.pages.flatMap((page) => page.payouts) ?? [];
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ q: q.trim() });
  };
  const queue = status === "pending";

  return (
    <div className="space-y-6">
      <PageHeader
        title={queue ? "Payouts to send" : "Payouts"}
        description={
          queue
            ? "Live payouts written by settlement runs, brokerage deals and referral commissions, waiting for the bank transfer. Record the transfer's reference once it has gone out; the partner gets payout.paid."
            : "Every payout of every partner, newest first."
        }
      />
      <form onSubmit={onSearch} className="grid gap-3 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-5" aria-label="Filter payouts">
        <div className="space-y-1.5 lg:col-span-2">
          <Label htmlFor="payout-q">Partner, payout id or reference</Label>
          <Input id="payout-q" value={q} onChange={(event) => setQ(event.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="payout-status">Status</Label>
          <Select id="payout-status" value={status} onChange={(event) => setFilters({ status: event.target.value })}>
            <option value="pending">To send (pending)</option>
            <option value="paid">Paid</option>
            <option value="any">Any status</option>
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="payout-kind">Kind</Label>
          <Select id="payout-kind" value={filters.kind} onChange={(event) => setFilters({ kind: event.target.value })}>
            <option value="">Any kind</option>
            {Object.entries(kindLabels).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="payout-env">Environment</Label>
          <Select id="payout-env" value={filters.environment} onChange={(event) => setFilters({ environment: event.target.value })}>
            <option value="">Both</option>
            <option value="live">Live</option>
            <option value="sandbox">Sandbox</option>
          </Select>
        </div>
        <div className="flex items-end gap-2 sm:col-span-2 lg:col-span-5">
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
        loading="Loading payouts…"
        errorTitle="We couldn't load the payouts"
        empty={{ title: queue ? "Nothing to send" : "No payouts match", description: queue ? "A settlement run writes live payouts here for non-MoR commission, brokerage shares and referral commission." : "Change or clear the filters." }}
      >
        <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="Payouts">
          {rows.map((payout) => (
            <PayoutRow key={payout.id} payout={payout} />
          ))}
        </ul>
      </PagedList>
    </div>
  );
}

function PayoutRow({ payout }: { payout: Payout }) {
  return (
    <li className="flex flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3" data-testid="staff-payout" data-payout-id={payout.id}>
      <div className="min-w-0 flex-1 basis-64">
        <div className="flex flex-wrap items-center gap-2">
          <Link href={`/admin/partners/${payout.partnerId}`} className="font-medium text-ink hover:text-brand">
            {payout.partnerName}
          </Link>
          <Badge>{kindLabels[payout.kind] ?? payout.kind}</Badge>
          <Badge tone={payout.status === "paid" ? "success" : "warning"}>{payout.status}</Badge>
        </div>
        <div className="flex flex-wrap items-center gap-x-3 text-xs text-muted">
          <span className="inline-flex items-center gap-1">
            <code className="font-mono">{payout.id}</code>
            <CopyButton value={payout.id} label="Copy payout id" />
          </span>
          <span>{payout.environment}</span>
          {payout.period_start ? (
            <span>
              period {payout.period_start} to {payout.period_end}
            </span>
          ) : null}
          <span>
            written <RelativeTime value={payout.created_at} />
          </span>
          {payout.reference ? <span className="break-all">ref {payout.reference}</span> : null}
        </div>
      </div>
      <span className="font-medium tabular-nums sm:w-32 sm:text-right">{formatMoney(payout.amount_cents, payout.currency)}</span>
      {payout.status === "pending" ? <MarkPaid payout={payout} /> : <span className="w-24 text-xs text-muted">{payout.paid_at ? <RelativeTime value={payout.paid_at} /> : null}</span>}
    </li>
  );
}

function MarkPaid({ payout }: { payout: Payout }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [reference, setReference] = useState("");
  const mark = useMutation(trpc.admin.payouts.markPaid.mutationOptions());
  const amount = formatMoney(payout.amount_cents, payout.currency);
  return (
    <ConfirmDialog
      trigger={
        <Button size="sm" aria-label={`Mark paid: ${amount} to ${payout.partnerName}`}>
          Mark paid
        </Button>
      }
      title={`Record ${amount} sent to ${payout.partnerName}?`}
      tone="primary"
      description={
        <p>
          Only once the bank transfer has gone out. The payout becomes paid with this reference, {payout.partnerName} receives a payout.paid webhook
          and it cannot be undone here.
        </p>
      }
      confirmLabel="Mark paid"
      confirmDisabled={reference.trim().length < 3}
      onOpenChange={(open) => (open ? setReference("") : undefined)}
      onConfirm={async () => {
        await mark.mutateAsync({ id: payout.id, reference: reference.trim() });
        toast({ title: `${amount} to ${payout.partnerName} marked paid`, tone: "success" });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.payouts.pathKey() });
      }}
    >
      <Field
        id={`reference-${payout.id}`}
        label="Transfer reference (required)"
        hint="The bank or processor reference the partner will see, e.g. SEPA-2026-11-0042."
        value={reference}
        onChange={(event) => setReference(event.target.value)}
      />
    </ConfirmDialog>
  );
}
