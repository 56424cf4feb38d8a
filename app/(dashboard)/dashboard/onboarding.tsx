"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import { scopes } from "@/server/http/contract";
import {
  Alert,
  Button,
  buttonClasses,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  CopyButton,
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  LoadingRows,
  ErrorState,
} from "@/components/ui";
import { cn } from "@/components/ui/cn";
import { API_REFERENCE_URL } from "@/components/shell/brand";

// The overview's onboarding: the checklist ticked from real sandbox data, and
// the one-click default sandbox key offered until the partner has one.

const steps = {
  key_created: { label: "Create a sandbox key", href: "/dashboard/keys", hint: "The secret is shown once; keep it on your server." },
  signed_call: { label: "Make your first signed call", href: "/dashboard/requests", hint: "Every call shows up in the request log, with a signature debugger in sandbox." },
  webhook_set: { label: "Set a webhook endpoint", href: "/dashboard/webhooks", hint: "Where order and brokerage events are POSTed, signed." },
  event_delivered: { label: "Receive a test event", href: "/dashboard/webhooks", hint: "Send any event type from the Webhooks page." },
  sandbox_order: { label: "Place your first sandbox order", href: API_REFERENCE_URL, hint: "Quote and record a sale, or complete a hosted checkout." },
} as const;



export function OnboardingChecklist() {
  const trpc = useTRPC();
  const onboarding = useQuery(trpc.account.onboarding.queryOptions());
  if (onboarding.isPending) return <LoadingRows label="Loading your checklist…" rows={5} />;
  if (onboarding.isError) return <ErrorState title="We couldn't load your checklist" error={onboarding.error} onRetry={onboarding.refetch} />;
  const done = onboarding.data.filter((s) => s.done).length;
  const next = onboarding.data.find((s) => !s.done);
  return (
    <Card data-testid="onboarding">
      <CardHeader>
        <CardTitle>Get started in sandbox</CardTitle>
        <CardDescription>
          {done === onboarding.data.length ? "All done: you are ready for production access." : `${done} of ${onboarding.data.length} done. Each step ticks itself from your sandbox data.`}
        </CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="space-y-2">
          {onboarding.data.map((step, index) => {
            const info = steps[step.id];
            return (
              <li key={step.id} data-step={step.id} data-done={step.done} className="flex items-start gap-3 rounded-lg p-2">
                <span
                  aria-hidden="true"
                  className={cn(
                    "mt-0.5 flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold",
                    step.done ? "bg-success-soft text-success-ink" : "bg-subtle text-muted ring-1 ring-line-strong",
                  )}
                >
                  {step.done ? "✓" : index + 1}
                </span>
                <span className="min-w-0 flex-1">
                  <span className={cn("block text-sm font-medium", step.done ? "text-muted line-through" : "text-ink")}>
                    {info.label}
                    <span className="sr-only">{step.done ? " (done)" : " (to do)"}</span>
                  </span>
                  <span className="block text-xs text-faint">{info.hint}</span>
                </span>
                {step === next ? (
                  <Link href={info.href} className={buttonClasses({ size: "sm", variant: "secondary" })}>
                    Start
                  </Link>
                ) : null}
              </li>
            );
          })}
        </ol>
      </CardContent>
    </Card>
  );
}

/** Shown while the partner has no sandbox key: one click makes one with every scope. */
export function FirstKeyOffer({ canCreate }: { canCreate: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const create = useMutation(trpc.keys.create.mutationOptions({ onSuccess: () => setOpen(true) }));
  // The overview refreshes (and this offer goes away) only once the secret's dialog is closed.
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      void queryClient.invalidateQueries({ queryKey: trpc.account.pathKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() });
    }
  };
  const key = create.data;
  return (
    <Alert tone="info" title="Your sandbox is ready" data-testid="first-key-offer">
      <p>Create a sandbox key to make your first signed call. It can search, quote and buy test domains; no real money moves.</p>
      {create.isError ? <p className="mt-2 font-medium text-danger-ink">{create.error.message}</p> : null}
      <div className="mt-3 flex flex-wrap gap-2">
        <Button
          size="sm"
          disabled={!canCreate || create.isPending}
          onClick={() => create.mutate({ name: "Default sandbox key", scopes: [...scopes], allowedCidrs: "" })}
        >
          {create.isPending ? "Creating…" : "Create sandbox key"}
        </Button>
        <Link href="/dashboard/keys" className={buttonClasses({ size: "sm", variant: "secondary" })}>
          Choose scopes instead
        </Link>
      </div>
      {!canCreate ? <p className="mt-2 text-xs">Viewers cannot create keys; ask an owner of your organisation.</p> : null}
      <Dialog open={open} onOpenChange={onOpenChange}>
        {key ? (
          <DialogContent title="Your sandbox key" description="Copy the secret now: it is shown only once. Store it on your server, never in a browser or app.">
            <dl className="space-y-3 text-sm">
              <div>
                <dt className="font-medium text-ink">Key id</dt>
                <dd className="mt-1 flex items-center gap-2">
                  <code className="min-w-0 flex-1 truncate rounded bg-subtle px-2 py-1 font-mono text-xs" data-testid="new-key-id">{key.keyId}</code>
                  <CopyButton value={key.keyId} label="Copy key id" />
                </dd>
              </div>
              <div>
                <dt className="font-medium text-ink">Secret</dt>
                <dd className="mt-1 flex items-center gap-2">
                  <code className="min-w-0 flex-1 truncate rounded bg-subtle px-2 py-1 font-mono text-xs" data-testid="new-key-secret">{key.secret}</code>
                  <CopyButton value={key.secret} label="Copy secret" />
                </dd>
              </div>
            </dl>
            <DialogFooter className="mt-6">
              <Link href="/dashboard/keys" className={buttonClasses({ variant: "secondary" })}>
                Open API keys
              </Link>
              <DialogClose asChild>
                <Button>I have stored it</Button>
              </DialogClose>
            </DialogFooter>
          </DialogContent>
        ) : null}
      </Dialog>
    </Alert>
  );
}
