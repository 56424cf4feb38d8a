"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import { formatCount, formatDayYear, formatMoney, formatMonth } from "@/components/dashboard/finance-format";
import {
  Alert,
  Badge,
  Button,
  Dialog,
  DialogContent,
  EmptyState,
  ErrorState,
  Input,
  Label,
  LoadingRows,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "@/components/ui";
import { CsvLink, FilterBar, LoadMore, PhoneCard, PhoneCards, StatusBadge, TabToolbar, TableCard, TotalsPanel } from "./finance-parts";
import { exportHref, settlementsQuery, type FinanceFilters, type FinanceSetter } from "./finance-query";

// GET /settlements in the dashboard: merchant-of-record statements per month
// and currency, with totals, and each statement's orders (?statement=stl_...).
// A hosted-checkout partner has no statements (403 on REST): its commission
// arrives as payouts, which the tab says.

const PAGE_SIZE = 25;

export function SettlementsTab({
  filters,
  setFilters,
  paymentModel,
}: {
  filters: FinanceFilters;
  setFilters: FinanceSetter;
  paymentModel: "mor" | "non_mor";
}) {
  if (paymentModel !== "mor") {
    return (
      <div className="space-y-4">
        <TabToolbar title="Settlements" description="Monthly statements of merchant-of-record sales." />
        <Alert tone="info" title="Statements are for merchant-of-record partners" data-testid="settlements-not-mor">
          <p>
            Your buyers pay on our hosted checkout, so there is nothing for you to settle with us. At each monthly settlement we pay your
            commission out instead: see Payouts.
          </p>
          <Button variant="secondary" size="sm" className="mt-3" onClick={() => setFilters({ tab: "payouts" })}>
            Go to Payouts
          </Button>
        </Alert>
      </div>
    );
  }
  return <Statements filters={filters} setFilters={setFilters} />;
}

function Statements({ filters, setFilters }: { filters: FinanceFilters; setFilters: FinanceSetter }) {
  const trpc = useTRPC();
  const query = settlementsQuery(filters);
  const list = useInfiniteQuery(
    trpc.finance.settlements.infiniteQueryOptions({ ...query, limit: PAGE_SIZE }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  const totals = list.data?.pages[0]?.totals ?? [];
  const filtered = Object.keys(query).length > 0;
  const selected = /^stl_[A-Za-z0-9]+$/.test(filters.statement) ? filters.statement : null;

  return (
    <div className="space-y-4">
      <TabToolbar
        title="Settlements"
        description="One statement per month and currency: the gross you sold, the commission you kept, and what you owe us."
        actions={<CsvLink href={exportHref("settlements", filters)} label="settlement statements" />}
      />
      <FilterBar
        label="Filter statements"
        filters={filters}
        setFilters={setFilters}
        dateHint="the month a statement covers (its first day)"
        onClear={filtered ? () => setFilters({ from: null, to: null, currency: null }) : undefined}
      >
        <CurrencyFilter value={filters.currency} onChange={(currency) => setFilters({ currency })} />
      </FilterBar>

      {list.isPending ? (
        <LoadingRows label="Loading statements…" rows={4} />
      ) : list.isError ? (
        <ErrorState title="We couldn't load your statements" error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <>
          <TotalsPanel
            title={filtered ? "Totals of these statements" : "Totals, all statements"}
            empty="No statements match."
            rows={totals.map((t) => ({
              key: t.currency,
              heading: t.currency,
              items: [
                { label: "Statements", value: formatCount(t.statements) },
                { label: "Orders", value: formatCount(t.order_count) },
                { label: "Gross sold", value: formatMoney(t.gross_sold_cents, t.currency), testId: `total-gross-${t.currency}` },
                { label: "Commission kept", value: formatMoney(t.commission_retained_cents, t.currency) },
                { label: "Owed to us", value: formatMoney(t.amount_owed_cents, t.currency), testId: `total-owed-${t.currency}` },
              ],
            }))}
          />
          {rows.length === 0 ? (
            <EmptyState
              title={filtered ? "No statements match these filters" : "No statements yet"}
              description="A statement is closed after each calendar month (UTC) for the orders whose transfer completed in it."
            />
          ) : (
            <>
              <TableCard>
                <Table>
                  <caption className="sr-only">Settlement statements, newest period first; open a period for its orders</caption>
                  <THead>
                    <tr>
                      <TH>Period</TH>
                      <TH className="text-right">Orders</TH>
                      <TH className="text-right">Gross sold</TH>
                      <TH className="text-right">Commission kept</TH>
                      <TH className="text-right">Owed to us</TH>
                      <TH className="max-md:hidden">Closed</TH>
                    </tr>
                  </THead>
                  <TBody>
                    {rows.map((row) => (
                      <TR key={row.id} data-testid="statement-row" data-statement-id={row.id}>
                        <TD className="whitespace-nowrap">
                          <StatementButton row={row} onOpen={() => setFilters({ statement: row.id })} />
                        </TD>
                        <TD className="text-right tabular-nums">{formatCount(row.order_count)}</TD>
                        <TD className="text-right whitespace-nowrap tabular-nums">{formatMoney(row.gross_sold_cents, row.currency)}</TD>
                        <TD className="text-right whitespace-nowrap tabular-nums">{formatMoney(row.commission_retained_cents, row.currency)}</TD>
                        <TD className="text-right font-medium whitespace-nowrap tabular-nums">{formatMoney(row.amount_owed_cents, row.currency)}</TD>
                        <TD className="whitespace-nowrap text-muted max-md:hidden">{formatDayYear(row.created_at)}</TD>
                      </TR>
                    ))}
                  </TBody>
                </Table>
              </TableCard>
              <PhoneCards label="Settlement statements, newest period first">
                {rows.map((row) => (
                  <PhoneCard key={row.id} testId="statement-card" data-statement-id={row.id}>
                    <div className="flex items-start justify-between gap-3">
                      <StatementButton row={row} onOpen={() => setFilters({ statement: row.id })} />
                      <div className="shrink-0 text-right">
                        <p className="text-sm font-semibold text-ink tabular-nums">{formatMoney(row.amount_owed_cents, row.currency)}</p>
                        <p className="text-xs text-muted">owed to us</p>
                      </div>
                    </div>
                    <p className="mt-2 text-xs text-muted tabular-nums">
                      {formatCount(row.order_count)} {row.order_count === 1 ? "order" : "orders"} · gross {formatMoney(row.gross_sold_cents, row.currency)} · commission{" "}
                      {formatMoney(row.commission_retained_cents, row.currency)}
                    </p>
                  </PhoneCard>
                ))}
              </PhoneCards>
              <LoadMore count={rows.length} noun={["statement", "statements"]} hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => list.fetchNextPage()} />
            </>
          )}
        </>
      )}
      <StatementDialog id={selected} onClose={() => setFilters({ statement: null })} />
    </div>
  );
}

/** The statement's period, which opens its detail (?statement=...). */
function StatementButton({ row, onOpen }: { row: { period_start: string; currency: string; sequence: number }; onOpen: () => void }) {
  return (
    <span className="inline-flex flex-col items-start">
      <button type="button" onClick={onOpen} className="rounded-sm text-left text-sm font-medium text-brand-ink hover:underline">
        {formatMonth(row.period_start)}
        <span className="sr-only"> {row.currency} statement{row.sequence > 1 ? `, supplement ${row.sequence}` : ""}</span>
      </button>
      <span className="mt-0.5 flex items-center gap-1.5 text-xs text-faint">
        <Badge>{row.currency}</Badge>
        {row.sequence > 1 ? `Supplement ${row.sequence} (late orders)` : null}
      </span>
    </span>
  );
}

/** A three-letter code, applied on Enter or when the field loses focus. */
function CurrencyFilter({ value, onChange }: { value: string; onChange: (currency: string | null) => void }) {
  const [text, setText] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setText(value);
  }
  const apply = () => {
    const next = text.trim().toUpperCase();
    if (next !== value) onChange(next || null);
  };
  return (
    <div className="w-28 space-y-1.5">
      <Label htmlFor="finance-currency">Currency</Label>
      <Input
        id="finance-currency"
        value={text}
        maxLength={3}
        placeholder="USD"
        autoComplete="off"
        className="uppercase"
        onChange={(e) => setText(e.target.value)}
        onBlur={apply}
        onKeyDown={(e) => {
          if (e.key === "Enter") apply();
        }}
      />
    </div>
  );
}

function StatementDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  return (
    <Dialog open={id !== null} onOpenChange={(open) => (open ? null : onClose())}>
      {id ? <StatementDetail id={id} /> : null}
    </Dialog>
  );
}

function StatementDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const statement = useQuery(trpc.finance.statement.queryOptions({ id }));
  const lines = useInfiniteQuery(
    trpc.finance.statementOrders.infiniteQueryOptions({ id, limit: 25 }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const orders = lines.data?.pages.flatMap((page) => page.data) ?? [];
  const s = statement.data;
  return (
    <DialogContent
      title={s ? `${formatMonth(s.period_start)} statement, ${s.currency}${s.sequence > 1 ? ` (supplement ${s.sequence})` : ""}` : "Statement"}
      description={s ? `Period ${formatDayYear(s.period_start)} to ${formatDayYear(s.period_end)} (exclusive), closed ${formatDayYear(s.created_at)}. Statement ${s.id}.` : undefined}
      className="sm:max-w-3xl"
    >
      <div data-testid="statement-detail">
        {statement.isPending ? (
          <LoadingRows label="Loading the statement…" rows={3} />
        ) : statement.isError ? (
          <ErrorState title="We couldn't load this statement" error={statement.error} onRetry={statement.refetch} />
        ) : (
          <div className="space-y-4">
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
              {[
                ["Orders", formatCount(statement.data.order_count)],
                ["Gross sold", formatMoney(statement.data.gross_sold_cents, statement.data.currency)],
                ["Commission kept", formatMoney(statement.data.commission_retained_cents, statement.data.currency)],
                ["Owed to us", formatMoney(statement.data.amount_owed_cents, statement.data.currency)],
              ].map(([label, value]) => (
                <div key={label} className="rounded-lg bg-subtle px-3 py-2">
                  <dt className="text-xs text-muted">{label}</dt>
                  <dd className="font-semibold text-ink tabular-nums">{value}</dd>
                </div>
              ))}
            </dl>
            <h3 className="text-sm font-semibold text-ink">Orders in this statement</h3>
            {lines.isPending ? (
              <LoadingRows label="Loading the statement's orders…" rows={3} />
            ) : lines.isError ? (
              <ErrorState title="We couldn't load the orders" error={lines.error} onRetry={() => lines.refetch()} />
            ) : (
              <div role="region" aria-label="Orders in this statement" tabIndex={0} className="relative max-h-80 overflow-y-auto rounded-lg border border-line">
                <Table>
                  <THead>
                    <tr>
                      <TH>Domain</TH>
                      <TH className="max-sm:hidden">Status</TH>
                      <TH className="text-right">Sale</TH>
                      <TH className="text-right max-sm:hidden">Commission</TH>
                    </tr>
                  </THead>
                  <TBody>
                    {orders.map((order) => (
                      <TR key={order.id} data-testid="statement-order" data-order-id={order.id}>
                        <TD className="max-w-40 sm:max-w-52">
                          <span className="block truncate font-medium" title={order.domain}>
                            {order.domain}
                          </span>
                          <span className="block truncate font-mono text-xs text-faint">{order.id}</span>
                        </TD>
                        <TD className="max-sm:hidden">
                          <StatusBadge status={order.status} />
                        </TD>
                        <TD className="text-right whitespace-nowrap tabular-nums">
                          {formatMoney(order.sale_price_cents, order.currency)}
                          <span className="block text-xs text-faint sm:hidden">commission {formatMoney(order.commission_cents, order.currency)}</span>
                        </TD>
                        <TD className="text-right whitespace-nowrap tabular-nums max-sm:hidden">{formatMoney(order.commission_cents, order.currency)}</TD>
                      </TR>
                    ))}
                  </TBody>
                </Table>
              </div>
            )}
            {lines.hasNextPage ? (
              <Button variant="secondary" size="sm" onClick={() => lines.fetchNextPage()} disabled={lines.isFetchingNextPage}>
                {lines.isFetchingNextPage ? "Loading…" : "More orders"}
              </Button>
            ) : null}
          </div>
        )}
      </div>
    </DialogContent>
  );
}
