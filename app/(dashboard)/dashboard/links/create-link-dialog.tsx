"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { Button, Dialog, DialogClose, DialogContent, DialogFooter, Field, Label, Select, useToast } from "@/components/ui";
import { cn } from "@/components/ui/cn";
import type { Environment } from "@/db/schema";
import { productLabels } from "./link-format";

// A new tracked link, with the fields of POST /links: where it leads (the
// storefront, one listed domain, or a product page) and the partner's own label
// for the campaign. The server validates; its field errors show under the field.

type LinkType = "generic" | "domain" | "product";
type Product = keyof typeof productLabels;

const destinations: { value: LinkType; label: string; hint: string }[] = [
  { value: "generic", label: "Storefront", hint: "The marketplace's domain list (/domains)." },
  { value: "domain", label: "One domain", hint: "The page of a domain listed for sale." },
  { value: "product", label: "Product page", hint: "The marketplace or the brokerage page." },
];

export function CreateLinkDialog({
  open,
  onOpenChange,
  environment,
  onCreated,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  environment: Environment;
  onCreated: (id: string) => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [type, setType] = useState<LinkType>("generic");
  const [domain, setDomain] = useState("");
  const [product, setProduct] = useState<Product>("marketplace");
  const [label, setLabel] = useState("");

  const create = useMutation(
    trpc.links.create.mutationOptions({
      onSuccess: (link) => {
        void queryClient.invalidateQueries({ queryKey: trpc.links.pathKey() });
        toast({ title: "Link created", description: `${link.url} is ready to share.`, tone: "success" });
        reset();
        onOpenChange(false);
        onCreated(link.id);
      },
    }),
  );

  function reset() {
    setType("generic");
    setDomain("");
    setProduct("marketplace");
    setLabel("");
    create.reset();
  }

  function changeOpen(next: boolean) {
    if (create.isPending) return;
    if (!next) reset();
    onOpenChange(next);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (create.isPending) return;
    create.mutate({
      type,
      domain: type === "domain" ? domain : undefined,
      product: type === "product" ? product : undefined,
      label: label.trim() || undefined,
    });
  }

  const details = create.error?.data?.details ?? [];
  const fieldError = (path: string) => details.find((d) => d.path === path)?.message;
  const domainError = fieldError("domain");
  const otherError = create.error && !domainError && !fieldError("label") ? create.error.message : undefined;

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent
        title="Create a referral link"
        description={`A ${environment} link: visitors who follow it and buy within 30 days earn you commission.`}
      >
        <form onSubmit={submit} className="space-y-5" noValidate data-testid="create-link-form">
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-ink">Destination</legend>
            <div className="grid gap-2 sm:grid-cols-3">
              {destinations.map((d) => (
                <label
                  key={d.value}
                  className={cn(
                    "flex cursor-pointer gap-2 rounded-lg border p-3 text-sm transition-colors",
                    type === d.value ? "border-brand bg-brand-soft/50" : "border-line-strong hover:bg-subtle",
                  )}
                >
                  <input
                    type="radio"
                    name="link-type"
                    value={d.value}
                    checked={type === d.value}
                    onChange={() => setType(d.value)}
                    className="mt-0.5 accent-brand"
                  />
                  <span>
                    <span className="block font-medium text-ink">{d.label}</span>
                    <span className="block text-xs text-muted">{d.hint}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>

          {type === "domain" ? (
            <Field
              id="link-domain"
              label="Domain"
              value={domain}
              onChange={(e) => setDomain(e.target.value)}
              placeholder="example.com"
              autoComplete="off"
              spellCheck={false}
              required
              hint={`A domain listed for sale in ${environment}.`}
              error={domainError}
            />
          ) : null}

          {type === "product" ? (
            <div className="space-y-1.5">
              <Label htmlFor="link-product">Product page</Label>
              <Select id="link-product" value={product} onChange={(e) => setProduct(e.target.value as Product)}>
                {(Object.keys(productLabels) as Product[]).map((p) => (
                  <option key={p} value={p}>
                    {productLabels[p]}
                  </option>
                ))}
              </Select>
            </div>
          ) : null}

          <Field
            id="link-label"
            label="Campaign label (optional)"
            value={label}
            onChange={(e) => setLabel(e.target.value)}
            maxLength={100}
            placeholder="Spring newsletter"
            hint="Your own name for the link, shown in your reports only."
            error={fieldError("label")}
          />

          {otherError ? (
            <p role="alert" className="text-sm font-medium text-danger-ink">
              {otherError}
            </p>
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
      </DialogContent>
    </Dialog>
  );
}
