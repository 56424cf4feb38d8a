import { checkProductionProcess, EnvError, getEnv, type Env } from "@/server/env";

/**
 * The settings check of the release commands (npm run migrate, web, worker and
 * their bundles in the standalone output): a mistake ends the start with its
 * sentence and exit 1, never a stack trace.
 */
export function loadSettingsOrExit(role: "migrate" | "web" | "worker"): Env {
  try {
    const env = getEnv();
    checkProductionProcess(env, role);
    return env;
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
