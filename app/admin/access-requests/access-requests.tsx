"use client";

import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Badge, Button, ConfirmDialog, CopyButton, Label, PagedList, PageHeader, RelativeTime, Select, Textarea, useToast } from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";

// Production access requests: staff approve (the partner can then create live
// keys) or decline, each with a reason the partner reads on their Organisation
// page. The same service as `partner:access-decide`.

type Request = inferRouterOutputs<AppRouter>["admin"]["accessRequests"]["list"]["requests"][number];

const statuses = ["pending", "approved", "declined"] as const;
const tones = { pending: "warning", approved: "success", declined: "danger" } as const;

export function AccessRequests() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(["status"] as const);
  const status = (statuses as readonly string[]).includes(filters.status) ? (filters.status as (typeof statuses)[number]) : undefined;
  const list = useInfiniteQuery(
    trpc.admin.accessRequests.list.infiniteQueryOptions({ status, limit: 25 }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  const requests = list.data?.pages.flatMap((page) => page.requests) ?? [];
  return (
    <div className="space-y-6">
      <PageHeader title="Production access requests" description="Partners asking to sell with live keys. Approving grants live access at once." />
      <div className="max-w-xs space-y-1.5">
        <Label htmlFor="status-filter">Status</Label>
        <Select id="status-filter" value={status ?? ""} onChange={(event) => setFilters({ status: event.target.value })}>
          <option value="">Any status</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s[0]!.toUpperCase() + s.slice(1)}
            </option>
          ))}
        </Select>
      </div>
      <PagedList
        query={list}
        count={requests.length}
        loading="Loading requests…"
        errorTitle="We couldn't load the requests"
        empty={{ title: status ? `No ${status} requests` : "No requests yet", description: "Partners ask from their Organisation page." }}
      >
        <ul className="space-y-3" aria-label="Production access requests">
          {requests.map((request) => (
            <RequestRow key={request.id} request={request} />
          ))}
        </ul>
      </PagedList>
    </div>
  );
}

function RequestRow({ request }: { request: Request }) {
  return (
    <li className="rounded-xl border border-line bg-surface p-4 sm:p-5" data-testid="access-request" data-partner-id={request.partnerId}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <Link href={`/admin/partners/${request.partnerId}`} className="font-medium text-ink hover:text-brand">
              {request.partnerName}
            </Link>
            <Badge tone={tones[request.status]}>{request.status}</Badge>
          </div>
          <div className="flex items-center gap-1 text-xs text-muted">
            <code className="font-mono">{request.partnerId}</code>
            <CopyButton value={request.partnerId} label={`Copy partner id ${request.partnerId}`} />
          </div>
          <p className="text-xs text-muted">
            Asked <RelativeTime value={request.createdAt} />
            {request.decidedAt ? (
              <>
                {" "}
                · decided <RelativeTime value={request.decidedAt} />
              </>
            ) : null}
          </p>
        </div>
        {request.status === "pending" ? (
          <div className="flex flex-wrap gap-2">
            <Decide request={request} decision="approved" />
            <Decide request={request} decision="declined" />
          </div>
        ) : null}
      </div>
      <dl className="mt-3 grid gap-3 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-faint">Website</dt>
          <dd className="break-words">{request.website}</dd>
        </div>
        <div>
          <dt className="text-xs text-faint">Expected orders a month</dt>
          <dd>{request.expectedMonthlyOrders.toLocaleString("en-US")}</dd>
        </div>
        <div className="sm:col-span-3">
          <dt className="text-xs text-faint">How they will sell</dt>
          <dd className="whitespace-pre-line break-words">{request.useCase}</dd>
        </div>
        {request.decisionNote ? (
          <div className="sm:col-span-3">
            <dt className="text-xs text-faint">Reason given</dt>
            <dd className="break-words">{request.decisionNote}</dd>
          </div>
        ) : null}
      </dl>
    </li>
  );
}

function Decide({ request, decision }: { request: Request; decision: "approved" | "declined" }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [reason, setReason] = useState("");
  const decide = useMutation(trpc.admin.accessRequests.decide.mutationOptions());
  const approve = decision === "approved";
  const id = `reason-${decision}-${request.id}`;
  return (
    <ConfirmDialog
      trigger={<Button variant={approve ? "primary" : "secondary"}>{approve ? "Approve" : "Decline"}</Button>}
      title={approve ? `Approve ${request.partnerName} for production?` : `Decline ${request.partnerName}'s request?`}
      description={
        approve ? (
          <p>
            {request.partnerName} can create live keys at once and sell real domains for real money. The decision and your reason show on their
            Organisation page and in the audit log.
          </p>
        ) : (
          <p>They stay on sandbox. They see your reason on their Organisation page and can ask again.</p>
        )
      }
      tone={approve ? "primary" : "danger"}
      confirmLabel={approve ? "Approve production access" : "Decline request"}
      confirmDisabled={reason.trim().length < 3}
      onOpenChange={(open) => (open ? undefined : setReason(""))}
      onConfirm={async () => {
        await decide.mutateAsync({ requestId: request.id, decision, note: reason.trim() });
        toast({ title: `${request.partnerName} ${approve ? "approved" : "declined"}`, tone: "success" });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
      }}
    >
      <div className="space-y-1.5">
        <Label htmlFor={id}>Reason (required; the partner reads it)</Label>
        <Textarea id={id} rows={3} value={reason} onChange={(event) => setReason(event.target.value)} className="font-sans text-sm" />
      </div>
    </ConfirmDialog>
  );
}
