"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { clientIp } from "@/server/http/client-ip";
import { getDb } from "@/db/client";
import { authenticateUser, signInRetryMessage, signInSchema } from "./credentials";
import { safeCallbackPath } from "./redirects";
import { endSession, startSession } from "./session";

// Server actions behind the sign-in and sign-out forms. As actions they work as
// ordinary form POSTs before (or without) JavaScript, and Next checks the Origin
// header on them, which is the CSRF protection next-auth's token would give.

export interface SignInState {
  error?: string;
  email?: string;
}

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get("email") ?? "");
  const parsed = signInSchema.safeParse({ email, password: form.get("password") ?? "" });
  if (!parsed.success) return { error: "Enter your email address and password.", email };
  const result = await authenticateUser(getDb(), parsed.data, clientIp(await headers()));
  if (!result.ok) {
    return {
      error:
        result.reason === "rate_limited"
          ? signInRetryMessage(result.retryAfterSeconds)
          : result.reason === "disabled"
            ? "This account has been disabled. Contact your administrator."
            : "Incorrect email or password.",
      email,
    };
  }
  await startSession(result.user);
  redirect(safeCallbackPath(form.get("callbackUrl")));
}

export async function signOutAction(): Promise<void> {
  await endSession();
  redirect("/sign-in?signedOut=1");
}
