import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { resolveDatabaseUrl } from "@/db/embedded";
import { getEnv } from "@/server/env";

/**
 * What a deploy-stage test of the standalone build needs before it starts a command:
 * a scratch database named after the stage's own (so a run touches only names of its
 * prefix; created and dropped by the test through `admin`) and the environment every
 * command of one deployment shares. The credentials the test creates are sealed with
 * this process's SECRET_KEY, so the commands get the same key.
 */
export function standaloneStage(label: string) {
  const base = new URL(resolveDatabaseUrl());
  const dbName = `${base.pathname.slice(1)}_${label}_${randomBytes(4).toString("hex")}`;
  const dbUrl = Object.assign(new URL(base.href), { pathname: `/${dbName}` }).href;
  return {
    admin: postgres(base.href, { max: 1, onnotice: () => {} }),
    dbName,
    dbUrl,
    shared: {
      DATABASE_URL: dbUrl,
      SECRET_KEY: getEnv().SECRET_KEY,
      NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      NEXT_TELEMETRY_DISABLED: "1",
      PATH: process.env.PATH,
      HOME: process.env.HOME,
    },
  };
}
