"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { ENVIRONMENT_COOKIE, environmentFrom } from "./environment";

/** The header's sandbox/live switch: remembered for a year, for this browser. */
export async function setEnvironmentAction(form: FormData): Promise<void> {
  const environment = environmentFrom(String(form.get("environment") ?? ""));
  (await cookies()).set(ENVIRONMENT_COOKIE, environment, { path: "/", sameSite: "lax", httpOnly: true, maxAge: 365 * 86_400 });
  revalidatePath("/dashboard", "layout");
}
