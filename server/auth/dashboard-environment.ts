import { cookies } from "next/headers";
import type { Environment } from "@/db/schema";
import { ENVIRONMENT_COOKIE, environmentFrom } from "./environment";

/** The environment the dashboard shows, for server components (the tRPC context reads the same cookie). */
export async function getDashboardEnvironment(): Promise<Environment> {
  return environmentFrom((await cookies()).get(ENVIRONMENT_COOKIE)?.value);
}
