"use client";

import { useActionState } from "react";
import { Alert, Button, Field } from "@/components/ui";
import { signUpAction, type SignUpState } from "./actions";

// A plain <form> bound to a server action: works as a normal POST without JavaScript.
export function SignUpForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, formAction, pending] = useActionState<SignUpState, FormData>(signUpAction, {});
  return (
    <form action={formAction} className="space-y-4">
      {state.error ? <Alert tone="danger">{state.error}</Alert> : null}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field id="name" name="name" label="Name" autoComplete="name" defaultValue={state.name} />
      <Field
        id="email"
        name="email"
        type="email"
        label="Email"
        autoComplete="username"
        inputMode="email"
        required
        defaultValue={state.email}
      />
      <Field
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        minLength={8}
        hint="At least 8 characters."
        required
      />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? "Creating account…" : "Create account"}
      </Button>
    </form>
  );
}
