"use client";

import { useActionState } from "react";
import { Alert, Button, Field } from "@/components/ui";
import { signInAction, type SignInState } from "@/server/auth/actions";

export interface SignInFormProps {
  callbackUrl: string;
  initialError?: string;
}

// A plain <form> bound to a server action: it submits as a normal POST before
// hydration or with JavaScript off, and without a page reload once hydrated.
export function SignInForm({ callbackUrl, initialError }: SignInFormProps) {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(signInAction, { error: initialError });
  return (
    <form action={formAction} className="space-y-4">
      {state.error ? <Alert tone="danger">{state.error}</Alert> : null}
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      <Field
        id="email"
        name="email"
        type="email"
        label="Email"
        autoComplete="username"
        inputMode="email"
        required
        autoFocus
        defaultValue={state.email}
      />
      <Field id="password" name="password" type="password" label="Password" autoComplete="current-password" required />
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
