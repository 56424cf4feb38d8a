"use client";

import { skipToken, useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import {
  Badge,
  CopyButton,
  Dialog,
  DialogContent,
  ErrorState,
  formatExact,
  LoadingRows,
  RelativeTime,
  Skeleton,
} from "@/components/ui";
import type { Environment } from "@/db/schema";
import { ClicksChart } from "./clicks-chart";
import { commissionOf, commissionStateOf, fillDays, gmvOf, linkTypeLabels, numberFormat, type Period } from "./link-format";

// One link in a dialog (?link=<id>): its URL to copy, all-time figures, clicks
// per day over the selected period (GET /me/clicks narrowed to the link) and
// the sales it brought (GET /me/sales narrowed to the link).

const SALES_SHOWN = 10;

export function LinkDetail({
  id,
  environment,
  period,
  from,
  onClose,
}: {
  id: string | null;
  environment: Environment;
  period: Period;
  from: string;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const link = useQuery(trpc.links.get.queryOptions(id ? { id } : skipToken));
  const found = link.isSuccess;
  const clicks = useQuery(trpc.links.clicks.queryOptions(id && found ? { linkId: id, from, interval: "day" } : skipToken));
  const sales = useQuery(trpc.links.sales.queryOptions(id && found ? { linkId: id, limit: SALES_SHOWN } : skipToken));
  const data = link.data;

  return (
    <Dialog open={id !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent
        title={data ? (data.label ?? "Unlabelled link") : "Referral link"}
        description={data ? `Created ${formatExact(new Date(data.created_at))} in ${environment}` : `A ${environment} referral link`}
        className="sm:max-w-2xl lg:max-w-3xl"
      >
        <div data-testid="link-detail" className="space-y-6">
          {link.isPending ? (
            <LoadingRows label="Loading the link…" rows={4} />
          ) : link.isError ? (
            <ErrorState
              title={link.error.data?.code === "not_found" ? "This link is not yours to see" : "We couldn't load this link"}
              error={
                link.error.data?.code === "not_found"
                  ? { message: `No link ${id} in your ${environment} links. It may belong to the other environment.` }
                  : link.error
              }
              onRetry={link.error.data?.code === "not_found" ? undefined : () => link.refetch()}
            />
          ) : data ? (
            <>
              <div className="space-y-2">
                <div className="flex flex-col gap-2 rounded-lg bg-subtle px-3 py-2 ring-1 ring-line sm:flex-row sm:items-center">
                  <span className="min-w-0 flex-1 font-mono text-xs break-all text-ink sm:text-sm" data-testid="detail-url">
                    {data.url}
                  </span>
                  <CopyButton value={data.url} label="Copy link" size="sm" />
                </div>
                <p className="flex flex-wrap items-center gap-2 text-sm text-muted">
                  <Badge>{linkTypeLabels[data.type] ?? data.type}</Badge>
                  leads to <span className="font-mono text-xs text-ink">{data.target}</span>
                </p>
              </div>

              <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
                <Figure label="Clicks" testId="detail-clicks">
                  {numberFormat.format(data.clicks)}
                </Figure>
                <Figure label="Checkouts" testId="detail-checkouts">
                  {numberFormat.format(data.checkouts)}
                </Figure>
                <Figure label="Sales" testId="detail-sales">
                  {numberFormat.format(data.conversions)}
                </Figure>
                <Figure label="Commission" testId="detail-commission">
                  {commissionOf(data.revenue)}
                </Figure>
              </dl>
              <p className="-mt-3 text-xs text-faint">
                All-time figures{data.revenue.length ? `; sales worth ${gmvOf(data.revenue)}` : ""}. Refunded or cancelled sales are not
                counted.
              </p>

              <section aria-labelledby="link-clicks-title" className="space-y-2">
                <h3 id="link-clicks-title" className="text-sm font-semibold text-ink">
                  Clicks per day, {period.label.toLowerCase()}
                </h3>
                {clicks.isPending ? (
                  <Skeleton className="h-44 w-full" />
                ) : clicks.isError ? (
                  <ErrorState title="We couldn't load the clicks" error={clicks.error} onRetry={() => clicks.refetch()} />
                ) : (
                  <ClicksChart days={fillDays(clicks.data.series ?? [], period)} />
                )}
              </section>

              <section aria-labelledby="link-sales-title" className="space-y-2">
                <h3 id="link-sales-title" className="text-sm font-semibold text-ink">
                  Its sales
                </h3>
                {sales.isPending ? (
                  <LoadingRows label="Loading sales…" rows={2} />
                ) : sales.isError ? (
                  <ErrorState title="We couldn't load the sales" error={sales.error} onRetry={() => sales.refetch()} />
                ) : sales.data.data.length === 0 ? (
                  <p className="rounded-lg border border-dashed border-line-strong px-4 py-5 text-center text-sm text-muted">
                    No sales through this link yet. A buyer who follows it and buys within 30 days shows up here.
                  </p>
                ) : (
                  <ul className="divide-y divide-line rounded-lg border border-line" data-testid="link-sales">
                    {sales.data.data.map((sale) => {
                      const state = commissionStateOf(sale.commission_state);
                      return (
                        <li key={sale.id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 px-3 py-2 text-sm">
                          <span className="min-w-0">
                            <span className="block truncate font-medium text-ink">{sale.domain}</span>
                            <span className="block truncate text-xs text-muted">
                              {sale.buyer_email} · <RelativeTime value={sale.created_at} />
                            </span>
                          </span>
                          <span className="flex items-center gap-3 tabular-nums">
                            <span className="text-muted">{formatMoney(sale.amount_cents, sale.currency)}</span>
                            <span className="font-medium text-ink">+{formatMoney(sale.commission_cents, sale.currency)}</span>
                            {state ? <Badge tone={state.tone}>{state.label}</Badge> : null}
                          </span>
                        </li>
                      );
                    })}
                  </ul>
                )}
                {sales.data?.next_cursor ? (
                  <p className="text-xs text-faint">The {SALES_SHOWN} newest; the commission ledger lists every one.</p>
                ) : null}
              </section>
            </>
          ) : null}
        </div>
      </DialogContent>
    </Dialog>
  );
}

function Figure({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="rounded-lg border border-line px-3 py-2">
      <dt className="text-xs text-muted">{label}</dt>
      <dd className="mt-0.5 text-lg font-semibold text-ink tabular-nums" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}
