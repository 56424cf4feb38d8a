"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import { formatCount, formatDayYear, formatMoney, formatMonth } from "@/components/dashboard/finance-format";
import { Badge, EmptyState, ErrorState, LoadingRows, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { ChipGroup, CsvLink, FilterBar, LoadMore, payoutKindLabels, PhoneCard, PhoneCards, TabToolbar, TableCard, TotalsPanel } from "./finance-parts";
import { exportHref, listOf, PAYOUT_KINDS, payoutsQuery, toggled, type FinanceFilters, type FinanceSetter } from "./finance-query";

// GET /payouts in the dashboard: money we paid the partner (hosted-checkout
// commission per settled month, brokerage shares, referral commission), with
// totals of the whole filtered set.

const PAGE_SIZE = 25;

export function PayoutsTab({ filters, setFilters }: { filters: FinanceFilters; setFilters: FinanceSetter }) {
  const trpc = useTRPC();
  const query = payoutsQuery(filters);
  const list = useInfiniteQuery(
    trpc.finance.payouts.infiniteQueryOptions({ ...query, limit: PAGE_SIZE }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  const totals = list.data?.pages[0]?.totals ?? [];
  const filtered = Object.keys(query).length > 0;

  return (
    <div className="space-y-4">
      <TabToolbar
        title="Payouts"
        description="What we paid you: hosted-checkout commission after each monthly settlement, brokerage shares and referral commission."
        actions={<CsvLink href={exportHref("payouts", filters)} label="payouts" />}
      />
      <FilterBar
        label="Filter payouts"
        filters={filters}
        setFilters={setFilters}
        dateHint="when the payout was made"
        onClear={filtered ? () => setFilters({ from: null, to: null, kind: null }) : undefined}
      >
        <ChipGroup
          legend="Kind"
          options={PAYOUT_KINDS}
          selected={listOf(filters.kind, PAYOUT_KINDS)}
          labels={payoutKindLabels}
          onToggle={(kind) => setFilters({ kind: toggled(filters.kind, kind, PAYOUT_KINDS) })}
        />
      </FilterBar>

      {list.isPending ? (
        <LoadingRows label="Loading payouts…" rows={4} />
      ) : list.isError ? (
        <ErrorState title="We couldn't load your payouts" error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <>
          <TotalsPanel
            title={filtered ? "Paid in this selection" : "Paid, all time"}
            empty="No payouts match."
            rows={totals.map((t) => ({
              key: t.currency,
              heading: t.currency,
              items: [
                { label: "Payouts", value: formatCount(t.count) },
                { label: "Amount paid", value: formatMoney(t.amount_cents, t.currency), testId: `total-paid-${t.currency}` },
              ],
            }))}
          />
          {rows.length === 0 ? (
            <EmptyState
              title={filtered ? "No payouts match these filters" : "No payouts yet"}
              description="Hosted-checkout commission is paid after the month in which the domain transfer completed is settled."
            />
          ) : (
            <>
              <TableCard>
                <Table>
                  <caption className="sr-only">Payouts, newest first</caption>
                  <THead>
                    <tr>
                      <TH>Paid</TH>
                      <TH>Kind</TH>
                      <TH className="max-sm:hidden">For</TH>
                      <TH className="text-right">Amount</TH>
                      <TH className="max-lg:hidden">Payout</TH>
                    </tr>
                  </THead>
                  <TBody>
                    {rows.map((row) => (
                      <TR key={row.id} data-testid="payout-row" data-payout-id={row.id}>
                        <TD className="whitespace-nowrap text-muted">{formatDayYear(row.paid_at ?? row.created_at)}</TD>
                        <TD className="whitespace-nowrap">
                          {payoutKindLabels[row.kind] ?? row.kind} {row.status !== "paid" ? <Badge tone="warning">{row.status}</Badge> : null}
                        </TD>
                        <TD className="whitespace-nowrap text-muted max-sm:hidden">{row.period_start ? formatMonth(row.period_start) : "—"}</TD>
                        <TD className="text-right font-medium whitespace-nowrap tabular-nums">{formatMoney(row.amount_cents, row.currency)}</TD>
                        <TD className="font-mono text-xs text-muted max-lg:hidden">{row.id}</TD>
                      </TR>
                    ))}
                  </TBody>
                </Table>
              </TableCard>
              <PhoneCards label="Payouts, newest first">
                {rows.map((row) => (
                  <PhoneCard key={row.id} testId="payout-card" data-payout-id={row.id}>
                    <div className="flex items-start justify-between gap-3">
                      <div className="min-w-0">
                        <p className="text-sm font-medium text-ink">
                          {payoutKindLabels[row.kind] ?? row.kind} {row.status !== "paid" ? <Badge tone="warning">{row.status}</Badge> : null}
                        </p>
                        <p className="mt-0.5 text-xs text-muted">
                          Paid {formatDayYear(row.paid_at ?? row.created_at)}
                          {row.period_start ? ` · for ${formatMonth(row.period_start)}` : ""}
                        </p>
                      </div>
                      <p className="shrink-0 text-sm font-semibold text-ink tabular-nums">{formatMoney(row.amount_cents, row.currency)}</p>
                    </div>
                    <p className="mt-1 truncate font-mono text-xs text-faint">{row.id}</p>
                  </PhoneCard>
                ))}
              </PhoneCards>
              <LoadMore count={rows.length} noun={["payout", "payouts"]} hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => list.fetchNextPage()} />
            </>
          )}
        </>
      )}
    </div>
  );
}
