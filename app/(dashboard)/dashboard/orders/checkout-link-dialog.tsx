"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { Alert, Button, CopyButton, Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger, Field, formatExact, Input, Label } from "@/components/ui";
import type { Environment } from "@/db/schema";
import { formatMoney } from "./order-format";

// A hosted-checkout link for one domain, made by the service behind POST
// /checkout-session (same checks: listed, not sold, not held for someone else;
// live needs production access). The buyer pays the marketplace on the page.

const empty = { domain: "", returnUrl: "", cancelUrl: "", buyerEmail: "" };

export function CheckoutLinkDialog({ environment }: { environment: Environment }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(empty);
  const create = useMutation(trpc.orders.createCheckoutLink.mutationOptions());

  function onOpenChange(next: boolean) {
    if (create.isPending) return;
    setOpen(next);
    if (!next) {
      setForm(empty);
      create.reset();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate({
      domain: form.domain,
      return_url: form.returnUrl.trim() || undefined,
      cancel_url: form.cancelUrl.trim() || undefined,
      buyer_email: form.buyerEmail.trim() || undefined,
    });
  }

  const details = create.error?.data?.details ?? [];
  const fieldError = (path: string) => details.find((detail) => detail.path === path)?.message;
  const general = create.error && details.length === 0 ? create.error.message : null;
  const link = create.data;
  const set = (key: keyof typeof empty) => (event: { target: { value: string } }) => setForm((current) => ({ ...current, [key]: event.target.value }));

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Create checkout link</Button>
      </DialogTrigger>
      <DialogContent
        title={link ? "Checkout link ready" : "Create a checkout link"}
        description={
          link
            ? `Send it to your buyer: they pay ${formatMoney(link.sale_price_cents, link.currency)} for ${link.domain} on our hosted page.`
            : `A hosted payment page for one ${environment} domain at its listing price, valid 7 days. The sale is yours; the marketplace collects the payment.`
        }
      >
        {link ? (
          <div className="space-y-4" data-testid="checkout-link">
            <div className="space-y-1.5">
              <Label htmlFor="checkout-link-url">Link</Label>
              <div className="flex items-center gap-2">
                <Input id="checkout-link-url" readOnly value={link.checkout_url} className="font-mono text-xs" onFocus={(event) => event.target.select()} />
                <CopyButton value={link.checkout_url} label="Copy link" size="sm" />
              </div>
            </div>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs font-medium tracking-wide text-muted uppercase">Price</dt>
                <dd className="mt-1 tabular-nums">{formatMoney(link.sale_price_cents, link.currency)}</dd>
              </div>
              <div>
                <dt className="text-xs font-medium tracking-wide text-muted uppercase">Expires</dt>
                <dd className="mt-1">{formatExact(new Date(link.expires_at))}</dd>
              </div>
            </dl>
            <p className="text-xs text-muted">
              The link does not reserve the domain: if it sells first, the page tells the buyer and charges nothing.
            </p>
            <DialogFooter>
              <Button variant="secondary" onClick={() => {
                  setForm(empty);
                  create.reset();
                }}>
                Create another
              </Button>
              <DialogClose asChild>
                <Button>Done</Button>
              </DialogClose>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={submit} className="space-y-4" noValidate>
            <Field
              id="checkout-domain"
              label="Domain"
              value={form.domain}
              onChange={set("domain")}
              required
              placeholder="example.com"
              autoComplete="off"
              spellCheck={false}
              error={fieldError("domain")}
            />
            <Field
              id="checkout-return-url"
              label="Return URL (optional)"
              type="url"
              value={form.returnUrl}
              onChange={set("returnUrl")}
              placeholder="https://your-site.example/thanks"
              hint="Where the buyer lands after paying; we add order_id to it."
              error={fieldError("return_url")}
            />
            <Field
              id="checkout-cancel-url"
              label="Cancel URL (optional)"
              type="url"
              value={form.cancelUrl}
              onChange={set("cancelUrl")}
              placeholder="https://your-site.example/cart"
              hint="Shown to the buyer as the way back to your site."
              error={fieldError("cancel_url")}
            />
            <Field
              id="checkout-buyer-email"
              label="Buyer email (optional)"
              type="email"
              value={form.buyerEmail}
              onChange={set("buyerEmail")}
              hint="Prefilled on the page; the buyer may change it."
              error={fieldError("buyer_email")}
            />
            {general ? (
              <Alert tone="danger" title="We couldn't create the link">
                {general}
              </Alert>
            ) : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button type="submit" aria-disabled={create.isPending || undefined}>
                {create.isPending ? "Creating…" : "Create link"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
