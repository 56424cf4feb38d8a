import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";
import { checkProductionProcess, EnvError, loadEnv } from "@/server/env";

// What the release commands (migrate, web, worker) need in production beyond
// loadEnv: a real database, and for web one Server Actions key on every instance.

const production = { APP_ENV: "production", SECRET_KEY: "x".repeat(40), DATA_DIR: "/tmp/pdm-unit-env" };
const key = randomBytes(32).toString("base64");
const refusal = (pattern: RegExp) => (error: Error) => error instanceof EnvError && pattern.test(error.message);

describe("release command settings", () => {
  it("production needs DATABASE_URL for every command, and the web server the Server Actions key", () => {
    const noDatabase = loadEnv(production);
    for (const role of ["migrate", "web", "worker"] as const) {
      assert.throws(() => checkProductionProcess(noDatabase, role), refusal(/^Invalid settings:\n {2}DATABASE_URL: required in production/));
    }
    const withDatabase = loadEnv({ ...production, DATABASE_URL: "postgres://app@db/market" });
    assert.doesNotThrow(() => checkProductionProcess(withDatabase, "worker"));
    assert.doesNotThrow(() => checkProductionProcess(withDatabase, "migrate"));
    assert.throws(() => checkProductionProcess(withDatabase, "web"), refusal(/NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: required in production, the same on every web instance/));
    const web = loadEnv({ ...production, DATABASE_URL: "postgres://app@db/market", NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: key });
    assert.doesNotThrow(() => checkProductionProcess(web, "web"));
  });

  it("development needs neither (the embedded database, the build's own key)", () => {
    assert.doesNotThrow(() => checkProductionProcess(loadEnv({ DATA_DIR: "/tmp/pdm-unit-env", SECRET_KEY: "x".repeat(40) }), "web"));
  });

  it("the Server Actions key must be an AES key in base64", () => {
    for (const good of [randomBytes(16), randomBytes(24), randomBytes(32)].map((b) => b.toString("base64"))) {
      assert.equal(loadEnv({ ...production, NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: good }).NEXT_SERVER_ACTIONS_ENCRYPTION_KEY, good);
    }
    for (const bad of ["secret", randomBytes(20).toString("base64"), randomBytes(32).toString("hex")]) {
      assert.throws(
        () => loadEnv({ ...production, NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: bad }),
        refusal(/NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: must be the base64 of 16, 24 or 32 random bytes/),
      );
    }
  });
});
