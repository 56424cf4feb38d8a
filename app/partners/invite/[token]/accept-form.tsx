"use client";

import { useActionState } from "react";
import { Alert, Button, Field } from "@/components/ui";
import { acceptInvitationAction, type AcceptState } from "./actions";

export function AcceptInvitationForm({ token, email }: { token: string; email: string }) {
  const [state, formAction, pending] = useActionState<AcceptState, FormData>(acceptInvitationAction, {});
  return (
    <form action={formAction} className="space-y-4">
      {state.error ? <Alert tone="danger">{state.error}</Alert> : null}
      <input type="hidden" name="token" value={token} />
      <Field id="email" name="email" type="email" label="Email" value={email} readOnly autoComplete="username" hint="The address you were invited at." />
      <Field id="name" name="name" label="Your name" autoComplete="name" defaultValue={state.name} />
      <Field id="password" name="password" type="password" label="Password" autoComplete="new-password" minLength={8} hint="At least 8 characters." required />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? "Joining…" : "Join the team"}
      </Button>
    </form>
  );
}
