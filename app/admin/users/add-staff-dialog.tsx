"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { Alert, Button, CopyButton, Dialog, DialogContent, DialogFooter, DialogTrigger, Field, Label } from "@/components/ui";

// Add a staff member: the console makes the login with a generated password,
// shown once here to pass on (there is no mail server for an invitation).

export function AddStaffDialog() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const add = useMutation(trpc.admin.users.addStaff.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.admin.users.pathKey() }) }));

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    add.mutate({ email: String(form.get("email") ?? ""), name: String(form.get("name") ?? "") || undefined });
  };
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) add.reset();
  };
  const created = add.data;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button>Add staff</Button>
      </DialogTrigger>
      <DialogContent
        title={created ? "Staff login ready" : "Add a staff member"}
        description={
          created
            ? "Give them this password yourself; it is shown only now. They sign in at /sign-in and land on the admin console."
            : "They get full access to this console. A password is generated for them."
        }
      >
        {created ? (
          <div className="space-y-4">
            <div className="space-y-1.5">
              <Label htmlFor="staff-password">Password for {created.email}</Label>
              <div className="flex gap-2">
                <input
                  id="staff-password"
                  readOnly
                  value={created.generatedPassword ?? ""}
                  className="min-w-0 flex-1 rounded-md border border-line bg-subtle px-3 py-2 font-mono text-xs text-ink"
                  data-testid="staff-password"
                />
                <CopyButton value={created.generatedPassword ?? ""} label="Copy password" />
              </div>
            </div>
            <DialogFooter>
              <Button onClick={() => onOpenChange(false)}>Done</Button>
            </DialogFooter>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="space-y-4" noValidate>
            {add.error ? <Alert tone="danger">{add.error.message}</Alert> : null}
            <Field id="staff-email" name="email" type="email" label="Email" autoComplete="off" required />
            <Field id="staff-name" name="name" label="Name (optional)" autoComplete="off" />
            <DialogFooter>
              <Button type="submit" disabled={add.isPending}>
                {add.isPending ? "Creating…" : "Create staff login"}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
