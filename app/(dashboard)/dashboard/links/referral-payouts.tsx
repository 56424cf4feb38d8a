"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import {
  Badge,
  Button,
  CopyButton,
  EmptyState,
  ErrorState,
  LoadingRows,
  RelativeTime,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "@/components/ui";
import { formatAmounts, formatPeriod, numberFormat } from "./link-format";

// Referral payouts (GET /me/payouts): one per partner, currency and settlement
// period, paid by the settlement run once the orders behind them settle.

const PAGE_SIZE = 25;

export function ReferralPayouts() {
  const trpc = useTRPC();
  const payouts = useInfiniteQuery(
    trpc.links.payouts.infiniteQueryOptions({ limit: PAGE_SIZE }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const rows = payouts.data?.pages.flatMap((page) => page.data) ?? [];
  const totalPaid = payouts.data?.pages[0]?.total_paid ?? [];

  if (payouts.isPending) return <LoadingRows label="Loading payouts…" rows={3} />;
  if (payouts.isError) return <ErrorState title="We couldn't load your referral payouts" error={payouts.error} onRetry={() => payouts.refetch()} />;
  if (rows.length === 0) {
    return (
      <EmptyState
        title="No referral payouts yet"
        description="Commission is paid out by the settlement run after the referred order settles: one payout per settlement period and currency."
      />
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-sm text-muted">
        Paid so far:{" "}
        <strong className="font-semibold text-ink" data-testid="total-paid">
          {formatAmounts(totalPaid.map((t) => ({ currency: t.currency, cents: t.amount_cents })))}
        </strong>
      </p>
      <div className="overflow-hidden rounded-xl border border-line bg-surface shadow-card">
        <Table className="table-fixed">
          <THead>
            <tr>
              <TH className="w-28">Paid</TH>
              <TH>Period</TH>
              <TH className="w-28 text-right">Amount</TH>
              <TH className="w-24 max-sm:hidden">Status</TH>
              <TH className="w-56 max-lg:hidden">Payout ID</TH>
            </tr>
          </THead>
          <TBody>
            {rows.map((payout) => (
              <TR key={payout.id} data-testid="payout-row">
                <TD className="whitespace-nowrap text-muted">
                  <RelativeTime value={payout.paid_at ?? payout.created_at} />
                </TD>
                <TD className="truncate">
                  {payout.period_start && payout.period_end ? formatPeriod(payout.period_start, payout.period_end) : "—"}
                </TD>
                <TD className="text-right font-medium tabular-nums">{formatMoney(payout.amount_cents, payout.currency)}</TD>
                <TD className="max-sm:hidden">
                  <Badge tone={payout.status === "paid" ? "success" : "neutral"}>{payout.status}</Badge>
                </TD>
                <TD className="max-lg:hidden">
                  <span className="flex min-w-0 items-center gap-1">
                    <span className="truncate font-mono text-xs text-muted" title={payout.id}>
                      {payout.id}
                    </span>
                    <CopyButton value={payout.id} label={`Copy payout id ${payout.id}`} />
                  </span>
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </div>
      <div className="flex flex-col items-center gap-2 sm:flex-row sm:justify-between">
        <p className="text-xs text-faint">
          {numberFormat.format(rows.length)} {rows.length === 1 ? "payout" : "payouts"}, newest first.
        </p>
        {payouts.hasNextPage ? (
          <Button variant="secondary" onClick={() => payouts.fetchNextPage()} disabled={payouts.isFetchingNextPage}>
            {payouts.isFetchingNextPage ? "Loading…" : "Load more"}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
