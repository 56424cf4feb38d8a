"use client";

import { useActionState } from "react";
import { Alert, Button, Field, Label, inputClasses } from "@/components/ui";
import { payAction, type PayState } from "./actions";

export interface CheckoutFormProps {
  token: string;
  priceLabel: string;
  countries: readonly { code: string; name: string }[];
  defaultEmail?: string;
  sandbox: boolean;
}

// A plain <form> bound to a server action: it posts normally before hydration
// or with JavaScript off. Errors render into an alert (role="alert") and next
// to each field (aria-describedby), so screen readers announce them.
export function CheckoutForm({ token, priceLabel, countries, defaultEmail, sandbox }: CheckoutFormProps) {
  const [state, formAction, pending] = useActionState<PayState, FormData>(payAction, {});
  const errors = state.fieldErrors ?? {};
  const values = state.values;
  return (
    <form action={formAction} className="space-y-5" noValidate>
      {state.error ? (
        <Alert tone="danger" title="Payment not completed" data-testid="checkout-error">
          {state.error}
        </Alert>
      ) : null}
      <input type="hidden" name="pt" value={token} />

      <fieldset className="space-y-4">
        <legend className="text-sm font-semibold text-ink">Contact</legend>
        <Field id="email" name="email" type="email" label="Email" autoComplete="email" inputMode="email" required
          defaultValue={values?.email ?? defaultEmail} error={errors.email} hint="Your receipt and transfer instructions go here." />
        <Field id="name" name="name" label="Full name" autoComplete="name" required defaultValue={values?.name} error={errors.name} />
        <div className="space-y-1.5">
          <Label htmlFor="country">Country</Label>
          <select
            key={state.attempt ?? 0}
            id="country"
            name="country"
            required
            autoComplete="country"
            defaultValue={values?.country ?? ""}
            aria-invalid={errors.country ? true : undefined}
            aria-describedby={errors.country ? "country-error" : undefined}
            className={inputClasses}
          >
            <option value="" disabled>
              Choose a country
            </option>
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {errors.country ? (
            <p id="country-error" className="text-xs font-medium text-danger-ink">
              {errors.country}
            </p>
          ) : null}
        </div>
      </fieldset>

      <fieldset className="space-y-4">
        <legend className="text-sm font-semibold text-ink">Card</legend>
        <Field id="card_number" name="card_number" label="Card number" autoComplete="cc-number" inputMode="numeric"
          placeholder="1234 1234 1234 1234" required error={errors.card_number}
          hint={sandbox ? "Sandbox: use 4242 4242 4242 4242 with any future date and any CVC." : undefined} />
        <div className="grid grid-cols-2 gap-4">
          <Field id="card_expiry" name="card_expiry" label="Expiry (MM/YY)" autoComplete="cc-exp" inputMode="numeric"
            placeholder="MM/YY" required error={errors.card_expiry} />
          <Field id="card_cvc" name="card_cvc" label="CVC" autoComplete="cc-csc" inputMode="numeric" placeholder="123"
            maxLength={4} required error={errors.card_cvc} />
        </div>
      </fieldset>

      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {pending ? "Processing…" : `Pay ${priceLabel}`}
      </Button>
    </form>
  );
}
