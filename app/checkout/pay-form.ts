import type { Database } from "@/db/client";
import { retryInWords, takePayAttempt } from "@/server/http/abuse-limits";
import { parseExpiry } from "@/server/payments/card";
import { payCheckoutSession, returnUrlWithOrder } from "@/server/services/checkout";
import { checkoutBuyerSchema } from "./buyer";

// The hosted checkout's pay form, as its server action (actions.ts) runs it:
// from the posted fields and the caller's address to either the state the form
// shows again or the page the buyer goes to. Apart from the action (which needs
// Next's request scope) so the crash harness posts to the very same code over
// HTTP (tests/helpers/gate-server.ts, POST /checkout/pay).

export type PayField = "email" | "name" | "country" | "card_number" | "card_expiry" | "card_cvc";

export interface PayState {
  error?: string;
  fieldErrors?: Partial<Record<PayField, string>>;
  /** What the buyer typed, except card details. */
  values?: { email: string; name: string; country: string };
  /** Counts answers, so the form can remount fields React's form reset does not restore (select). */
  attempt?: number;
}

export type PayFormResult = { kind: "state"; state: PayState } | { kind: "redirect"; location: string };

export async function submitPayForm(db: Database, previous: PayState, form: FormData, ip: string): Promise<PayFormResult> {
  const attempt = (previous.attempt ?? 0) + 1;
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const token = text("pt");
  const values = { email: text("email"), name: text("name"), country: text("country") };
  const fieldErrors: PayState["fieldErrors"] = {};
  const show = (state: PayState): PayFormResult => ({ kind: "state", state: { ...state, values, attempt } });

  const buyer = checkoutBuyerSchema.safeParse(values);
  if (!buyer.success) {
    for (const issue of buyer.error.issues) fieldErrors[issue.path[0] as PayField] ??= issue.message;
  }
  const expiry = parseExpiry(text("card_expiry"));
  if (!expiry) fieldErrors.card_expiry = "Enter the expiry date as MM/YY.";
  if (!buyer.success || !expiry) return show({ error: "Check the highlighted fields and try again.", fieldErrors });

  const limited = await takePayAttempt(db, token, ip);
  if (!limited.allowed) return show({ error: `Too many payment attempts. ${retryInWords(limited.retryAfterSeconds)} No payment was taken.` });
  const outcome = await payCheckoutSession(db, {
    token,
    buyer: buyer.data,
    card: { number: text("card_number"), expMonth: expiry.month, expYear: expiry.year, cvc: text("card_cvc") },
  });
  switch (outcome.kind) {
    case "card_invalid":
      for (const problem of outcome.problems) fieldErrors[problem.field] ??= problem.message;
      return show({ error: "Check your card details and try again.", fieldErrors });
    case "processing":
      return show({ error: "A payment for this checkout is already being processed. Wait a moment, then reload the page." });
    case "declined":
      return show({ error: `${outcome.message} No payment was taken. Try another card.` });
    case "succeeded":
      return { kind: "redirect", location: outcome.returnUrl ? returnUrlWithOrder(outcome.returnUrl, outcome.order.id) : checkoutPage(token) };
    default:
      // Paid meanwhile, expired, unavailable or not a real link: the page explains.
      return { kind: "redirect", location: checkoutPage(token) };
  }
}

export function checkoutPage(token: string): string {
  return `/checkout?pt=${encodeURIComponent(token)}`;
}
