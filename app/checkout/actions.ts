"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { parseExpiry } from "@/server/payments/card";
import { payCheckoutSession, returnUrlWithOrder } from "@/server/services/checkout";
import { saveIntentBuyer } from "@/server/services/checkout-intents";
import { checkoutBuyerSchema } from "./buyer";
import { retryInWords, takePayAttempt } from "@/server/http/abuse-limits";
import { clientIp } from "@/server/http/client-ip";

// The hosted checkout form's server action. As an action it works as a plain
// form POST without JavaScript; Next checks the Origin header (CSRF). Card
// details are never echoed back into the page or logged.

export type PayField = "email" | "name" | "country" | "card_number" | "card_expiry" | "card_cvc";

export interface PayState {
  error?: string;
  fieldErrors?: Partial<Record<PayField, string>>;
  /** What the buyer typed, except card details. */
  values?: { email: string; name: string; country: string };
  /** Counts answers, so the form can remount fields React's form reset does not restore (select). */
  attempt?: number;
}


export async function payAction(previous: PayState, form: FormData): Promise<PayState> {
  const attempt = (previous.attempt ?? 0) + 1;
  const text = (name: string) => String(form.get(name) ?? "").trim();
  const token = text("pt");
  const values = { email: text("email"), name: text("name"), country: text("country") };
  const fieldErrors: PayState["fieldErrors"] = {};

  const buyer = checkoutBuyerSchema.safeParse(values);
  if (!buyer.success) {
    for (const issue of buyer.error.issues) fieldErrors[issue.path[0] as PayField] ??= issue.message;
  }
  const expiry = parseExpiry(text("card_expiry"));
  if (!expiry) fieldErrors.card_expiry = "Enter the expiry date as MM/YY.";
  if (!buyer.success || !expiry) {
    return { error: "Check the highlighted fields and try again.", fieldErrors, values, attempt };
  }

  const db = getDb();
  const limited = await takePayAttempt(db, token, clientIp(await headers()));
  if (!limited.allowed) {
    return { error: `Too many payment attempts. ${retryInWords(limited.retryAfterSeconds)} No payment was taken.`, values, attempt };
  }
  const outcome = await payCheckoutSession(db, {
    token,
    buyer: buyer.data,
    card: { number: text("card_number"), expMonth: expiry.month, expYear: expiry.year, cvc: text("card_cvc") },
  });
  switch (outcome.kind) {
    case "card_invalid":
      for (const problem of outcome.problems) fieldErrors[problem.field] ??= problem.message;
      return { error: "Check your card details and try again.", fieldErrors, values, attempt };
    case "processing":
      return { error: "A payment for this checkout is already being processed. Wait a moment, then reload the page.", values, attempt };
    case "declined":
      return { error: `${outcome.message} No payment was taken. Try another card.`, values, attempt };
    case "succeeded":
      redirect(outcome.returnUrl ? returnUrlWithOrder(outcome.returnUrl, outcome.order.id) : checkoutPage(token));
    default:
      // Paid meanwhile, expired, unavailable or not a real link: the page explains.
      redirect(checkoutPage(token));
  }
}

function checkoutPage(token: string): string {
  return `/checkout?pt=${encodeURIComponent(token)}`;
}

export interface BuyerState {
  ok?: boolean;
  error?: string;
  fieldErrors?: Partial<Record<"email" | "name" | "country", string>>;
}

/**
 * Before the live form confirms payment with Stripe: who is paying (never card
 * details, which go only into Stripe's iframes), saved on the session's intent.
 */
export async function saveBuyerAction(token: string, values: { email: string; name: string; country: string }): Promise<BuyerState> {
  const buyer = checkoutBuyerSchema.safeParse({ email: values.email.trim(), name: values.name.trim(), country: values.country });
  if (!buyer.success) {
    const fieldErrors: BuyerState["fieldErrors"] = {};
    for (const issue of buyer.error.issues) fieldErrors[issue.path[0] as "email" | "name" | "country"] ??= issue.message;
    return { error: "Check the highlighted fields and try again.", fieldErrors };
  }
  const db = getDb();
  const limited = await takePayAttempt(db, token, clientIp(await headers()));
  if (!limited.allowed) return { error: `Too many payment attempts. ${retryInWords(limited.retryAfterSeconds)} No payment was taken.` };
  const saved = await saveIntentBuyer(db, token, buyer.data);
  if (saved === "closed") return { error: "This checkout can no longer be paid. Reload the page to see why." };
  return { ok: true };
}
