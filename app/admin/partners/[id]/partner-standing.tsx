"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import { Button, ConfirmDialog, Field, Label, ReasonField, reasonReady, Select, useToast } from "@/components/ui";

// The two decisions staff take about a partner as a whole: its terms (payment
// model and rates, for sales from now on) and suspension. Both name exactly
// what will change before they ask for the reason.

type PaymentModel = "mor" | "non_mor";
interface Terms {
  paymentModel: PaymentModel;
  saleCommissionBps: number;
  referralCommissionBps: number;
  brokerageShareBps: number;
}

const modelLabel: Record<PaymentModel, string> = { mor: "Merchant of record", non_mor: "Hosted checkout (non-MoR)" };
const rateFields = [
  ["saleCommissionBps", "Sale commission"],
  ["referralCommissionBps", "Referral commission"],
  ["brokerageShareBps", "Brokerage share"],
] as const;

export const pct = (bps: number) => `${(bps / 100).toLocaleString("en-US", { maximumFractionDigits: 2 })}%`;

/** "12.5" -> 1250 basis points; null when it is not a percentage from 0 to 100 with at most two decimals. */
function toBps(text: string): number | null {
  if (!/^\d{1,3}(\.\d{1,2})?$/.test(text.trim())) return null;
  const bps = Math.round(Number(text) * 100);
  return bps <= 10_000 ? bps : null;
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.partners.pathKey() });
}

export function EditTerms({ id, name, terms }: { id: string; name: string; terms: Terms }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { toast } = useToast();
  const set = useMutation(trpc.admin.partners.setTerms.mutationOptions());
  const initial = () => ({
    paymentModel: terms.paymentModel,
    ...Object.fromEntries(rateFields.map(([key]) => [key, String(terms[key] / 100)])),
  }) as { paymentModel: PaymentModel } & Record<(typeof rateFields)[number][0], string>;
  const [form, setForm] = useState(initial);
  const [reason, setReason] = useState("");
  const parsed = Object.fromEntries(rateFields.map(([key]) => [key, toBps(form[key])])) as Record<(typeof rateFields)[number][0], number | null>;
  const valid = rateFields.every(([key]) => parsed[key] !== null);
  const changes = [
    ...(form.paymentModel !== terms.paymentModel ? [`Payment model: ${modelLabel[terms.paymentModel]} → ${modelLabel[form.paymentModel]}`] : []),
    ...rateFields.flatMap(([key, label]) => (parsed[key] !== null && parsed[key] !== terms[key] ? [`${label}: ${pct(terms[key])} → ${pct(parsed[key])}`] : [])),
  ];
  return (
    <ConfirmDialog
      trigger={<Button variant="secondary">Change terms</Button>}
      title={`Change ${name}'s terms`}
      tone="primary"
      description={
        <p>
          New terms apply to sales, referrals and brokerage deals from now on. Orders already recorded keep the rate they were sold at, and closed
          statements never change.
        </p>
      }
      confirmLabel={changes.length === 1 ? "Apply 1 change" : `Apply ${changes.length} changes`}
      confirmDisabled={!valid || changes.length === 0 || !reasonReady(reason)}
      onOpenChange={(open) => {
        if (!open) return;
        setForm(initial());
        setReason("");
      }}
      onConfirm={async () => {
        await set.mutateAsync({
          id,
          reason: reason.trim(),
          paymentModel: form.paymentModel,
          saleCommissionBps: parsed.saleCommissionBps!,
          referralCommissionBps: parsed.referralCommissionBps!,
          brokerageShareBps: parsed.brokerageShareBps!,
        });
        toast({ title: `${name}'s terms changed`, tone: "success" });
        await refresh();
      }}
    >
      <div className="space-y-4">
        <div className="space-y-1.5">
          <Label htmlFor="terms-model">Payment model</Label>
          <Select id="terms-model" value={form.paymentModel} onChange={(event) => setForm({ ...form, paymentModel: event.target.value as PaymentModel })}>
            <option value="mor">{modelLabel.mor}</option>
            <option value="non_mor">{modelLabel.non_mor}</option>
          </Select>
        </div>
        <div className="grid gap-3 sm:grid-cols-3">
          {rateFields.map(([key, label]) => (
            <Field
              key={key}
              id={`terms-${key}`}
              label={`${label} (%)`}
              inputMode="decimal"
              value={form[key]}
              onChange={(event) => setForm({ ...form, [key]: event.target.value })}
              error={parsed[key] === null ? "0 to 100, two decimals at most" : undefined}
            />
          ))}
        </div>
        <div aria-live="polite" className="text-sm">
          {changes.length === 0 ? (
            <p className="text-muted">Nothing changed yet.</p>
          ) : (
            <ul className="list-disc space-y-0.5 pl-5" aria-label="Changes">
              {changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          )}
        </div>
        <ReasonField id="terms-reason" value={reason} onChange={setReason} />
      </div>
    </ConfirmDialog>
  );
}

export function SuspendPartner({ id, name, suspended }: { id: string; name: string; suspended: boolean }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { toast } = useToast();
  const [reason, setReason] = useState("");
  const suspend = useMutation(trpc.admin.partners.suspend.mutationOptions());
  const reinstate = useMutation(trpc.admin.partners.reinstate.mutationOptions());
  return (
    <ConfirmDialog
      trigger={<Button variant={suspended ? "secondary" : "danger"}>{suspended ? "Reinstate" : "Suspend partner"}</Button>}
      title={suspended ? `Reinstate ${name}?` : `Suspend ${name}?`}
      tone={suspended ? "primary" : "danger"}
      description={
        suspended ? (
          <p>Their keys that are not revoked verify again at once and their hosted checkout links take payments again.</p>
        ) : (
          <p>
            Every API key of {name}, sandbox and live, gets 403 <code>partner_suspended</code> from the next request, and their hosted checkout links
            stop taking payments. Orders in flight, settlements, payouts and webhook deliveries go on.
          </p>
        )
      }
      confirmLabel={suspended ? "Reinstate" : "Suspend"}
      confirmDisabled={!reasonReady(reason)}
      onOpenChange={(open) => (open ? setReason("") : undefined)}
      onConfirm={async () => {
        const input = { id, reason: reason.trim() };
        if (suspended) await reinstate.mutateAsync(input);
        else await suspend.mutateAsync(input);
        toast({ title: suspended ? `${name} reinstated` : `${name} suspended`, tone: suspended ? "success" : "info" });
        await refresh();
      }}
    >
      <ReasonField id="suspend-reason" value={reason} onChange={setReason} />
    </ConfirmDialog>
  );
}
