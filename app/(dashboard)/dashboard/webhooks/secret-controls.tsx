"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogTrigger,
  Label,
  RelativeTime,
  Select,
  useToast,
} from "@/components/ui";
import type { ConsoleEndpoint } from "./delivery-format";

// The endpoint's signing secret: hidden until revealed (an audited read), and
// rolled with an optional grace during which deliveries carry both signatures.

const graces = [
  { value: "none", label: "None: the old secret stops working now" },
  { value: "1h", label: "1 hour" },
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
] as const;
type Grace = (typeof graces)[number]["value"];

export function SecretControls({ endpoint }: { endpoint: ConsoleEndpoint }) {
  const trpc = useTRPC();
  const [secret, setSecret] = useState<string | null>(null);
  const reveal = useMutation(trpc.webhooks.revealSecret.mutationOptions({ onSuccess: (result) => setSecret(result.secret) }));

  return (
    <div className="space-y-2">
      <p className="text-sm font-medium text-ink">
        Signing secret
      </p>
      <div className="flex flex-wrap items-center gap-2">
        <div className="flex min-w-0 items-center gap-1">
          <Code className="min-w-0 break-all" data-testid="signing-secret">
            {secret ?? "whsec_••••••••••••••••••••"}
          </Code>
          {secret ? <CopyButton value={secret} label="Copy signing secret" /> : null}
        </div>
        {secret ? (
          <Button variant="ghost" size="sm" onClick={() => setSecret(null)}>
            Hide
          </Button>
        ) : (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => !reveal.isPending && reveal.mutate()}
            aria-disabled={reveal.isPending || undefined}
          >
            {reveal.isPending ? "Revealing…" : "Reveal"}
          </Button>
        )}
        <RollSecretDialog onRolled={() => setSecret(null)} />
      </div>
      {reveal.error ? (
        <p role="alert" className="text-sm font-medium text-danger-ink">
          {reveal.error.message}
        </p>
      ) : null}
      <p className="text-xs text-faint">
        Verify each delivery: <Code>X-Service-Signature</Code> is the hex HMAC-SHA256 of the raw request body, keyed with
        this secret. Check it before parsing the JSON.
      </p>
      {endpoint.previousSecretExpiresAt ? (
        <p className="text-sm text-muted" data-testid="old-secret-expiry">
          Old secret expires <RelativeTime value={endpoint.previousSecretExpiresAt} />. Until then every delivery carries
          both signatures.
        </p>
      ) : null}
    </div>
  );
}

function RollSecretDialog({ onRolled }: { onRolled: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [grace, setGrace] = useState<Grace>("24h");
  const roll = useMutation(
    trpc.webhooks.rollSecret.mutationOptions({
      onSuccess: () => {
        onRolled();
        toast({ title: "Signing secret rolled", tone: "success" });
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoint.queryKey() });
      },
    }),
  );

  function onOpenChange(next: boolean) {
    if (roll.isPending) return;
    setOpen(next);
    if (next) {
      setGrace("24h");
      roll.reset();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!roll.isPending) roll.mutate({ grace });
  }

  const newSecret = roll.data?.secret;
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm">
          Roll secret
        </Button>
      </DialogTrigger>
      <DialogContent
        title={newSecret ? "Your new signing secret" : "Roll the signing secret"}
        description={
          newSecret
            ? "Copy it now and deploy it to your receiver. It is shown here once; Reveal shows the current secret later."
            : "Deliveries are signed with a new secret from now on. Use this when the secret may have leaked, or to rotate it on a schedule."
        }
      >
        {newSecret ? (
          <div className="space-y-4">
            <div className="flex items-center gap-1 rounded-lg bg-subtle p-3">
              <Code className="min-w-0 flex-1 break-all bg-surface" data-testid="new-secret">
                {newSecret}
              </Code>
              <CopyButton value={newSecret} label="Copy new signing secret" />
            </div>
            {grace !== "none" ? (
              <Alert tone="info">
                Until the grace ends, <Code>X-Service-Signature</Code> carries two signatures, new first:{" "}
                <Code>new,old</Code>. Accept a delivery when either matches.
              </Alert>
            ) : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button>Done</Button>
              </DialogClose>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={submit} className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor="roll-grace">Keep the old secret valid for</Label>
              <Select id="roll-grace" value={grace} onChange={(e) => setGrace(e.target.value as Grace)}>
                {graces.map((g) => (
                  <option key={g.value} value={g.value}>
                    {g.label}
                  </option>
                ))}
              </Select>
            </div>
            <div className="space-y-2 text-sm text-muted">
              <p>
                During the grace, every delivery&apos;s <Code>X-Service-Signature</Code> header lists both signatures,
                comma-separated, the new secret&apos;s first: <Code>a1b2…,c3d4…</Code>. A receiver that accepts a
                delivery when any listed signature matches keeps working while you deploy the new secret.
              </p>
              <p>With no grace, deliveries signed only with the new secret start at once.</p>
            </div>
            {roll.error ? (
              <p role="alert" className="text-sm font-medium text-danger-ink">
                {roll.error.message}
              </p>
            ) : null}
            <DialogFooter>
              <DialogClose asChild>
                <Button variant="secondary">Cancel</Button>
              </DialogClose>
              <Button type="submit" variant="danger" aria-disabled={roll.isPending || undefined}>
                {roll.isPending ? "Rolling…" : "Roll secret"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
