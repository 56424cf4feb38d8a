"use client";

import { useEffect, useState, type FormEvent } from "react";
import { Elements, PaymentElement, useElements, useStripe } from "@stripe/react-stripe-js";
// The pure entry point loads Stripe.js only when loadStripe is called (this form), never on import.
import { loadStripe } from "@stripe/stripe-js/pure";
import type { Stripe } from "@stripe/stripe-js";
import { Alert, Button } from "@/components/ui";
import { BuyerFields } from "./buyer-fields";
import { saveBuyerAction, type BuyerState } from "./actions";

// The live (and Stripe test-mode) payment form: our page asks who is paying;
// the card is typed only into Stripe's Payment Element iframes, so no card
// field exists on our page (SAQ A). Confirmation redirects back to the
// checkout page, which reads the intent's status on the server.

export interface StripePaymentFormProps {
  token: string;
  publishableKey: string;
  clientSecret: string;
  priceLabel: string;
  countries: readonly { code: string; name: string }[];
  defaultEmail?: string;
  /** The last attempt's decline, read from the intent on the server. */
  lastError: string | null;
  testMode: boolean;
}

/** How long Stripe.js may take before the page says it could not load. */
const LOAD_TIMEOUT_MS = 15_000;

type Loaded = { state: "loading" } | { state: "ready"; stripe: Stripe } | { state: "failed" };

export function StripePaymentForm(props: StripePaymentFormProps) {
  const [loaded, setLoaded] = useState<Loaded>({ state: "loading" });
  useEffect(() => {
    let done = false;
    const timer = setTimeout(() => {
      if (!done) setLoaded({ state: "failed" });
    }, LOAD_TIMEOUT_MS);
    loadStripe(props.publishableKey).then(
      (stripe) => {
        done = true;
        setLoaded(stripe ? { state: "ready", stripe } : { state: "failed" });
      },
      () => {
        done = true;
        setLoaded({ state: "failed" });
      },
    );
    return () => clearTimeout(timer);
  }, [props.publishableKey]);

  const declined = props.lastError ? (
    <Alert tone="danger" title="Payment not completed" data-testid="checkout-declined">
      {props.lastError} No payment was taken. Try again, or use another card.
    </Alert>
  ) : null;
  if (loaded.state !== "ready") {
    return (
      <div className="space-y-4">
        {declined}
        <div id="payment-element" data-testid="payment-element" className="min-h-24 rounded-lg border border-line p-4 text-sm text-muted">
          {loaded.state === "loading" ? "Loading the secure card form…" : "The secure card form is unavailable."}
        </div>
        {loaded.state === "failed" ? (
          <Alert tone="danger" title="The card form could not load" data-testid="stripe-load-error">
            Our payment processor&apos;s secure form (Stripe.js) did not load, so this page cannot take a payment right now. Check your
            connection or turn off any blocker for js.stripe.com, then reload the page. Nothing was charged.
          </Alert>
        ) : null}
      </div>
    );
  }
  return (
    <div className="space-y-5">
      {declined}
      <Elements stripe={loaded.stripe} options={{ clientSecret: props.clientSecret }}>
        <ConfirmForm {...props} />
      </Elements>
    </div>
  );
}

function ConfirmForm({ token, priceLabel, countries, defaultEmail, testMode }: StripePaymentFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const [pending, setPending] = useState(false);
  const [state, setState] = useState<BuyerState>({});
  const errors = state.fieldErrors ?? {};

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!stripe || !elements) return;
    const form = new FormData(event.currentTarget);
    const values = { email: String(form.get("email") ?? ""), name: String(form.get("name") ?? ""), country: String(form.get("country") ?? "") };
    setPending(true);
    try {
      const checked = await elements.submit();
      if (checked.error) {
        setState({ error: checked.error.message ?? "Check your card details and try again." });
        return;
      }
      const saved = await saveBuyerAction(token, values);
      if (!saved.ok) {
        setState(saved);
        return;
      }
      // On success Stripe redirects to return_url; the page there reads the intent on the server.
      const { error } = await stripe.confirmPayment({
        elements,
        confirmParams: {
          return_url: window.location.href.split("#")[0]!,
          receipt_email: values.email.trim(),
        },
      });
      setState({ error: `${error.message ?? "The payment did not go through."} No payment was taken.` });
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={(event) => void submit(event)} className="space-y-5" noValidate>
      {state.error ? (
        <Alert tone="danger" title="Payment not completed" data-testid="checkout-error">
          {state.error}
        </Alert>
      ) : null}
      <BuyerFields countries={countries} errors={errors} defaults={{ email: defaultEmail }} />
      <fieldset className="space-y-3">
        <legend className="text-sm font-semibold text-ink">Payment</legend>
        {testMode ? <p className="text-xs text-muted">Stripe test mode: use 4242 4242 4242 4242 with any future date and any CVC.</p> : null}
        <div id="payment-element" data-testid="payment-element">
          <PaymentElement options={{ layout: "tabs" }} />
        </div>
      </fieldset>
      <Button type="submit" size="lg" className="w-full" disabled={pending || !stripe || !elements}>
        {pending ? "Processing…" : `Pay ${priceLabel}`}
      </Button>
    </form>
  );
}
