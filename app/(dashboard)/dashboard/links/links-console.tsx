"use client";

import { useMemo, useState } from "react";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Button, Label, PageHeader, Select, Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui";
import type { Environment } from "@/db/schema";
import { CommissionLedger } from "./commission-ledger";
import { CreateLinkDialog } from "./create-link-dialog";
import { Funnel } from "./funnel";
import { LinkDetail } from "./link-detail";
import { PERIODS, periodOf, periodStart } from "./link-format";
import { LinkList } from "./link-list";
import { ReferralPayouts } from "./referral-payouts";

// The referral program of the selected environment: the period's funnel, the
// links with their figures, the commission ledger and the referral payouts.
// The period, the tab, the ledger's state filter and the open link live in the
// URL (?period=, ?tab=, ?state=, ?link=), so any view can be shared.

const URL_KEYS = ["period", "tab", "state", "link"] as const;
const TABS = ["links", "commissions", "payouts"] as const;
type Tab = (typeof TABS)[number];

export function LinksConsole({
  environment,
  canCreate,
  referralCommissionBps,
}: {
  environment: Environment;
  canCreate: boolean;
  referralCommissionBps: number;
}) {
  const [params, setParams] = useUrlState(URL_KEYS);
  const [creating, setCreating] = useState(false);
  const period = periodOf(params.period);
  const from = useMemo(() => periodStart(period), [period]);
  const tab: Tab = (TABS as readonly string[]).includes(params.tab) ? (params.tab as Tab) : "links";
  const openCreate = canCreate ? () => setCreating(true) : undefined;

  return (
    <div className="space-y-8">
      <PageHeader
        title="Referral links"
        description={
          <>
            Share a link; a buyer who follows it and buys within 30 days earns you {referralCommissionBps / 100}% of the
            sale. Showing <strong className="font-medium text-ink">{environment}</strong>.
          </>
        }
        actions={openCreate ? <Button onClick={openCreate}>Create link</Button> : null}
      />

      <section aria-labelledby="funnel-title" className="space-y-3">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <h2 id="funnel-title" className="text-base font-semibold tracking-tight text-ink">
              Funnel
            </h2>
            <p className="text-sm text-muted">Clicks, checkouts and sales from all your links.</p>
          </div>
          <div className="flex items-center gap-2">
            <Label htmlFor="links-period" className="sr-only">
              Period
            </Label>
            <Select id="links-period" value={period.value} onChange={(e) => setParams({ period: e.target.value === "30d" ? null : e.target.value })}>
              {PERIODS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </Select>
          </div>
        </div>
        <Funnel from={from} period={period} />
      </section>

      <Tabs value={tab} onValueChange={(value) => setParams({ tab: value === "links" ? null : value, state: null })}>
        <TabsList aria-label="Referral reports">
          <TabsTrigger value="links">Links</TabsTrigger>
          <TabsTrigger value="commissions">Commission ledger</TabsTrigger>
          <TabsTrigger value="payouts">Payouts</TabsTrigger>
        </TabsList>
        <TabsContent value="links">
          <LinkList environment={environment} selectedId={params.link || null} onSelect={(id) => setParams({ link: id })} onCreate={openCreate} />
        </TabsContent>
        <TabsContent value="commissions">
          <CommissionLedger state={params.state} onStateChange={(state) => setParams({ state })} />
        </TabsContent>
        <TabsContent value="payouts">
          <ReferralPayouts />
        </TabsContent>
      </Tabs>

      {canCreate ? (
        <CreateLinkDialog open={creating} onOpenChange={setCreating} environment={environment} onCreated={(id) => setParams({ link: id, tab: null })} />
      ) : null}
      <LinkDetail id={params.link || null} environment={environment} period={period} from={from} onClose={() => setParams({ link: null })} />
    </div>
  );
}
