"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { startSession } from "@/server/auth/session";
import { isAppError } from "@/server/errors";
import { clientIp } from "@/server/http/client-ip";
import { takeToken } from "@/server/oauth/rate-limit";
import { signUpPartner } from "@/server/services/account";

// Partner sign-up: a new organisation with sandbox access and its owner login,
// signed in at once. A plain server action, so the form works without JavaScript.

export interface PartnerSignUpState {
  error?: string;
  fields?: { company?: string; name?: string; email?: string; paymentModel?: string };
}

const schema = z.object({
  company: z.string().trim().min(2, "Enter your company's name.").max(120),
  name: z.string().trim().max(120),
  email: z.string().trim().toLowerCase().max(320).pipe(z.email("Enter a valid email address.")),
  password: z.string().min(8, "Choose a password of at least 8 characters.").max(1024),
  paymentModel: z.enum(["mor", "non_mor"], { error: "Choose how your buyers pay." }),
});

const SIGN_UPS_PER_HOUR_PER_IP = 20;

export async function signUpPartnerAction(_previous: PartnerSignUpState, form: FormData): Promise<PartnerSignUpState> {
  const fields = {
    company: String(form.get("company") ?? ""),
    name: String(form.get("name") ?? ""),
    email: String(form.get("email") ?? ""),
    paymentModel: String(form.get("paymentModel") ?? ""),
  };
  const parsed = schema.safeParse({ ...fields, password: form.get("password") ?? "" });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the form and try again.", fields };
  const db = getDb();
  const limit = await takeToken(db, `sign-up:${clientIp(await headers())}`, SIGN_UPS_PER_HOUR_PER_IP, 3_600_000);
  if (!limit.allowed) return { error: "Too many new accounts from your network. Try again later.", fields };
  let created: { userId: string; partnerId: string };
  try {
    created = await signUpPartner(db, { ...parsed.data, name: parsed.data.name || undefined });
  } catch (error) {
    if (isAppError(error) && error.code === "conflict") return { error: "An account with this email already exists. Sign in instead.", fields };
    throw error;
  }
  await startSession({ id: created.userId, email: parsed.data.email, name: parsed.data.name || null, role: "partner", partnerId: created.partnerId, sessionVersion: 0 });
  redirect("/dashboard?welcome=1");
}
