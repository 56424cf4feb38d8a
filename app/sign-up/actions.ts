"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { signUpSchema } from "@/server/auth/credentials";
import { safeCallbackPath } from "@/server/auth/redirects";
import { startSession } from "@/server/auth/session";
import { isAppError } from "@/server/errors";
import { takeToken } from "@/server/oauth/rate-limit";
import { createUser } from "@/server/services/partners";
import { clientIp } from "@/server/http/client-ip";

// Sign-up for marketplace (customer) accounts, used by people authorizing an
// OAuth application. A plain server action, so the form works without JavaScript.

export interface SignUpState {
  error?: string;
  email?: string;
  name?: string;
}


const SIGN_UPS_PER_HOUR_PER_IP = 20;

export async function signUpAction(_previous: SignUpState, form: FormData): Promise<SignUpState> {
  const name = String(form.get("name") ?? "");
  const email = String(form.get("email") ?? "");
  const parsed = signUpSchema.safeParse({ name, email, password: form.get("password") ?? "" });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path[0];
    const message =
      field === "password"
        ? "Choose a password of at least 8 characters."
        : field === "email"
          ? "Enter a valid email address."
          : "Check the form and try again.";
    return { error: message, email, name };
  }
  const db = getDb();
  const ip = clientIp(await headers());
  const limit = await takeToken(db, `sign-up:${ip}`, SIGN_UPS_PER_HOUR_PER_IP, 3_600_000);
  if (!limit.allowed) return { error: "Too many new accounts from your network. Try again later.", email, name };
  let userId: string;
  try {
    ({ userId } = await createUser(db, {
      email: parsed.data.email,
      name: parsed.data.name || undefined,
      password: parsed.data.password,
      role: "customer",
    }));
  } catch (error) {
    if (isAppError(error) && error.code === "conflict") {
      return { error: "An account with this email already exists. Sign in instead.", email, name };
    }
    throw error;
  }
  await startSession({
    id: userId,
    email: parsed.data.email,
    name: parsed.data.name || null,
    role: "customer",
    partnerId: null,
    sessionVersion: 0, // a new account
  });
  redirect(safeCallbackPath(form.get("callbackUrl"), "/"));
}
