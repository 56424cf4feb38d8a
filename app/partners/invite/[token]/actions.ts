"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { getDb } from "@/db/client";
import { startSession } from "@/server/auth/session";
import { isAppError } from "@/server/errors";
import { acceptInvitation } from "@/server/services/team";

// Accepting a team invitation: choose a password, join, signed in at once.
// A plain server action, so the form works without JavaScript.

export interface AcceptState {
  error?: string;
  name?: string;
}

const schema = z.object({
  token: z.string().max(100),
  name: z.string().trim().max(120),
  password: z.string().min(8, "Choose a password of at least 8 characters.").max(1024),
});

export async function acceptInvitationAction(_previous: AcceptState, form: FormData): Promise<AcceptState> {
  const name = String(form.get("name") ?? "");
  const parsed = schema.safeParse({ token: form.get("token") ?? "", name, password: form.get("password") ?? "" });
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? "Check the form and try again.", name };
  let joined: Awaited<ReturnType<typeof acceptInvitation>>;
  try {
    joined = await acceptInvitation(getDb(), { token: parsed.data.token, name: parsed.data.name || undefined, password: parsed.data.password });
  } catch (error) {
    if (isAppError(error)) return { error: error.message, name };
    throw error;
  }
  await startSession({ id: joined.userId, email: joined.email, name: joined.name, role: "partner", partnerId: joined.partnerId, sessionVersion: joined.sessionVersion });
  redirect("/dashboard?joined=1");
}
