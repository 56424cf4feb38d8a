"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactElement } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import { Alert, Button, ConfirmDialog, Dialog, DialogContent, DialogFooter, DialogTrigger, Field, Label, Textarea, useToast } from "@/components/ui";
import { amountText, parseAmount } from "./amount";

// Add, reprice and remove one listing, each with a reason for the audit log.
// The same services as domain:add, domain:set-price and domain:remove.

type Environment = "sandbox" | "live";

export interface ListingView {
  name: string;
  environment: Environment;
  priceCents: number;
  floorPriceCents: number | null;
  currency: string;
}

function useInvalidateInventory() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.inventory.pathKey() });
}

/** Add (no listing given) or reprice (a listing given): name, price, floor, currency and a reason. */
export function ListingFormDialog({ environment, listing, trigger }: { environment: Environment; listing?: ListingView; trigger: ReactElement }) {
  const trpc = useTRPC();
  const { toast } = useToast();
  const invalidate = useInvalidateInventory();
  const [open, setOpen] = useState(false);
  const start = () => ({
    name: listing?.name ?? "",
    price: listing ? amountText(listing.priceCents, listing.currency) : "",
    floor: listing?.floorPriceCents != null ? amountText(listing.floorPriceCents, listing.currency) : "",
    currency: listing?.currency ?? "USD",
    reason: "",
  });
  const [form, setForm] = useState(start);
  const [problem, setProblem] = useState<string | null>(null);
  const add = useMutation(trpc.admin.inventory.add.mutationOptions());
  const setPrice = useMutation(trpc.admin.inventory.setPrice.mutationOptions());
  const mutation = listing ? setPrice : add;
  const idPrefix = listing ? `reprice-${listing.name}` : "add-listing";
  const change = (key: keyof ReturnType<typeof start>) => (event: { target: { value: string } }) => setForm((f) => ({ ...f, [key]: event.target.value }));

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (next) {
      setForm(start());
      setProblem(null);
      mutation.reset();
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const currency = form.currency.trim().toUpperCase();
    const priceCents = parseAmount(form.price, currency);
    const floorPriceCents = form.floor.trim() ? parseAmount(form.floor, currency) : null;
    if (!priceCents) return setProblem(`Enter the price as an amount in ${currency || "the currency"}, e.g. 1250 or 1250.50.`);
    if (form.floor.trim() && floorPriceCents === null) return setProblem("Enter the floor as an amount, or leave it empty for no floor.");
    setProblem(null);
    const input = { environment, name: form.name.trim(), priceCents, floorPriceCents, currency, reason: form.reason.trim() };
    try {
      const saved = await mutation.mutateAsync(input);
      toast({ title: `${saved.domain} ${listing ? "repriced" : "listed"} at ${formatMoney(saved.sale_price_cents, saved.currency)}`, tone: "success" });
      setOpen(false);
      await invalidate();
    } catch {
      // Shown from mutation.error below.
    }
  };

  const hint = form.currency.trim().length === 3 ? `In ${form.currency.trim().toUpperCase()}, e.g. 1250 or 1250.50` : undefined;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent
        title={listing ? `Reprice ${listing.name}` : `Add a domain to the ${environment} inventory`}
        description={listing ? "The new price applies to quotes from now on; orders already placed keep theirs." : "It is for sale at once: search and the partner API offer it."}
      >
        <form onSubmit={onSubmit} className="space-y-4" noValidate>
          {problem || mutation.error ? <Alert tone="danger">{problem ?? mutation.error?.message}</Alert> : null}
          {listing ? null : <Field id={`${idPrefix}-name`} label="Domain name" value={form.name} onChange={change("name")} placeholder="example.com" autoComplete="off" required />}
          <div className="grid gap-4 sm:grid-cols-3">
            <Field id={`${idPrefix}-price`} label="Price" inputMode="decimal" value={form.price} onChange={change("price")} hint={hint} required className="sm:col-span-1" />
            <Field id={`${idPrefix}-floor`} label="Floor (optional)" inputMode="decimal" value={form.floor} onChange={change("floor")} hint="Lowest accepted offer" />
            <Field id={`${idPrefix}-currency`} label="Currency" value={form.currency} onChange={change("currency")} maxLength={3} autoComplete="off" required />
          </div>
          <div className="space-y-1.5">
            <Label htmlFor={`${idPrefix}-reason`}>Reason (required; in the audit log)</Label>
            <Textarea id={`${idPrefix}-reason`} rows={2} value={form.reason} onChange={change("reason")} className="font-sans text-sm" />
          </div>
          <DialogFooter>
            <Button type="submit" disabled={mutation.isPending || form.reason.trim().length < 3}>
              {mutation.isPending ? "Saving…" : listing ? "Save price" : "Add domain"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** Takes an available listing off sale, confirmed with the name and a reason. */
export function RemoveListing({ listing }: { listing: ListingView }) {
  const trpc = useTRPC();
  const { toast } = useToast();
  const invalidate = useInvalidateInventory();
  const [reason, setReason] = useState("");
  const remove = useMutation(trpc.admin.inventory.remove.mutationOptions());
  const field = `remove-${listing.name}`;
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Remove ${listing.name}`}>
          Remove
        </Button>
      }
      title={`Remove ${listing.name} from the ${listing.environment} inventory?`}
      description={
        <p>
          It stops being for sale at once: search, the partner API and checkout no longer offer it. Orders already placed are not affected, and
          you can add it again later.
        </p>
      }
      confirmLabel="Remove listing"
      confirmDisabled={reason.trim().length < 3}
      onOpenChange={(open) => (open ? undefined : setReason(""))}
      onConfirm={async () => {
        await remove.mutateAsync({ environment: listing.environment, name: listing.name, reason: reason.trim() });
        toast({ title: `${listing.name} removed`, tone: "success" });
        await invalidate();
      }}
    >
      <div className="space-y-1.5">
        <Label htmlFor={field}>Reason (required; in the audit log)</Label>
        <Textarea id={field} rows={2} value={reason} onChange={(event) => setReason(event.target.value)} className="font-sans text-sm" />
      </div>
    </ConfirmDialog>
  );
}
