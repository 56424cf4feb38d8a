"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { Alert, Button, CopyButton, Dialog, DialogContent, DialogFooter, DialogTrigger, Field, Label, Select } from "@/components/ui";
import { partnerRoles, roleDescriptions, roleLabels, type PartnerRole } from "@/server/auth/partner-roles";

// Invite a member: the link is shown once to copy (there is no mail server).

export function InviteDialog() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [role, setRole] = useState<PartnerRole>("developer");
  const invite = useMutation(
    trpc.team.invite.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() }) }),
  );

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const email = String(new FormData(event.currentTarget).get("email") ?? "");
    invite.mutate({ email, role });
  };

  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      invite.reset();
      setRole("developer");
    }
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Invite member</Button>
      </DialogTrigger>
      <DialogContent
        title={invite.data ? "Invitation ready" : "Invite a member"}
        description={
          invite.data ? "Send this link to them yourself; it is shown only now and works once, for 7 days." : "They choose a password when they open the link."
        }
      >
        {invite.data ? (
          <div className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor="invite-link">Invitation link for {invite.data.email}</Label>
              <div className="flex gap-2">
                <input
                  id="invite-link"
                  readOnly
                  value={invite.data.url}
                  className="min-w-0 flex-1 rounded-md border border-line bg-subtle px-3 py-2 font-mono text-xs text-ink"
                  data-testid="invite-link"
                />
                <CopyButton value={invite.data.url} label="Copy invitation link" />
              </div>
            </div>
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            {invite.error ? <Alert tone="danger">{invite.error.message}</Alert> : null}
            <Field id="invite-email" name="email" type="email" label="Email" autoComplete="off" required />
            <div className="space-y-1.5">
              <Label htmlFor="invite-role">Role</Label>
              <Select id="invite-role" value={role} onChange={(event) => setRole(event.target.value as PartnerRole)} aria-describedby="invite-role-hint">
                {partnerRoles.map((r) => (
                  <option key={r} value={r}>
                    {roleLabels[r]}
                  </option>
                ))}
              </Select>
              <p id="invite-role-hint" className="text-xs text-faint">
                {roleDescriptions[role]}
              </p>
            </div>
            <DialogFooter>
              <Button type="submit" disabled={invite.isPending}>
                {invite.isPending ? "Creating link…" : "Create invitation link"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
