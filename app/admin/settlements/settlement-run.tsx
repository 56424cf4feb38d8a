"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import {
  Alert,
  Button,
  ConfirmDialog,
  EmptyState,
  Input,
  Label,
  PageHeader,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
  Textarea,
  useToast,
} from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";

// A settlement run from the console: preview first (the real run, rolled back:
// nothing is written), then run with a reason. Optionally one partner's
// environment only. The same service as `settlement:run`.

type Summary = inferRouterOutputs<AppRouter>["admin"]["settlements"]["preview"];

const today = () => new Date().toISOString().slice(0, 10);

export function SettlementRun() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [asOf, setAsOf] = useState(today);
  const [partnerId, setPartnerId] = useState("");
  const [environment, setEnvironment] = useState<"live" | "sandbox">("live");
  const [reason, setReason] = useState("");
  const preview = useMutation(trpc.admin.settlements.preview.mutationOptions());
  const run = useMutation(trpc.admin.settlements.run.mutationOptions());
  const args = () => ({ asOf: new Date(`${asOf}T00:00:00.000Z`).toISOString(), partnerId: partnerId.trim() || undefined, environment });
  const onPreview = (event: FormEvent) => {
    event.preventDefault();
    run.reset();
    preview.mutate(args());
  };
  const shown = run.data ?? preview.data;
  const scope = partnerId.trim() ? `partner ${partnerId.trim()} (${environment})` : "every partner and environment";

  return (
    <div className="space-y-6">
      <PageHeader
        title="Settlement run"
        description="Closes every period (calendar month, UTC) that ended before the date: statements per partner, referral and brokerage payouts. Preview first; it writes nothing."
      />
      <form onSubmit={onPreview} className="grid gap-3 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Settlement run">
        <div className="space-y-1.5">
          <Label htmlFor="as-of">Close periods ended before (UTC)</Label>
          <Input id="as-of" type="date" required value={asOf} onChange={(event) => setAsOf(event.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="run-partner">Partner id (optional)</Label>
          <Input id="run-partner" value={partnerId} placeholder="ptn_… (empty: everyone)" onChange={(event) => setPartnerId(event.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="run-environment">Environment of that partner</Label>
          <Select id="run-environment" value={environment} disabled={!partnerId.trim()} onChange={(event) => setEnvironment(event.target.value as "live" | "sandbox")}>
            <option value="live">Live</option>
            <option value="sandbox">Sandbox</option>
          </Select>
        </div>
        <div className="flex items-end">
          <Button type="submit" disabled={preview.isPending}>
            {preview.isPending ? "Previewing…" : "Preview"}
          </Button>
        </div>
      </form>
      {preview.error ? <Alert tone="danger">{preview.error.message}</Alert> : null}
      {shown ? (
        <section aria-labelledby="run-result" className="space-y-4">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 id="run-result" className="text-base font-semibold text-ink">
              {run.data ? "Closed" : "Preview: a run now would close"}
            </h2>
            {!run.data && shown.statements.length + shown.referralPayouts.length + shown.brokeragePayouts.length > 0 ? (
              <ConfirmDialog
                trigger={<Button variant="danger">Run settlement</Button>}
                title={`Close ${shown.statements.length} statement(s) for ${scope}?`}
                description={
                  <p>
                    The orders are settled, the statements and payouts written and partners notified (order.settled). This moves money and cannot be
                    undone.
                  </p>
                }
                confirmLabel="Run settlement"
                confirmDisabled={reason.trim().length < 3}
                onOpenChange={(open) => (open ? undefined : setReason(""))}
                onConfirm={async () => {
                  const result = await run.mutateAsync({ ...args(), reason: reason.trim() });
                  toast({ title: `${result.statements.length} statement(s) closed`, tone: "success" });
                  await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
                }}
              >
                <div className="space-y-1.5">
                  <Label htmlFor="run-reason">Reason (required; in the audit log)</Label>
                  <Textarea id="run-reason" rows={2} value={reason} onChange={(event) => setReason(event.target.value)} className="font-sans text-sm" />
                </div>
              </ConfirmDialog>
            ) : null}
          </div>
          <RunTable summary={shown} />
        </section>
      ) : null}
    </div>
  );
}

function RunTable({ summary }: { summary: Summary }) {
  if (summary.statements.length === 0 && summary.referralPayouts.length === 0 && summary.brokeragePayouts.length === 0) {
    return <EmptyState title="Nothing to close" description="No completed transfers, referral commissions or brokerage shares in periods that ended before this date." />;
  }
  return (
    <div className="space-y-4">
      {summary.statements.length > 0 ? (
        <Table aria-label="Statements" data-testid="run-statements">
          <THead>
            <TR>
              <TH>Partner</TH>
              <TH>Period</TH>
              <TH className="max-sm:hidden">Environment</TH>
              <TH className="text-right max-sm:hidden">Orders</TH>
              <TH className="text-right">Gross</TH>
              <TH className="text-right max-sm:hidden">Commission</TH>
            </TR>
          </THead>
          <TBody>
            {summary.statements.map((s) => (
              <TR key={`${s.partnerId}-${s.environment}-${s.currency}-${s.periodStart}-${s.sequence}`}>
                <TD className="break-words">{s.partnerName}</TD>
                <TD>
                  {s.periodStart}
                  {s.sequence > 1 ? ` (#${s.sequence})` : ""}
                </TD>
                <TD className="max-sm:hidden">{s.environment}</TD>
                <TD className="text-right tabular-nums max-sm:hidden">{s.orderCount}</TD>
                <TD className="text-right tabular-nums">{formatMoney(s.grossSoldCents, s.currency)}</TD>
                <TD className="text-right tabular-nums max-sm:hidden">{formatMoney(s.commissionRetainedCents, s.currency)}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      ) : null}
      {summary.referralPayouts.length + summary.brokeragePayouts.length > 0 ? (
        <p className="text-sm text-muted">
          Also {summary.referralPayouts.length} referral and {summary.brokeragePayouts.length} brokerage payout(s).
        </p>
      ) : null}
    </div>
  );
}
