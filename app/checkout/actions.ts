"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { saveIntentBuyer } from "@/server/services/checkout-intents";
import { checkoutBuyerSchema } from "./buyer";
import { submitPayForm, type PayState } from "./pay-form";
import { retryInWords, takePayAttempt } from "@/server/http/abuse-limits";
import { clientIp } from "@/server/http/client-ip";

// The hosted checkout form's server action. As an action it works as a plain
// form POST without JavaScript; Next checks the Origin header (CSRF). Card
// details are never echoed back into the page or logged.

export async function payAction(previous: PayState, form: FormData): Promise<PayState> {
  const result = await submitPayForm(getDb(), previous, form, clientIp(await headers()));
  if (result.kind === "redirect") redirect(result.location);
  return result.state;
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
