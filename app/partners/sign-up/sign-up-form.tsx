"use client";

import { useActionState } from "react";
import { Alert, Button, Field } from "@/components/ui";
import { signUpPartnerAction, type PartnerSignUpState } from "./actions";

const models = [
  { value: "non_mor", label: "Hosted checkout", hint: "Buyers pay on our checkout page; you earn a commission." },
  { value: "mor", label: "Merchant of record", hint: "You charge buyers yourself and record each sale with the API." },
] as const;

export function PartnerSignUpForm() {
  const [state, formAction, pending] = useActionState<PartnerSignUpState, FormData>(signUpPartnerAction, {});
  const chosen = state.fields?.paymentModel || "non_mor";
  return (
    <form action={formAction} className="space-y-4">
      {state.error ? <Alert tone="danger">{state.error}</Alert> : null}
      <Field id="company" name="company" label="Company" autoComplete="organization" required defaultValue={state.fields?.company} />
      <Field id="name" name="name" label="Your name" autoComplete="name" defaultValue={state.fields?.name} />
      <Field id="email" name="email" type="email" label="Work email" autoComplete="username" inputMode="email" required defaultValue={state.fields?.email} />
      <Field id="password" name="password" type="password" label="Password" autoComplete="new-password" minLength={8} hint="At least 8 characters." required />
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-ink">How do your buyers pay?</legend>
        {models.map((model) => (
          <label key={model.value} className="flex cursor-pointer gap-3 rounded-lg border border-line p-3 has-[:checked]:border-brand has-[:checked]:bg-brand-soft/40">
            <input type="radio" name="paymentModel" value={model.value} defaultChecked={chosen === model.value} className="mt-1 accent-brand" />
            <span>
              <span className="block text-sm font-medium text-ink">{model.label}</span>
              <span className="block text-xs text-muted">{model.hint}</span>
            </span>
          </label>
        ))}
        <p className="text-xs text-faint">Staff can change this later; rates are set when production access is approved.</p>
      </fieldset>
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? "Creating your sandbox…" : "Create partner account"}
      </Button>
    </form>
  );
}
