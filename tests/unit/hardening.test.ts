import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";

process.env.SECRET_KEY ??= "unit-test-secret-key-unit-test-secret-key";
const { partnerContracts } = await import("@/server/contracts");
const { advisoryLocks } = await import("@/db/locks");
const { loadEnv, EnvError } = await import("@/server/env");
const { describeError } = await import("@/server/log");
const { startBanner } = await import("@/server/cli/banner");

// Regression tests of the hardening issue that need no database.

describe("rate-limit classes follow DECISIONS", () => {
  // "write 20/min (quotes, orders, checkout-session, refunds, brokerage POST, links POST),
  //  search 60/min (discovery endpoints), reporting 30/min (everything else)".
  const write = new Set([
    "POST /api/partner/v1/quotes",
    "POST /api/partner/v1/orders",
    "POST /api/partner/v1/checkout-session",
    "POST /api/partner/v1/refunds",
    "POST /api/partner/v1/brokerage",
    "POST /api/partner/v1/links",
  ]);
  const search = new Set([
    "GET /api/partner/v1/domains/search",
    "GET /api/partner/v1/domains/{name}",
    "GET /api/partner/v1/availability",
    "GET /api/partner/v1/pricing",
  ]);
  for (const contract of partnerContracts) {
    const key = `${contract.method} ${contract.path}`;
    const expected = write.has(key) ? "write" : search.has(key) ? "search" : "reporting";
    it(`${key} is ${expected}`, () => assert.equal(contract.rateClass, expected));
  }
  it("every write endpoint of DECISIONS exists", () => {
    const keys = new Set(partnerContracts.map((c) => `${c.method} ${c.path}`));
    for (const key of write) assert.ok(keys.has(key), key);
  });
});

describe("advisory locks", () => {
  it("every id in the registry is distinct", () => {
    const ids = Object.values(advisoryLocks);
    assert.equal(new Set(ids).size, ids.length);
  });

  it("no code takes an advisory lock by a literal id instead of the registry", () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir)) {
        const full = path.join(dir, entry);
        if (statSync(full).isDirectory()) {
          if (entry !== "migrations" && entry !== "node_modules") walk(full);
        } else if (/\.tsx?$/.test(entry) && full !== path.join("db", "locks.ts")) {
          const text = readFileSync(full, "utf8");
          if (/pg_(try_)?advisory_(xact_)?lock\(\s*\d/.test(text) || /_LOCK\s*=\s*\d/.test(text)) offenders.push(full);
        }
      }
    };
    for (const dir of ["server", "db", "app", "scripts"]) walk(dir);
    assert.deepEqual(offenders, []);
  });
});

describe("production settings", () => {
  const base = { SECRET_KEY: "x".repeat(40), DATA_DIR: "/tmp/pdm-unit-env" };

  it("demo data is on in development and off in production unless forced", () => {
    assert.equal(loadEnv({ ...base }).SEED_DEMO, true);
    assert.equal(loadEnv({ ...base, NODE_ENV: "production" }).SEED_DEMO, false);
    assert.equal(loadEnv({ ...base, NODE_ENV: "production", SEED_DEMO: "true" }).SEED_DEMO, true);
    assert.equal(loadEnv({ ...base, APP_ENV: "production" }).SEED_DEMO, false);
    assert.equal(loadEnv({ ...base, SEED_DEMO: "false" }).SEED_DEMO, false);
  });

  it("the operator's mode survives Next's NODE_ENV=production", () => {
    assert.equal(loadEnv({ ...base, NODE_ENV: "production", APP_ENV: "development" }).APP_ENV, "development");
    assert.equal(loadEnv({ ...base, NODE_ENV: "production" }).APP_ENV, "production");
  });

  it("refuses private webhook targets and a missing SECRET_KEY in production", () => {
    assert.throws(
      () => loadEnv({ ...base, APP_ENV: "production", WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }),
      (error: Error) => error instanceof EnvError && /WEBHOOK_ALLOW_PRIVATE_TARGETS: refused in production/.test(error.message),
    );
    assert.doesNotThrow(() => loadEnv({ ...base, WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" }));
    assert.throws(() => loadEnv({ DATA_DIR: base.DATA_DIR, NODE_ENV: "production" }), /SECRET_KEY: required in production/);
  });

  it("validates the pool size, statement timeout and proxy hops", () => {
    assert.throws(() => loadEnv({ ...base, DB_POOL_MAX: "0" }), /DB_POOL_MAX: must be 1-100/);
    assert.throws(() => loadEnv({ ...base, DB_POOL_MAX: "lots" }), /DB_POOL_MAX/);
    assert.throws(() => loadEnv({ ...base, TRUST_PROXY_HOPS: "-1" }), /TRUST_PROXY_HOPS/);
    assert.equal(loadEnv({ ...base, DB_POOL_MAX: "25" }).DB_POOL_MAX, 25);
  });

  it("the start banner never prints demo logins or secrets when they are hidden", () => {
    const text = startBanner({ appUrl: "https://x.test", mcpUrl: "https://x.test", startedInMs: 1, timings: [], demoHidden: true, database: "DATABASE_URL", examplePrefix: "" });
    assert.doesNotMatch(text, /password|secret\s+sk_/i);
    assert.match(text, /not printed/);
  });
});

describe("error logs", () => {
  it("a database error is described by code and query, never parameters or detail", () => {
    const pg = Object.assign(new Error("duplicate key value violates unique constraint \"users_email_unique\""), {
      name: "PostgresError",
      code: "23505",
      severity: "ERROR",
      detail: "Key (email)=(secret-marker@example.com) already exists.",
      constraint_name: "users_email_unique",
      table_name: "users",
    });
    Object.defineProperty(pg, "query", { value: "insert into users (email) values ($1)" });
    Object.defineProperty(pg, "parameters", { value: ["secret-marker@example.com"] });
    const wrapped = Object.assign(new Error("Failed query: insert into users (email) values ($1)\nparams: secret-marker@example.com"), { cause: pg });
    for (const error of [pg, wrapped]) {
      const text = describeError(error);
      assert.doesNotMatch(text, /secret-marker/);
      assert.match(text, /23505/);
      assert.match(text, /insert into users/);
    }
  });

  it("a drizzle error without a database cause loses its params", () => {
    const text = describeError(new Error("Failed query: select $1\nparams: sk_live_secret"));
    assert.doesNotMatch(text, /sk_live_secret/);
  });
});
