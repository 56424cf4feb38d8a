"use client";

import { useActionState } from "react";
import { Alert, Button, Field } from "@/components/ui";
import { BuyerFields } from "./buyer-fields";
import { payAction } from "./actions";
import type { PayState } from "./pay-form";

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

      <BuyerFields
        countries={countries}
        errors={errors}
        defaults={{ email: values?.email ?? defaultEmail, name: values?.name, country: values?.country }}
        countryKey={state.attempt ?? 0}
      />

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
