"use server";

import { redirect } from "next/navigation";
import { getDb } from "@/db/client";
import { getSessionUser } from "@/server/auth/session";
import { signInPath } from "@/server/auth/redirects";
import {
  AUTHORIZE_PARAMS,
  approveAuthorization,
  denyAuthorization,
  validateAuthorization,
  type AuthorizeParams,
} from "@/server/oauth/authorize";

// The consent form's POST. Nothing from the form is trusted: the request is
// validated again exactly as the page did, and the user comes from the session.
// Next checks the Origin header on server actions (the CSRF defence).

export async function consentAction(form: FormData): Promise<void> {
  const params: AuthorizeParams = {};
  const query = new URLSearchParams();
  for (const key of AUTHORIZE_PARAMS) {
    const values = form.getAll(key).map(String);
    if (values.length === 0) continue;
    params[key] = values.length === 1 ? values[0] : values;
    for (const value of values) query.append(key, value);
  }
  const db = getDb();
  const outcome = await validateAuthorization(db, params);
  if (outcome.kind !== "consent") redirect(`/oauth/authorize?${query}`); // the page shows what is wrong
  if (form.get("decision") !== "allow") redirect(denyAuthorization(outcome.request));
  const user = await getSessionUser();
  if (!user) redirect(signInPath(`/oauth/authorize?${query}`));
  redirect(await approveAuthorization(db, outcome.request, user.id));
}
