"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import { formatCount, formatDayYear, formatMoney } from "@/components/dashboard/finance-format";
import { EmptyState, ErrorState, LoadingRows, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import {
  ChipGroup,
  CsvLink,
  FilterBar,
  LoadMore,
  paymentModelLabels,
  PhoneCard,
  PhoneCards,
  StatusBadge,
  statusLabels,
  TabToolbar,
  TableCard,
  TotalsPanel,
} from "./finance-parts";
import { exportHref, listOf, ORDER_STATUSES, PAYMENT_MODELS, toggled, transactionsQuery, type FinanceFilters, type FinanceSetter } from "./finance-query";

// GET /transactions in the dashboard: every order of the environment, newest
// first, with the REST filters and the totals of the whole filtered set.

const PAGE_SIZE = 25;

export function TransactionsTab({ filters, setFilters }: { filters: FinanceFilters; setFilters: FinanceSetter }) {
  const trpc = useTRPC();
  const query = transactionsQuery(filters);
  const list = useInfiniteQuery(
    trpc.finance.transactions.infiniteQueryOptions({ ...query, limit: PAGE_SIZE }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  const totals = list.data?.pages[0]?.totals ?? [];
  const filtered = Object.keys(query).length > 0;
  const clear = () => setFilters({ from: null, to: null, status: null, payment_model: null });

  return (
    <div className="space-y-4">
      <TabToolbar
        title="Transactions"
        description="Every sale in this environment, in every status: what GET /transactions returns."
        actions={<CsvLink href={exportHref("transactions", filters)} label="transactions" />}
      />
      <FilterBar label="Filter transactions" filters={filters} setFilters={setFilters} dateHint="when the order was recorded" onClear={filtered ? clear : undefined}>
        <ChipGroup
          legend="Status"
          options={ORDER_STATUSES}
          selected={listOf(filters.status, ORDER_STATUSES)}
          labels={statusLabels}
          onToggle={(status) => setFilters({ status: toggled(filters.status, status, ORDER_STATUSES) })}
        />
        <ChipGroup
          legend="Payment model"
          options={PAYMENT_MODELS}
          selected={listOf(filters.payment_model, PAYMENT_MODELS)}
          labels={paymentModelLabels}
          onToggle={(model) => setFilters({ payment_model: toggled(filters.payment_model, model, PAYMENT_MODELS) })}
        />
      </FilterBar>

      {list.isPending ? (
        <LoadingRows label="Loading transactions…" rows={6} />
      ) : list.isError ? (
        <ErrorState title="We couldn't load your transactions" error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <>
          <TotalsPanel
            title={filtered ? "Totals of this selection" : "Totals, all time"}
            empty="No sales match."
            rows={totals.map((t) => ({
              key: t.currency,
              heading: t.currency,
              items: [
                { label: "Orders", value: formatCount(t.count), testId: `total-count-${t.currency}` },
                { label: "GMV", value: formatMoney(t.gmv_cents, t.currency), testId: `total-gmv-${t.currency}` },
                { label: "Commission", value: formatMoney(t.commission_cents, t.currency), testId: `total-commission-${t.currency}` },
              ],
            }))}
          />
          {rows.length === 0 ? (
            <EmptyState
              title={filtered ? "No transactions match these filters" : "No sales yet"}
              description={filtered ? "Widen the dates or clear the filters." : "Record a sale with POST /orders or complete a hosted checkout and it appears here."}
            />
          ) : (
            <>
              <TableCard>
                <Table>
                  <caption className="sr-only">Transactions, newest first</caption>
                  <THead>
                    <tr>
                      <TH>Recorded</TH>
                      <TH>Domain</TH>
                      <TH>Status</TH>
                      <TH className="max-md:hidden">Payment model</TH>
                      <TH className="text-right">Sale</TH>
                      <TH className="text-right">Commission</TH>
                      <TH className="max-lg:hidden">Order</TH>
                    </tr>
                  </THead>
                  <TBody>
                    {rows.map((row) => (
                      <TR key={row.id} data-testid="transaction-row" data-order-id={row.id}>
                        <TD className="whitespace-nowrap text-muted">{formatDayYear(row.created_at)}</TD>
                        <TD className="max-w-56 truncate font-medium" title={row.domain}>
                          {row.domain}
                        </TD>
                        <TD>
                          <StatusBadge status={row.status} />
                        </TD>
                        <TD className="whitespace-nowrap text-muted max-md:hidden">{paymentModelLabels[row.payment_model] ?? row.payment_model}</TD>
                        <TD className="text-right whitespace-nowrap tabular-nums">{formatMoney(row.sale_price_cents, row.currency)}</TD>
                        <TD className="text-right whitespace-nowrap tabular-nums">
                          {formatMoney(row.commission_cents, row.currency)}
                          <span className="block text-xs text-faint">{(row.commission_bps / 100).toFixed(2)}%</span>
                        </TD>
                        <TD className="font-mono text-xs text-muted max-lg:hidden">{row.id}</TD>
                      </TR>
                    ))}
                  </TBody>
                </Table>
              </TableCard>
              <PhoneCards label="Transactions, newest first">
                {rows.map((row) => (
                  <PhoneCard key={row.id} testId="transaction-card" data-order-id={row.id}>
                    <div className="flex items-start justify-between gap-3">
                      <div className="min-w-0">
                        <p className="truncate text-sm font-medium text-ink" title={row.domain}>
                          {row.domain}
                        </p>
                        <p className="mt-0.5 text-xs text-muted">
                          {formatDayYear(row.created_at)} · {paymentModelLabels[row.payment_model] ?? row.payment_model}
                        </p>
                      </div>
                      <div className="shrink-0 text-right">
                        <p className="text-sm font-semibold text-ink tabular-nums">{formatMoney(row.sale_price_cents, row.currency)}</p>
                        <p className="text-xs text-muted tabular-nums">commission {formatMoney(row.commission_cents, row.currency)}</p>
                      </div>
                    </div>
                    <div className="mt-2 flex items-center justify-between gap-2">
                      <StatusBadge status={row.status} />
                      <span className="truncate font-mono text-xs text-faint">{row.id}</span>
                    </div>
                  </PhoneCard>
                ))}
              </PhoneCards>
              <LoadMore count={rows.length} noun={["transaction", "transactions"]} hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => list.fetchNextPage()} />
            </>
          )}
        </>
      )}
    </div>
  );
}
