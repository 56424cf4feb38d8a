"use client";

import { skipToken, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { Alert, Button, Dialog, DialogClose, DialogContent, DialogFooter, Field, Label, Select, useToast } from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Environment } from "@/db/schema";
import { CURRENCIES, formatBps, parseBudget, tierLabels, type FeeBps, type Tier } from "./brokerage-format";

// Opening a case takes two steps, as with the API: the eligibility check of the
// domain (GET /brokerage/eligibility: listed in the inventory, already in an
// open case, or running an active site), then the case itself (POST /brokerage:
// tier, buyer, budget), which the server checks again before it opens it.

// "listed" needs no advice: the service's message already says to buy it, and a link to the listing follows.
const reasonAdvice: Record<string, string> = {
  open_case: "Someone is already acquiring it for a buyer; a second case would compete with the first.",
  active_site: "Its owner runs a website on it, so it is very unlikely to be for sale.",
};

export function NewCaseDialog({
  open,
  onOpenChange,
  environment,
  feeBps,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  environment: Environment;
  feeBps: FeeBps;
  onCreated: (caseId: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [domain, setDomain] = useState("");
  const [checked, setChecked] = useState<string | null>(null);
  const [tier, setTier] = useState<Tier>("managed");
  const [buyerEmail, setBuyerEmail] = useState("");
  const [budget, setBudget] = useState("");
  const [currency, setCurrency] = useState<(typeof CURRENCIES)[number]>("USD");
  const [budgetError, setBudgetError] = useState<string>();

  // Eligibility can change at any moment (someone opens a case): never served from cache.
  const eligibility = useQuery(trpc.brokerage.eligibility.queryOptions(checked ? { domain: checked } : skipToken, { staleTime: 0, gcTime: 0 }));
  const create = useMutation(
    trpc.brokerage.create.mutationOptions({
      onSuccess: (created) => {
        void queryClient.invalidateQueries({ queryKey: trpc.brokerage.list.pathKey() });
        toast({ title: "Case opened", description: `${created.domain} is with our brokers; send the buyer the progress link.`, tone: "success" });
        reset();
        onOpenChange(false);
        onCreated(created.case_id);
      },
    }),
  );

  function reset() {
    setDomain("");
    setChecked(null);
    setTier("managed");
    setBuyerEmail("");
    setBudget("");
    setCurrency("USD");
    setBudgetError(undefined);
    create.reset();
  }

  function changeOpen(next: boolean) {
    if (create.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  }

  function check(event: FormEvent) {
    event.preventDefault();
    const value = domain.trim();
    if (!value) return;
    create.reset();
    if (value === checked) void eligibility.refetch();
    else setChecked(value);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending || !eligibility.data?.eligible) return;
    const cents = parseBudget(budget);
    setBudgetError(cents === null ? "Enter the buyer's budget, e.g. 15000 or 15000.50" : undefined);
    if (cents === null) return;
    create.mutate({ domain: eligibility.data.domain, tier, buyer_email: buyerEmail.trim(), budget: cents, currency });
  }

  const result = checked ? eligibility : null;
  const domainError = result?.error?.data?.code === "validation_error" ? (result.error.data.details?.[0]?.message ?? result.error.message) : undefined;
  const details = create.error?.data?.details ?? [];
  const fieldError = (path: string) => details.find((d) => d.path === path)?.message;

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent
        title="Open a brokerage case"
        description={`First check that the domain can be brokered in ${environment}; then tell us about the buyer.`}
        className="sm:max-w-xl"
      >
        <form onSubmit={check} className="space-y-3" noValidate aria-label="Eligibility check">
          <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
            <Field
              id="case-domain"
              label="Domain"
              value={domain}
              onChange={(e) => {
                setDomain(e.target.value);
                if (checked) setChecked(null);
              }}
              placeholder="wanted-name.com"
              autoComplete="off"
              spellCheck={false}
              className="flex-1"
              error={domainError}
            />
            <Button type="submit" variant={eligibility.data?.eligible ? "secondary" : "primary"} className="sm:mt-7" aria-disabled={!domain.trim() || undefined}>
              Check eligibility
            </Button>
          </div>
        </form>

        <div aria-live="polite" className="mt-4 empty:hidden" data-testid="eligibility-result">
          {result?.isFetching ? (
            <p className="text-sm text-muted">Checking {checked}: inventory, open cases and whether a site answers (up to a few seconds)…</p>
          ) : result?.data ? (
            result.data.eligible ? (
              <Alert tone="success" title={`${result.data.domain} can be brokered`} data-eligible="true">
                It is not listed, not in an open case and runs no active site.
              </Alert>
            ) : (
              <Alert tone="warning" title={`${result.data.domain} cannot be brokered now`} data-eligible="false">
                <ul className="list-disc space-y-1 pl-5">
                  {result.data.reasons.map((reason) => (
                    <li key={reason.code} data-reason={reason.code}>
                      {reason.message}.{reasonAdvice[reason.code] ? ` ${reasonAdvice[reason.code]}` : ""}
                      {reason.code === "listed" ? (
                        <>
                          {" "}
                          <Link href={`/domains/${encodeURIComponent(result.data.domain)}`} className="font-medium underline underline-offset-2">
                            See the listing
                          </Link>
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </Alert>
            )
          ) : result?.isError && !domainError ? (
            <Alert tone="danger" title="We couldn't check this domain">
              {result.error.message}
            </Alert>
          ) : null}
        </div>

        {result?.data?.eligible && !result.isFetching ? (
          <form onSubmit={submit} className="mt-5 space-y-4 border-t border-line pt-5" noValidate aria-label="Case details" data-testid="case-form">
            <fieldset className="space-y-2">
              <legend className="text-sm font-medium text-ink">Service</legend>
              <div className="grid gap-2 sm:grid-cols-2">
                {(Object.keys(tierLabels) as Tier[]).map((value) => (
                  <label
                    key={value}
                    className={cn(
                      "flex cursor-pointer gap-2 rounded-lg border p-3 text-sm transition-colors",
                      tier === value ? "border-brand bg-brand-soft/50" : "border-line-strong hover:bg-subtle",
                    )}
                  >
                    <input type="radio" name="case-tier" value={value} checked={tier === value} onChange={() => setTier(value)} className="mt-0.5 accent-brand" />
                    <span>
                      <span className="block font-medium text-ink">
                        {tierLabels[value].label} <span className="font-normal text-muted">· fee {formatBps(feeBps[value])}</span>
                      </span>
                      <span className="block text-xs text-muted">{tierLabels[value].hint}</span>
                    </span>
                  </label>
                ))}
              </div>
            </fieldset>
            <Field
              id="case-buyer-email"
              label="Buyer's email"
              type="email"
              value={buyerEmail}
              onChange={(e) => setBuyerEmail(e.target.value)}
              autoComplete="off"
              required
              error={fieldError("buyer_email")}
            />
            <div className="grid grid-cols-[1fr_auto] gap-3">
              <Field
                id="case-budget"
                label="Buyer's budget"
                inputMode="decimal"
                value={budget}
                onChange={(e) => setBudget(e.target.value)}
                placeholder="15000"
                required
                hint="The most the buyer will pay for the domain."
                error={budgetError ?? fieldError("budget")}
              />
              <div className="space-y-1.5">
                <Label htmlFor="case-currency">Currency</Label>
                <Select id="case-currency" value={currency} onChange={(e) => setCurrency(e.target.value as (typeof CURRENCIES)[number])}>
                  {CURRENCIES.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </Select>
              </div>
            </div>
            {create.error && !fieldError("buyer_email") && !fieldError("budget") ? (
              <p role="alert" className="text-sm font-medium text-danger-ink">
                {create.error.message}
              </p>
            ) : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button type="submit" aria-disabled={create.isPending || undefined}>
                {create.isPending ? "Opening…" : "Open case"}
              </Button>
            </DialogFooter>
          </form>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}
