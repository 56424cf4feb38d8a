"use client";

import { useState } from "react";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Button, Label, PageHeader, Select } from "@/components/ui";
import type { Environment } from "@/db/schema";
import { formatBps, parseStatusFilter, STATUS_FILTERS, type FeeBps } from "./brokerage-format";
import { CaseDetail } from "./case-detail";
import { CaseList } from "./case-list";
import { NewCaseDialog } from "./new-case-dialog";

// Brokerage cases of the selected environment: the list filtered by status
// (?status=, comma-separated), one case with its timeline and the buyer's
// progress link (?case=), and opening a case after an eligibility check.

const URL_KEYS = ["status", "case"] as const;

export function BrokerageConsole({
  environment,
  canCreate,
  feeBps,
  shareBps,
}: {
  environment: Environment;
  canCreate: boolean;
  feeBps: FeeBps;
  shareBps: number;
}) {
  const [params, setParams] = useUrlState(URL_KEYS);
  const [creating, setCreating] = useState(false);
  const statuses = parseStatusFilter(params.status);
  const filterValue = statuses?.join(",") ?? "";
  const options = STATUS_FILTERS.some((f) => f.value === filterValue) ? STATUS_FILTERS : [...STATUS_FILTERS, { value: filterValue, label: filterValue }];
  const openCreate = canCreate ? () => setCreating(true) : undefined;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Brokerage"
        description={
          <>
            We acquire domains that are not for sale here for your buyers. Our fee is {formatBps(feeBps.managed)} (managed) or{" "}
            {formatBps(feeBps.self_serve)} (self-serve) of the final price; your share of it is {formatBps(shareBps)}. Showing{" "}
            <strong className="font-medium text-ink">{environment}</strong>.
          </>
        }
        actions={openCreate ? <Button onClick={openCreate}>New case</Button> : null}
      />

      <div className="flex items-end gap-3" role="search" aria-label="Filter cases">
        <div className="min-w-0 flex-1 space-y-1.5 sm:w-60 sm:flex-none">
          <Label htmlFor="case-status">Status</Label>
          <Select id="case-status" value={filterValue} onChange={(e) => setParams({ status: e.target.value })}>
            {options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
        {statuses ? (
          <Button variant="ghost" size="sm" className="mb-1 shrink-0" onClick={() => setParams({ status: null })}>
            Clear<span className="max-sm:sr-only"> filter</span>
          </Button>
        ) : null}
      </div>

      <CaseList
        environment={environment}
        statuses={statuses}
        selectedId={params.case || null}
        onSelect={(id) => setParams({ case: id })}
        onClearFilter={() => setParams({ status: null })}
        onCreate={openCreate}
      />

      {canCreate ? (
        <NewCaseDialog open={creating} onOpenChange={setCreating} environment={environment} feeBps={feeBps} onCreated={(id) => setParams({ case: id })} />
      ) : null}
      <CaseDetail id={params.case || null} environment={environment} onClose={() => setParams({ case: null })} />
    </div>
  );
}
