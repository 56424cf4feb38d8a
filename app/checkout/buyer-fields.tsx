import type { Key } from "react";
import { Field, Label, inputClasses } from "@/components/ui";

// Who is paying: the contact fieldset both checkout forms share (the sandbox's
// card form and the live Stripe form), with each field's error beside it.

export interface BuyerFieldsProps {
  countries: readonly { code: string; name: string }[];
  errors: Partial<Record<"email" | "name" | "country", string>>;
  defaults?: { email?: string; name?: string; country?: string };
  /** A new key resets the country select to its default (after a failed attempt). */
  countryKey?: Key;
}

export function BuyerFields({ countries, errors, defaults, countryKey }: BuyerFieldsProps) {
  return (
    <fieldset className="space-y-4">
      <legend className="text-sm font-semibold text-ink">Contact</legend>
      <Field id="email" name="email" type="email" label="Email" autoComplete="email" inputMode="email" required
        defaultValue={defaults?.email} error={errors.email} hint="Your receipt and transfer instructions go here." />
      <Field id="name" name="name" label="Full name" autoComplete="name" required defaultValue={defaults?.name} error={errors.name} />
      <div className="space-y-1.5">
        <Label htmlFor="country">Country</Label>
        <select
          key={countryKey}
          id="country"
          name="country"
          required
          autoComplete="country"
          defaultValue={defaults?.country ?? ""}
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
  );
}
