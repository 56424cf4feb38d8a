"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { fieldMessage } from "@/components/dashboard/field-message";
import { Alert, Button, Checkbox, Dialog, DialogContent, DialogFooter, DialogTrigger, Field, Label, Select, Textarea, useToast } from "@/components/ui";
import type { Environment } from "@/db/schema";
import { scopes as allScopes, type Scope } from "@/server/http/contract";
import type { ApiKey } from "./keys-view";
import { SecretOnce } from "./secret-once";

// The key dialogs: create (scopes, allowed addresses; the secret once), roll
// (a grace for the old secret; the new one once) and the allow-list editor.

function useRefreshKeys() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() });
}

function AllowListField({ id, defaultValue, error }: { id: string; defaultValue?: string; error?: string }) {
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Allowed addresses (optional)</Label>
      <Textarea
        id={id}
        name="allowedCidrs"
        rows={3}
        defaultValue={defaultValue}
        placeholder={"203.0.113.7\n198.51.100.0/24\n2001:db8::/48"}
        aria-describedby={error ? `${hintId} ${errorId}` : hintId}
        aria-invalid={error ? true : undefined}
        spellCheck={false}
      />
      <p id={hintId} className="text-xs text-faint">
        One IP address or CIDR range per line. Requests from anywhere else are refused with 403 <code>ip_not_allowed</code>. Empty: any address.
      </p>
      {error ? (
        <p id={errorId} className="text-xs font-medium text-danger-ink">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function CreateKeyDialog({ environment, scopeDescriptions }: { environment: Environment; scopeDescriptions: Record<Scope, string> }) {
  const trpc = useTRPC();
  const refresh = useRefreshKeys();
  const [open, setOpen] = useState(false);
  const [chosen, setChosen] = useState<Set<Scope>>(() => new Set(allScopes));
  const create = useMutation(trpc.keys.create.mutationOptions({ onSuccess: () => refresh() }));

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      create.reset();
      setChosen(new Set(allScopes));
    }
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    create.mutate({ name: String(form.get("name") ?? ""), scopes: allScopes.filter((s) => chosen.has(s)), allowedCidrs: String(form.get("allowedCidrs") ?? "") });
  };
  const toggle = (scope: Scope, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  const details = create.error?.data?.details ?? [];
  const errorFor = (path: string) => details.find((d) => d.path === path || d.path.startsWith(`${path}.`))?.message;
  const nameError = errorFor("name");
  const scopesError = errorFor("scopes");
  const cidrError = errorFor("allowedCidrs") ?? (create.error && !details.length && /address|CIDR|IP|allow-list/i.test(create.error.message) ? create.error.message : undefined);
  const general = create.error && !nameError && !scopesError && !cidrError ? create.error.message : undefined;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Create {environment} key</Button>
      </DialogTrigger>
      <DialogContent
        title={create.data ? `Your new ${environment} key` : `Create a ${environment} key`}
        description={create.data ? undefined : "Give it a name that says where it runs, and only the scopes that code needs."}
        className="sm:max-w-xl"
      >
        {create.data ? (
          <>
            <SecretOnce keyId={create.data.keyId} secret={create.data.secret} />
            <DialogFooter className="mt-6">
              <Button onClick={() => onOpenChange(false)}>I have stored it</Button>
            </DialogFooter>
          </>
        ) : (
          <form onSubmit={onSubmit} noValidate className="space-y-5">
            {general ? <Alert tone="danger">{general}</Alert> : null}
            <Field id="key-name" name="name" label="Name" placeholder="Checkout server (production)" maxLength={80} error={nameError} autoComplete="off" />
            <fieldset className="space-y-3" aria-describedby={scopesError ? "key-scopes-error" : undefined}>
              <legend className="text-sm font-medium text-ink">Scopes</legend>
              <div className="grid gap-3 sm:grid-cols-2">
                {allScopes.map((scope) => (
                  <Checkbox
                    key={scope}
                    id={`scope-${scope}`}
                    checked={chosen.has(scope)}
                    onCheckedChange={(on) => toggle(scope, on)}
                    label={scope}
                    description={scopeDescriptions[scope]}
                  />
                ))}
              </div>
              {scopesError ? (
                <p id="key-scopes-error" className="text-xs font-medium text-danger-ink">
                  {scopesError}
                </p>
              ) : null}
            </fieldset>
            <AllowListField id="key-allowed" error={cidrError} />
            <DialogFooter>
              <Button type="submit" disabled={create.isPending}>
                {create.isPending ? "Creating…" : "Create key"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

const graces = [
  { value: "none", label: "No grace: the old secret stops now" },
  { value: "1h", label: "1 hour" },
  { value: "24h", label: "24 hours" },
  { value: "7d", label: "7 days" },
] as const;

interface KeyDialogProps {
  apiKey: ApiKey;
  open: boolean;
  onOpenChange(open: boolean): void;
}

export function RollKeyDialog({ apiKey, open, onOpenChange }: KeyDialogProps) {
  const trpc = useTRPC();
  const refresh = useRefreshKeys();
  const [grace, setGrace] = useState<(typeof graces)[number]["value"]>("24h");
  const roll = useMutation(trpc.keys.roll.mutationOptions({ onSuccess: () => refresh() }));
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) {
      roll.reset();
      setGrace("24h");
    }
  };
  const label = apiKey.name ?? apiKey.keyId;
  const result = roll.data;
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={result ? "Your new secret" : `Roll the secret of ${label}`}
        description={
          result
            ? undefined
            : "A new secret replaces the current one; the key id stays. Keep the old one valid for a while so you can deploy the new one without downtime."
        }
        className="sm:max-w-xl"
      >
        {result ? (
          <>
            <SecretOnce
              keyId={apiKey.keyId}
              secret={result.secret}
              graceNote={
                result.previousSecretExpiresAt
                  ? `The old secret keeps working until ${new Date(result.previousSecretExpiresAt).toLocaleString()}.`
                  : "The old secret no longer works."
              }
            />
            <DialogFooter className="mt-6">
              <Button onClick={() => close(false)}>I have stored it</Button>
            </DialogFooter>
          </>
        ) : (
          <div className="space-y-4">
            {roll.error ? <Alert tone="danger">{roll.error.message}</Alert> : null}
            {apiKey.previousSecretExpiresAt ? (
              <Alert tone="warning">Rolling again ends the current grace: the secret before the last roll stops working now.</Alert>
            ) : null}
            <div className="space-y-1.5">
              <Label htmlFor="roll-grace">Keep the old secret valid for</Label>
              <Select id="roll-grace" value={grace} onChange={(event) => setGrace(event.target.value as typeof grace)}>
                {graces.map((g) => (
                  <option key={g.value} value={g.value}>
                    {g.label}
                  </option>
                ))}
              </Select>
              {grace === "none" ? (
                <p className="text-xs font-medium text-danger-ink">Requests signed with the current secret fail from the moment you roll.</p>
              ) : null}
            </div>
            <DialogFooter>
              <Button variant={grace === "none" ? "danger" : "primary"} disabled={roll.isPending} onClick={() => roll.mutate({ keyId: apiKey.keyId, grace })}>
                {roll.isPending ? "Rolling…" : "Roll secret"}
              </Button>
            </DialogFooter>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}

export function AllowListDialog({ apiKey, open, onOpenChange }: KeyDialogProps) {
  const trpc = useTRPC();
  const refresh = useRefreshKeys();
  const { toast } = useToast();
  const save = useMutation(
    trpc.keys.setAllowList.mutationOptions({
      onSuccess: () => {
        void refresh();
        toast({ title: "Allowed addresses saved", description: "They apply to the next request.", tone: "success" });
        onOpenChange(false);
      },
    }),
  );
  const close = (next: boolean) => {
    onOpenChange(next);
    if (!next) save.reset();
  };
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    save.mutate({ keyId: apiKey.keyId, allowedCidrs: String(new FormData(event.currentTarget).get("allowedCidrs") ?? "") });
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent title={`Allowed addresses of ${apiKey.name ?? apiKey.keyId}`} description="Restrict where requests signed with this key may come from.">
        <form onSubmit={onSubmit} noValidate className="space-y-4">
          <AllowListField id="edit-allowed" defaultValue={apiKey.allowedCidrs.join("\n")} error={save.error ? fieldMessage(save.error, "allowedCidrs") : undefined} />
          <DialogFooter>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
