"use client";

import { skipToken, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import { CopyButton, Dialog, DialogContent, ErrorState, formatExact, LoadingRows, RelativeTime } from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Environment } from "@/db/schema";
import { statusLabels, tierLabel, type CaseStatus } from "./brokerage-format";
import { ProgressBar, StatusBadge } from "./case-progress";

// One case in a dialog (?case=<id>): status and progress, the buyer's public
// progress link to copy or open, the figures, and the timeline oldest first.

export function CaseDetail({ id, environment, onClose }: { id: string | null; environment: Environment; onClose: () => void }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.brokerage.get.queryOptions(id ? { caseId: id } : skipToken));
  const item = detail.data;

  return (
    <Dialog open={id !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={item ? <span className="break-all">{item.domain}</span> : "Brokerage case"}
        description={item ? `${tierLabel(item.tier)} brokerage, opened ${formatExact(new Date(item.created_at))}` : `A ${environment} brokerage case`}
        className="sm:max-w-2xl"
      >
        <div data-testid="case-detail" className="space-y-6">
          {detail.isPending ? (
            <LoadingRows label="Loading the case…" rows={4} />
          ) : detail.isError ? (
            <ErrorState
              title={detail.error.data?.code === "not_found" ? "This case is not in your list" : "We couldn't load this case"}
              error={
                detail.error.data?.code === "not_found"
                  ? { message: `No case ${id} among your ${environment} cases. It may belong to the other environment.` }
                  : detail.error
              }
              onRetry={detail.error.data?.code === "not_found" ? undefined : () => detail.refetch()}
            />
          ) : item ? (
            <>
              <div className="space-y-2">
                <div className="flex items-center gap-3">
                  <StatusBadge status={item.status} />
                  <ProgressBar status={item.status} className="max-w-56 flex-1" />
                </div>
              </div>

              <section aria-labelledby="progress-link-title" className="space-y-2">
                <h3 id="progress-link-title" className="text-sm font-semibold text-ink">
                  The buyer&apos;s progress page
                </h3>
                <p className="text-sm text-muted">
                  Send this link to {item.buyer_email} only: anyone with it sees the case&apos;s status and timeline (never
                  the budget or your share), without signing in.
                </p>
                <div className="flex flex-col gap-2 rounded-lg bg-subtle px-3 py-2 ring-1 ring-line sm:flex-row sm:items-center">
                  <span className="min-w-0 flex-1 font-mono text-xs break-all text-ink" data-testid="progress-url">
                    {item.progress_url}
                  </span>
                  <span className="flex shrink-0 gap-2">
                    <CopyButton value={item.progress_url} label="Copy progress link" size="sm" />
                    <a
                      href={item.progress_url}
                      target="_blank"
                      rel="noreferrer noopener"
                      className="inline-flex h-8 items-center rounded-md px-3 text-sm font-medium text-brand-ink hover:bg-brand-soft"
                    >
                      Open<span className="sr-only"> the progress page in a new tab</span>
                    </a>
                  </span>
                </div>
              </section>

              <dl className="grid grid-cols-2 gap-x-6 gap-y-4 text-sm sm:grid-cols-3">
                <Item label="Buyer" wide>
                  <span className="break-all">{item.buyer_email}</span>
                </Item>
                <Item label="Budget">{formatMoney(item.budget, item.currency)}</Item>
                <Item label="Final price">{item.final_price_cents !== null ? formatMoney(item.final_price_cents, item.currency) : <Pending />}</Item>
                <Item label="Service fee">{item.service_fee_cents !== null ? formatMoney(item.service_fee_cents, item.currency) : <Pending />}</Item>
                <Item label="Your share">
                  {item.partner_share_cents !== null ? (
                    <span className="font-semibold text-success-ink">{formatMoney(item.partner_share_cents, item.currency)}</span>
                  ) : (
                    <Pending />
                  )}
                </Item>
                <Item label="Case ID" className="col-span-2 sm:col-span-3">
                  <span className="flex min-w-0 items-center gap-1">
                    <span className="truncate font-mono text-xs" title={item.case_id}>
                      {item.case_id}
                    </span>
                    <CopyButton value={item.case_id} label="Copy case id" />
                  </span>
                </Item>
              </dl>

              <section aria-labelledby="timeline-title" className="space-y-3">
                <h3 id="timeline-title" className="text-sm font-semibold text-ink">
                  Timeline
                </h3>
                <ol className="space-y-0" data-testid="case-timeline">
                  {item.timeline.map((entry, index) => (
                    <li key={`${entry.status}-${entry.at}`} className="relative flex gap-3 pb-4 last:pb-0">
                      <span aria-hidden="true" className="flex flex-col items-center">
                        <span className={cn("mt-1.5 size-2.5 rounded-full", index === item.timeline.length - 1 ? "bg-brand" : "bg-line-strong")} />
                        {index < item.timeline.length - 1 ? <span className="mt-1 w-px flex-1 bg-line" /> : null}
                      </span>
                      <div className="min-w-0 text-sm">
                        <p className="font-medium text-ink">
                          {statusLabels[entry.status as CaseStatus] ?? entry.status}{" "}
                          <span className="text-xs font-normal text-faint">
                            <RelativeTime value={entry.at} />
                          </span>
                        </p>
                        {entry.note ? <p className="text-muted">{entry.note}</p> : null}
                      </div>
                    </li>
                  ))}
                </ol>
                {item.closed_at ? null : (
                  <p className="text-xs text-faint">Our brokers move the case along; each step appears here and on the buyer&apos;s page.</p>
                )}
              </section>
            </>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}

function Pending() {
  return <span className="text-faint">When completed</span>;
}

function Item({ label, wide, className, children }: { label: string; wide?: boolean; className?: string; children: ReactNode }) {
  return (
    <div className={cn("min-w-0", wide && "max-sm:col-span-2", className)}>
      <dt className="text-xs font-medium tracking-wide text-muted uppercase">{label}</dt>
      <dd className="mt-1 text-ink tabular-nums">{children}</dd>
    </div>
  );
}
