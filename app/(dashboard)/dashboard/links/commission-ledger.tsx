"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import {
  Badge,
  Button,
  EmptyState,
  ErrorState,
  Label,
  LoadingRows,
  RelativeTime,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "@/components/ui";
import { commissionSourceLabels, commissionStateOf, commissionStates, formatAmounts, numberFormat, type CommissionState } from "./link-format";

// The commission ledger (GET /me/commissions): every entry newest first with the
// running balance still owed, filtered by state from the URL (?state=), and the
// totals per state and currency over the whole ledger.

const PAGE_SIZE = 25;

export function CommissionLedger({ state, onStateChange }: { state: string; onStateChange: (state: string | null) => void }) {
  const trpc = useTRPC();
  const filter = commissionStateOf(state)?.value as CommissionState | undefined;
  const ledger = useInfiniteQuery(
    trpc.links.commissions.infiniteQueryOptions(
      { limit: PAGE_SIZE, state: filter },
      { getNextPageParam: (page) => page.next_cursor ?? undefined },
    ),
  );
  const entries = ledger.data?.pages.flatMap((page) => page.data) ?? [];
  const totals = ledger.data?.pages[0]?.totals ?? [];

  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="w-full space-y-1.5 sm:w-56">
          <Label htmlFor="commission-state">State</Label>
          <Select id="commission-state" value={filter ?? ""} onChange={(e) => onStateChange(e.target.value || null)}>
            <option value="">All states</option>
            {commissionStates.map((s) => (
              <option key={s.value} value={s.value}>
                {s.label}
              </option>
            ))}
          </Select>
        </div>
        {totals.length ? (
          <dl className="grid grid-cols-3 gap-x-6 gap-y-1 text-sm" data-testid="commission-totals">
            <div>
              <dt className="text-xs text-muted">Owed to you</dt>
              <dd className="font-semibold text-ink tabular-nums">
                {formatAmounts(totals.map((t) => ({ currency: t.currency, cents: t.accrued_cents + t.pending_cents })))}
              </dd>
            </div>
            <div>
              <dt className="text-xs text-muted">Paid out</dt>
              <dd className="font-semibold text-ink tabular-nums">{formatAmounts(totals.map((t) => ({ currency: t.currency, cents: t.paid_out_cents })))}</dd>
            </div>
            <div>
              <dt className="text-xs text-muted">Reversed</dt>
              <dd className="text-muted tabular-nums">{formatAmounts(totals.map((t) => ({ currency: t.currency, cents: t.reversed_cents })))}</dd>
            </div>
          </dl>
        ) : null}
      </div>

      {filter ? <p className="text-xs text-muted">{commissionStateOf(filter)?.hint}</p> : null}

      {ledger.isPending ? (
        <LoadingRows label="Loading the commission ledger…" rows={4} />
      ) : ledger.isError ? (
        <ErrorState title="We couldn't load the commission ledger" error={ledger.error} onRetry={() => ledger.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState
          title={filter ? `No ${commissionStateOf(filter)?.label.toLowerCase()} commission` : "No commission yet"}
          description={
            filter
              ? "Entries in other states are under All states."
              : "A referral sale adds an accrued entry here; it becomes pending when the domain transfer completes and is paid out after the order settles."
          }
          action={
            filter ? (
              <Button variant="secondary" onClick={() => onStateChange(null)}>
                Show all states
              </Button>
            ) : undefined
          }
        />
      ) : (
        <>
          <div className="overflow-hidden rounded-xl border border-line bg-surface shadow-card">
            <Table className="table-fixed">
              <THead>
                <tr>
                  <TH className="w-28 max-sm:w-24">Date</TH>
                  <TH className="max-sm:hidden">Source</TH>
                  <TH className="w-28">State</TH>
                  <TH className="w-28 text-right">Amount</TH>
                  <TH className="w-32 text-right max-md:hidden">Balance owed</TH>
                </tr>
              </THead>
              <TBody>
                {entries.map((entry) => {
                  const state = commissionStateOf(entry.state);
                  return (
                    <TR key={entry.id} data-testid="commission-row">
                      <TD className="whitespace-nowrap text-muted">
                        <RelativeTime value={entry.created_at} />
                      </TD>
                      <TD className="max-sm:hidden">
                        <span className="block truncate">{commissionSourceLabels[entry.source] ?? entry.source}</span>
                        <span className="block truncate font-mono text-xs text-faint" title={entry.order_id ?? entry.source_id}>
                          {entry.order_id ?? entry.source_id}
                        </span>
                      </TD>
                      <TD>{state ? <Badge tone={state.tone}>{state.label}</Badge> : entry.state}</TD>
                      <TD className="text-right font-medium tabular-nums">{formatMoney(entry.amount_cents, entry.currency)}</TD>
                      <TD className="text-right text-muted tabular-nums max-md:hidden">{formatMoney(entry.balance_cents, entry.currency)}</TD>
                    </TR>
                  );
                })}
              </TBody>
            </Table>
          </div>
          <div className="flex flex-col items-center gap-2 sm:flex-row sm:justify-between">
            <p className="text-xs text-faint">
              {numberFormat.format(entries.length)} {entries.length === 1 ? "entry" : "entries"}, newest first. The balance is
              what was still owed after each entry, in its currency.
            </p>
            {ledger.hasNextPage ? (
              <Button variant="secondary" onClick={() => ledger.fetchNextPage()} disabled={ledger.isFetchingNextPage}>
                {ledger.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            ) : null}
          </div>
        </>
      )}
    </div>
  );
}
