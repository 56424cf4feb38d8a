"use server";

import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { isAppError } from "@/server/errors";
import { createCheckoutSession } from "@/server/services/checkout";
import { ATTRIBUTION_COOKIE, readAttribution } from "@/server/services/referrals";
import { STOREFRONT_ENVIRONMENT } from "@/server/services/storefront";
import { takeBuyNow } from "@/server/http/abuse-limits";
import { clientIp } from "@/server/http/client-ip";

// "Buy now" on a storefront domain page: a storefront checkout session (no
// partner, channel marketplace) carrying the visitor's referral attribution,
// then the same hosted checkout page partners send their buyers to.

export async function buyNowAction(form: FormData): Promise<void> {
  const domain = String(form.get("domain") ?? "");
  const referral = readAttribution((await cookies()).get(ATTRIBUTION_COOKIE)?.value);
  const limited = await takeBuyNow(getDb(), clientIp(await headers()));
  if (!limited.allowed) redirect(`/domains/${encodeURIComponent(domain)}?busy=${limited.retryAfterSeconds}`);
  let token: string;
  try {
    const created = await createCheckoutSession(getDb(), {
      partnerId: null,
      environment: STOREFRONT_ENVIRONMENT,
      domain,
      cancelUrl: undefined,
      referral,
    });
    token = created.token;
  } catch (error) {
    if (isAppError(error) && (error.code === "conflict" || error.code === "not_found" || error.code === "validation_error")) {
      redirect(`/domains/${encodeURIComponent(domain)}?unavailable=1`);
    }
    throw error;
  }
  redirect(`/checkout?pt=${encodeURIComponent(token)}`);
}
