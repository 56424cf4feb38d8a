"use client";

import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { ErrorState, LoadingRows, PageHeader, Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui";
import type { Environment } from "@/db/schema";
import { CommissionsTab } from "./commissions-tab";
import { FINANCE_KEYS, TABS, tabOf } from "./finance-query";
import { OverviewTab } from "./overview-tab";
import { PayoutsTab } from "./payouts-tab";
import { SettlementsTab } from "./settlements-tab";
import { TransactionsTab } from "./transactions-tab";

// The Finance area: one tab per REST report, plus charts. The tab, the dates
// and each report's filters live in the URL (?tab=transactions&status=PAID...),
// so a view can be shared and its CSV link carries the same filters.

export function FinanceView({ environment }: { environment: Environment }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(FINANCE_KEYS);
  const tab = tabOf(filters);
  // The partner kind decides what Settlements and Commissions can show (as on REST).
  const overview = useQuery(trpc.account.overview.queryOptions());

  return (
    <div className="space-y-6">
      <PageHeader
        title="Finance"
        description={
          <>
            Sales, settlements, payouts and commission in <strong className="font-medium text-ink">{environment}</strong>, to the cent
            as the API&apos;s reports give them. Dates are UTC.
          </>
        }
      />
      {overview.isPending ? (
        <LoadingRows label="Loading finance…" rows={5} />
      ) : overview.isError ? (
        <ErrorState title="We couldn't load your organisation" error={overview.error} onRetry={overview.refetch} />
      ) : (
        <Tabs value={tab} onValueChange={(value) => setFilters({ tab: value === "overview" ? null : value, statement: null })}>
          <TabsList aria-label="Finance reports">
            {TABS.map((t) => (
              <TabsTrigger key={t.value} value={t.value}>
                {t.label}
              </TabsTrigger>
            ))}
          </TabsList>
          <TabsContent value="overview">
            <OverviewTab filters={filters} setFilters={setFilters} />
          </TabsContent>
          <TabsContent value="settlements">
            <SettlementsTab filters={filters} setFilters={setFilters} paymentModel={overview.data.partner.paymentModel} />
          </TabsContent>
          <TabsContent value="transactions">
            <TransactionsTab filters={filters} setFilters={setFilters} />
          </TabsContent>
          <TabsContent value="payouts">
            <PayoutsTab filters={filters} setFilters={setFilters} />
          </TabsContent>
          <TabsContent value="commissions">
            <CommissionsTab filters={filters} setFilters={setFilters} isAffiliate={overview.data.partner.isAffiliate} />
          </TabsContent>
        </Tabs>
      )}
    </div>
  );
}
