import type { Environment } from "@/db/schema";

// The dashboard's sandbox/live switch (Stripe's test-mode toggle): one cookie,
// read by server components and by the tRPC context, so every query of a page
// is scoped to the same environment. Sandbox unless the cookie says live.

export const ENVIRONMENT_COOKIE = "pdm_env";

export function environmentFrom(value: string | undefined | null): Environment {
  return value === "live" ? "live" : "sandbox";
}
