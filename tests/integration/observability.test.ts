import assert from "node:assert/strict";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { closeDb, createPool } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import * as live from "@/app/api/health/live/route";
import * as ready from "@/app/api/health/ready/route";
import * as metricsRoute from "@/app/metrics/route";
import { resetEnv } from "@/server/env";
import { tagClientIp } from "@/server/http/client-ip";
import { requestIdFor } from "@/server/http/request-id";
import { observeRequest } from "@/server/observability/http";
import { createLogger, installLogger } from "@/server/observability/logger";
import { serveProcessMetrics } from "@/server/observability/metrics-server";
import { checkReadiness } from "@/server/observability/readiness";
import { signRequest } from "@/server/signing/client";
import { withFreshDatabase } from "../helpers/fresh-database";
import { createTestPartner, type TestCredential } from "../helpers/partner";
import { answerWithRoutes } from "../helpers/route-bridge";

// Issue 18 "Observe": the web server's request line (fields and redaction, read
// back from the logger), /metrics (content and token), the worker's metrics port,
// and readiness against real databases (one a migration behind, one unreachable).

const lines: string[] = [];
installLogger(
  createLogger({
    level: "debug",
    destination: new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    }),
  }),
);

let server: Server;
let base: string;
let credential: TestCredential;
let partnerId: string;

before(async () => {
  ({ credential, partnerId } = await createTestPartner());
  // The steps scripts/serve.ts takes before the app, in front of the API route files.
  server = createServer((request, response) => {
    const clientIp = tagClientIp(request, 0);
    const requestId = requestIdFor(request.headers["x-request-id"]);
    request.headers["x-request-id"] = requestId;
    response.setHeader("x-request-id", requestId);
    observeRequest(request, response, requestId, clientIp);
    answerWithRoutes(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  server.close();
  await closeDb();
});

/** The request's log line, once the server has written it (after the answer). */
async function lineOf(requestId: string): Promise<{ text: string; fields: Record<string, unknown> }> {
  for (let i = 0; i < 100; i++) {
    const text = lines.find((line) => line.includes(`"requestId":"${requestId}"`));
    if (text) return { text, fields: JSON.parse(text) as Record<string, unknown> };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`no log line for ${requestId}`);
}

const SECRET_QUERY = "pt=tok_very_secret_query_value";

async function signedGet(pathWithQuery: string, extra: Record<string, string> = {}) {
  const headers = { ...signRequest(credential, { method: "GET", url: pathWithQuery }), ...extra };
  return fetch(`${base}${pathWithQuery}`, { headers });
}

async function scrape(headers: Record<string, string> = {}) {
  return metricsRoute.GET(new Request("http://localhost/metrics", { headers }));
}

describe("request log line", () => {
  it("names the request id, partner, key, route class, status and latency, and nothing secret", async () => {
    const signed = signRequest(credential, { method: "GET", url: `/api/partner/v1/orders/ord_nosuchorder123?${SECRET_QUERY}` });
    const response = await signedGet(`/api/partner/v1/orders/ord_nosuchorder123?${SECRET_QUERY}`, {
      authorization: "Bearer very-secret-bearer",
      cookie: "next-auth.session-token=very-secret-cookie",
      "x-request-id": "req_observe_test_1",
      ...signed,
    });
    assert.equal(response.status, 404);
    const { text, fields } = await lineOf("req_observe_test_1");
    assert.deepEqual(
      { ...fields, latencyMs: typeof fields.latencyMs, time: typeof fields.time, pid: typeof fields.pid, hostname: typeof fields.hostname },
      {
        level: "info",
        time: "string",
        pid: "number",
        hostname: "string",
        requestId: "req_observe_test_1",
        method: "GET",
        route: "/api/partner/v1/orders/[public_id]",
        status: 404,
        latencyMs: "number",
        clientIp: "127.0.0.1",
        partnerId,
        keyId: credential.keyId,
        errorCode: "not_found",
        msg: "GET /api/partner/v1/orders/[public_id] 404",
      },
    );
    assert.ok((fields.latencyMs as number) > 0);
    for (const secret of ["tok_very_secret", "very-secret-bearer", "very-secret-cookie", signed["X-Service-Signature"]!, "ord_nosuchorder123", credential.secret]) {
      assert.ok(!text.includes(secret), `the line leaks ${secret}: ${text}`);
    }
  });

  it("an unsigned request has no partner; a path no route serves is [unmatched]", async () => {
    const search = await fetch(`${base}/api/domain/search?utm=coffee`, {
      method: "POST",
      headers: { "x-request-id": "req_observe_test_2", "content-type": "application/json" },
      // A TLD alone: a real search that needs no word analysis (no encoder to load).
      body: JSON.stringify({ query: ".coffee" }),
    });
    assert.equal(search.status, 200);
    const { fields } = await lineOf("req_observe_test_2");
    assert.equal(fields.route, "/api/domain/search");
    assert.equal(fields.partnerId, undefined);
    assert.ok(!JSON.stringify(fields).includes("coffee"), "neither the body nor the query string is logged");

    const missing = await fetch(`${base}/wp-admin/setup.php?x=1`, { headers: { "x-request-id": "req_observe_test_3" } });
    assert.equal(missing.status, 404); // the /api catch-all of the route table answers what nothing else does
    assert.equal((await lineOf("req_observe_test_3")).fields.route, "[unmatched]");
  });

  it("errors logged by a route carry the request id, and database parameters stay out", async () => {
    const { logError } = await import("@/server/log");
    const failure = Object.assign(new Error("duplicate key value violates unique constraint"), {
      name: "PostgresError",
      code: "23505",
      severity: "ERROR",
      detail: "Key (email)=(buyer@secret.example) already exists.",
      parameters: ["buyer@secret.example"],
      query: "insert into users (email) values ($1)",
    });
    logError("sign-up", failure, { requestId: "req_observe_test_4" });
    const { text, fields } = await lineOf("req_observe_test_4");
    assert.equal(fields.level, "error");
    assert.equal(fields.context, "sign-up");
    assert.match(String(fields.error), /database error 23505: duplicate key .*query: insert into users \(email\) values \(\$1\)/);
    assert.ok(!text.includes("buyer@secret.example"));
  });

  it("redacts secret-looking fields anywhere a caller logs an object", async () => {
    const { getLogger } = await import("@/server/observability/logger");
    getLogger().info(
      { requestId: "req_observe_test_5", headers: { authorization: "Bearer abc", cookie: "c=1", "x-service-signature": "v1=ff" }, card: { number: "4242" }, query: "pt=1" },
      "probe",
    );
    const { text } = await lineOf("req_observe_test_5");
    assert.ok(!/Bearer abc|c=1|v1=ff|4242|pt=1/.test(text), text);
    assert.equal((text.match(/\[redacted\]/g) ?? []).length, 5);
  });
});

describe("metrics", () => {
  it("count requests by route class and status, 429 refusals, searches, and read the queue and pool", async () => {
    // orders/[public_id] is in the reporting class: 30 a minute per key (refilling), then 429.
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < 60) statuses.push((await signedGet("/api/partner/v1/orders/ord_nosuchorder456")).status);
    assert.equal(statuses.at(-1), 429);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the last line is recorded after the answer
    const response = await scrape();
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type")!, /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    // A series never observed is absent: 0.
    const value = (series: string) => Number(new RegExp(`^${series.replace(/[[\]{}()+.]/g, "\\$&")} (\\S+)$`, "m").exec(text)?.[1] ?? 0);
    const route = 'route="/api/partner/v1/orders/[public_id]"';
    assert.equal(value(`http_requests_total{${route},method="GET",status="404"}`), statuses.length); // and the first test's one
    assert.equal(value(`http_requests_total{${route},method="GET",status="429"}`), 1);
    assert.equal(value(`rate_limit_refusals_total{${route}}`), 1);
    assert.equal(value(`http_request_duration_seconds_count{${route},method="GET"}`), statuses.length + 1);
    assert.ok(value('search_duration_seconds_count{environment="live"}') + value('search_duration_seconds_count{environment="sandbox"}') >= 1);
    assert.equal(value("database_up"), 1);
    assert.equal(value("db_pool_max_connections"), 10);
    assert.ok(value('webhook_queue_deliveries{state="pending"}') >= 0);
    assert.ok(value("webhook_queue_oldest_due_seconds") >= 0);
    assert.ok(value('db_server_connections{state="active"}') >= 1);
    assert.match(text, /^# TYPE db_pool_reserved_connections gauge$/m);
    assert.match(text, /^nodejs_eventloop_lag_seconds /m);
  });

  it("with METRICS_TOKEN set, answer only a request bearing it", async () => {
    process.env.METRICS_TOKEN = "metrics-token-for-tests-0123";
    resetEnv();
    try {
      const none = await scrape();
      assert.equal(none.status, 401);
      assert.equal(none.headers.get("www-authenticate"), 'Bearer realm="metrics"');
      assert.equal(((await none.json()) as { error: { code: string } }).error.code, "unauthorized");
      assert.equal((await scrape({ authorization: "Bearer metrics-token-for-tests-0124" })).status, 401);
      assert.equal((await scrape({ authorization: "Bearer metrics-token-for-tests-0123" })).status, 200);

      // The worker's port follows the same rule and serves its own registry.
      const worker = (await serveProcessMetrics(0))!;
      try {
        const url = `http://127.0.0.1:${(worker.address() as AddressInfo).port}/metrics`;
        assert.equal((await fetch(url)).status, 401);
        const scraped = await fetch(url, { headers: { authorization: "Bearer metrics-token-for-tests-0123" } });
        assert.equal(scraped.status, 200);
        assert.match(await scraped.text(), /^# TYPE webhook_delivery_attempts_total counter$/m);
        assert.equal((await fetch(url.replace("/metrics", "/other"))).status, 404);
      } finally {
        worker.close();
      }
    } finally {
      delete process.env.METRICS_TOKEN;
      resetEnv();
    }
  });
});

describe("liveness and readiness", () => {
  it("live answers without the database; ready answers 200 on the migrated test database", async () => {
    assert.equal((await live.GET(new Request("http://localhost/api/health/live"))).status, 200);
    const response = await ready.GET(new Request("http://localhost/api/health/ready"));
    assert.equal(response.status, 200);
    assert.deepEqual(await response.json(), { status: "ready" });
  });

  it("is 503 on a database one migration behind, and ready once migrate has run", async () => {
    await withFreshDatabase(
      async (url) => {
        const pool = createPool(url, 2);
        try {
          const behind = await checkReadiness(pool.db);
          assert.equal(behind.ready, false);
          assert.deepEqual(behind.pendingMigrations, [lastMigration()]);

          // The route, on this database: 503 naming the migration.
          await closeDb();
          const saved = process.env.DATABASE_URL;
          process.env.DATABASE_URL = url;
          resetEnv();
          try {
            const response = await ready.GET(new Request("http://localhost/api/health/ready"));
            assert.equal(response.status, 503);
            const body = (await response.json()) as { error: { code: string; message: string; details: unknown } };
            assert.match(body.error.message, /^not ready: 1 migration\(s\) not applied yet/);
            assert.deepEqual(body.error.details, [{ path: "migrations", message: `${lastMigration()} is not applied` }]);
          } finally {
            await closeDb();
            process.env.DATABASE_URL = saved;
            resetEnv();
          }

          await migrateDatabase(url);
          assert.deepEqual(await checkReadiness(pool.db), { ready: true, database: "ok", pendingMigrations: [] });
        } finally {
          await pool.sql.end();
        }
      },
      (url) => migrateAllButLast(url),
    );
  });

  it("is 503 when the database does not answer", async () => {
    const pool = createPool("postgres://postgres@127.0.0.1:9/nowhere", 1);
    try {
      const result = await checkReadiness(pool.db, 1000);
      assert.equal(result.ready, false);
      assert.equal(result.database, "unreachable");
    } finally {
      await pool.sql.end({ timeout: 0 });
    }
  });
});

const migrationsFolder = path.join(process.cwd(), "db", "migrations");

function lastMigration(): string {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };
  return journal.entries.at(-1)!.tag;
}

/** Applies every committed migration but the newest, as a release whose migrate step has not run would find it. */
async function migrateAllButLast(url: string): Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), "migrations-"));
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    cpSync(migrationsFolder, folder, { recursive: true });
    const journalFile = path.join(folder, "meta", "_journal.json");
    const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: unknown[] };
    writeFileSync(journalFile, JSON.stringify({ ...journal, entries: journal.entries.slice(0, -1) }));
    await migrate(drizzle(sql), { migrationsFolder: folder });
  } finally {
    await sql.end();
    rmSync(folder, { recursive: true, force: true });
  }
}
