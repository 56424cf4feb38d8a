"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import { formatDayYear, formatMoney } from "@/components/dashboard/finance-format";
import { Alert, Badge, EmptyState, ErrorState, Label, LoadingRows, Select, Table, TBody, TD, TH, THead, TR } from "@/components/ui";
import { commissionStateLabels, CsvLink, FilterBar, LoadMore, PhoneCard, PhoneCards, TabToolbar, TableCard, TotalsPanel } from "./finance-parts";
import { COMMISSION_STATES, commissionsQuery, exportHref, type FinanceFilters, type FinanceSetter } from "./finance-query";

// GET /me/commissions in the dashboard: the commission ledger with its running
// balance and totals per state. Like the REST report it is part of the referral
// program, so a partner without an affiliate account is told so instead.

const PAGE_SIZE = 25;

const sourceLabels: Record<string, string> = { referral: "Referral sale", sale: "Hosted-checkout sale", brokerage: "Brokerage share" };

export function CommissionsTab({ filters, setFilters, isAffiliate }: { filters: FinanceFilters; setFilters: FinanceSetter; isAffiliate: boolean }) {
  if (!isAffiliate) {
    return (
      <div className="space-y-4">
        <TabToolbar title="Commissions" description="The commission ledger of the referral program." />
        <Alert tone="info" title="The commission ledger comes with an affiliate account" data-testid="commissions-not-affiliate">
          Referral links, their commission and this ledger need the affiliate program enabled for your organisation. Ask us to enable it; your sales
          commission is in Transactions in the meantime.
        </Alert>
      </div>
    );
  }
  return <Ledger filters={filters} setFilters={setFilters} />;
}

function Ledger({ filters, setFilters }: { filters: FinanceFilters; setFilters: FinanceSetter }) {
  const trpc = useTRPC();
  const query = commissionsQuery(filters);
  const list = useInfiniteQuery(
    trpc.finance.commissions.infiniteQueryOptions({ ...query, limit: PAGE_SIZE }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const rows = list.data?.pages.flatMap((page) => page.data) ?? [];
  const totals = list.data?.pages[0]?.totals ?? [];
  const filtered = Object.keys(query).length > 0;

  return (
    <div className="space-y-4">
      <TabToolbar
        title="Commissions"
        description="Every commission entry: accrued at the sale, pending once the transfer completes, paid out at settlement, reversed on a refund."
        actions={<CsvLink href={exportHref("commissions", filters)} label="commission ledger" />}
      />
      <FilterBar
        label="Filter commissions"
        filters={filters}
        setFilters={setFilters}
        dateHint="when the entry was made"
        onClear={filtered ? () => setFilters({ from: null, to: null, state: null }) : undefined}
      >
        <div className="w-40 space-y-1.5">
          <Label htmlFor="finance-state">State</Label>
          <Select id="finance-state" value={query.state ?? ""} onChange={(e) => setFilters({ state: e.target.value })}>
            <option value="">Any state</option>
            {COMMISSION_STATES.map((state) => (
              <option key={state} value={state}>
                {commissionStateLabels[state]?.label ?? state}
              </option>
            ))}
          </Select>
        </div>
      </FilterBar>

      {list.isPending ? (
        <LoadingRows label="Loading the commission ledger…" rows={5} />
      ) : list.isError ? (
        <ErrorState title="We couldn't load the commission ledger" error={list.error} onRetry={() => list.refetch()} />
      ) : (
        <>
          <TotalsPanel
            title={query.from || query.to ? "Totals of entries in these dates (every state)" : "Totals, all entries (every state)"}
            empty="No commission entries in these dates."
            rows={totals.map((t) => ({
              key: t.currency,
              heading: t.currency,
              items: [
                { label: "Accrued", value: formatMoney(t.accrued_cents, t.currency), testId: `total-accrued-${t.currency}` },
                { label: "Pending", value: formatMoney(t.pending_cents, t.currency) },
                { label: "Paid out", value: formatMoney(t.paid_out_cents, t.currency) },
                { label: "Reversed", value: formatMoney(t.reversed_cents, t.currency) },
              ],
            }))}
          />
          {rows.length === 0 ? (
            <EmptyState
              title={filtered ? "No entries match these filters" : "No commission yet"}
              description="A sale through one of your referral links adds an entry here."
            />
          ) : (
            <>
              <TableCard>
                <Table>
                  <caption className="sr-only">Commission ledger, newest first</caption>
                  <THead>
                    <tr>
                      <TH>Date</TH>
                      <TH>Source</TH>
                      <TH>State</TH>
                      <TH className="text-right">Amount</TH>
                      <TH className="text-right max-sm:hidden">Balance owed</TH>
                      <TH className="max-lg:hidden">Order</TH>
                    </tr>
                  </THead>
                  <TBody>
                    {rows.map((row) => {
                      const state = commissionStateLabels[row.state] ?? { label: row.state, tone: "neutral" as const };
                      return (
                        <TR key={row.id} data-testid="commission-row" data-entry-id={row.id}>
                          <TD className="whitespace-nowrap text-muted">{formatDayYear(row.created_at)}</TD>
                          <TD className="whitespace-nowrap">{sourceLabels[row.source] ?? row.source}</TD>
                          <TD>
                            <Badge tone={state.tone}>{state.label}</Badge>
                          </TD>
                          <TD className="text-right font-medium whitespace-nowrap tabular-nums">{formatMoney(row.amount_cents, row.currency)}</TD>
                          <TD className="text-right whitespace-nowrap text-muted tabular-nums max-sm:hidden">{formatMoney(row.balance_cents, row.currency)}</TD>
                          <TD className="font-mono text-xs text-muted max-lg:hidden">{row.order_id ?? "—"}</TD>
                        </TR>
                      );
                    })}
                  </TBody>
                </Table>
              </TableCard>
              <PhoneCards label="Commission ledger, newest first">
                {rows.map((row) => {
                  const state = commissionStateLabels[row.state] ?? { label: row.state, tone: "neutral" as const };
                  return (
                    <PhoneCard key={row.id} testId="commission-card" data-entry-id={row.id}>
                      <div className="flex items-start justify-between gap-3">
                        <div className="min-w-0">
                          <p className="text-sm font-medium text-ink">{sourceLabels[row.source] ?? row.source}</p>
                          <p className="mt-0.5 text-xs text-muted">{formatDayYear(row.created_at)}</p>
                        </div>
                        <div className="shrink-0 text-right">
                          <p className="text-sm font-semibold text-ink tabular-nums">{formatMoney(row.amount_cents, row.currency)}</p>
                          <p className="text-xs text-muted tabular-nums">balance {formatMoney(row.balance_cents, row.currency)}</p>
                        </div>
                      </div>
                      <div className="mt-2 flex items-center justify-between gap-2">
                        <Badge tone={state.tone}>{state.label}</Badge>
                        {row.order_id ? <span className="truncate font-mono text-xs text-faint">{row.order_id}</span> : null}
                      </div>
                    </PhoneCard>
                  );
                })}
              </PhoneCards>
              <LoadMore count={rows.length} noun={["entry", "entries"]} hasMore={list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => list.fetchNextPage()} />
            </>
          )}
        </>
      )}
    </div>
  );
}
