"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type ReactElement } from "react";
import { useTRPC } from "@/app/providers";
import { ConfirmDialog, Label, Textarea, useToast } from "@/components/ui";

// The console's two revocations, each confirmed with a reason that goes in the
// audit log. Both are the service of `oauth:revoke`; tokens stop working on the
// very next request.

function ReasonField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Reason (required; in the audit log)</Label>
      <Textarea id={id} rows={2} value={value} onChange={(event) => onChange(event.target.value)} className="font-sans text-sm" />
    </div>
  );
}

function useInvalidateOAuth() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.oauth.pathKey() });
}

export function RevokeClient({ clientId, name, trigger }: { clientId: string; name: string; trigger: ReactElement }) {
  const trpc = useTRPC();
  const { toast } = useToast();
  const invalidate = useInvalidateOAuth();
  const field = useId();
  const [reason, setReason] = useState("");
  const revoke = useMutation(trpc.admin.oauth.revokeClient.mutationOptions());
  return (
    <ConfirmDialog
      trigger={trigger}
      title={`Revoke ${name}?`}
      description={
        <p>
          The client can no longer ask anyone for access, and every access and refresh token it holds is refused from the next request on. Its users
          have to find another client. This cannot be undone.
        </p>
      }
      confirmLabel="Revoke client"
      confirmDisabled={reason.trim().length < 3}
      onOpenChange={(open) => (open ? undefined : setReason(""))}
      onConfirm={async () => {
        const result = await revoke.mutateAsync({ id: clientId, reason: reason.trim() });
        toast({ title: `${name} revoked`, description: `${result.tokens_revoked} tokens revoked.`, tone: "success" });
        await invalidate();
      }}
    >
      <ReasonField id={field} value={reason} onChange={setReason} />
    </ConfirmDialog>
  );
}

/** A user's tokens: with `client`, only those that client holds; without, every client's. */
export function RevokeUser({ email, client, trigger }: { email: string; client?: { id: string; name: string }; trigger: ReactElement }) {
  const trpc = useTRPC();
  const { toast } = useToast();
  const invalidate = useInvalidateOAuth();
  const field = useId();
  const [reason, setReason] = useState("");
  const revoke = useMutation(trpc.admin.oauth.revokeUser.mutationOptions());
  return (
    <ConfirmDialog
      trigger={trigger}
      title={client ? `Revoke ${email}'s access for ${client.name}?` : `Revoke ${email}'s access everywhere?`}
      description={
        <p>
          {client
            ? `Every token ${client.name} holds for ${email} is refused from the next request on. The client itself and other users keep working.`
            : `Every token any OAuth client holds for ${email} is refused from the next request on. The user can consent again later.`}
        </p>
      }
      confirmLabel={client ? "Revoke for this client" : "Revoke everywhere"}
      confirmDisabled={reason.trim().length < 3}
      onOpenChange={(open) => (open ? undefined : setReason(""))}
      onConfirm={async () => {
        const result = await revoke.mutateAsync({ userEmail: email, clientId: client?.id, reason: reason.trim() });
        toast({ title: `Access revoked for ${email}`, description: `${result.tokens_revoked} tokens revoked.`, tone: "success" });
        await invalidate();
      }}
    >
      <ReasonField id={field} value={reason} onChange={setReason} />
    </ConfirmDialog>
  );
}
