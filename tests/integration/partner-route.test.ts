import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { APPLICATION_NAMES, closeDb, createPool, gateClient, getDb } from "@/db/client";
import { resolveDatabaseUrl } from "@/db/embedded";
import * as unknownPath from "@/app/api/[...path]/route";
import { clock } from "@/server/clock";
import { getEnv } from "@/server/env";
import { defineEndpoint } from "@/server/http/contract";
import { methodsNotAllowed, partnerRoute } from "@/server/http/partner-route";
import { authenticatePartner } from "@/server/http/authenticate";
import { signRequest } from "@/server/signing/client";
import { callRoute, createTestPartner, type TestCredential } from "../helpers/partner";

// The route wrapper's own behaviour, on a probe endpoint defined here: body
// parsing and limits, validation details, 405/404, request ids, and the
// rate limits shared through the database.

const probe = defineEndpoint({
  operationId: "probe",
  method: "POST",
  path: "/api/partner/v1/probe",
  tag: "test",
  summary: "probe",
  scopes: ["buy"],
  rateClass: "write",
  body: z.object({ domain: z.string(), buyer: z.object({ email: z.email() }) }),
  response: z.object({ echoed: z.string() }),
});
const probeHandler = partnerRoute(probe, async ({ body }) => ({ echoed: body.domain }));
const searchProbe = partnerRoute(
  defineEndpoint({
    operationId: "searchProbe",
    method: "GET",
    path: "/api/partner/v1/search-probe",
    tag: "test",
    summary: "probe",
    scopes: ["search"],
    rateClass: "search",
    response: z.object({ ok: z.boolean() }),
  }),
  async () => ({ ok: true }),
);

// A route whose one read travels with the gate (RouteOptions.read): the read names the
// credential's partner and the parsed query, and counts its runs in a table of its own.
const readProbe = partnerRoute(
  defineEndpoint({
    operationId: "readProbe",
    method: "GET",
    path: "/api/partner/v1/read-probe",
    tag: "test",
    summary: "probe",
    scopes: ["search"],
    rateClass: "search",
    query: z.object({ n: z.coerce.number().int().min(1).max(9) }),
    response: z.object({ read: z.unknown() }),
  }),
  async ({ read }) => ({ read }),
  {
    read: ({ partnerId, environment, query }) =>
      sql`select ${partnerId}::text as "partnerId", ${environment}::text as environment, ${query.n}::int * 2 as doubled,
                 nextval('read_probe_runs') as run`,
  },
);

let credential: TestCredential;
before(async () => {
  credential = (await createTestPartner()).credential;
});
after(async () => {
  clock.reset();
  await closeDb();
});

describe("partner route wrapper", () => {
  it("sends a route's read with the gate and runs it only for a request that passed", async () => {
    await getDb().execute(sql`create sequence if not exists read_probe_runs`);
    const runs = async () => Number((await getDb().execute<{ v: string }>(sql`select last_value as v from read_probe_runs`))[0]!.v);
    const { partnerId, credential: searcher } = await createTestPartner({ scopes: ["search"] });
    const ok = await callRoute<{ read: Record<string, unknown> }>(readProbe, { url: "/api/partner/v1/read-probe?n=4", credential: searcher });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.read.partnerId, partnerId);
    assert.equal(ok.body.read.environment, "sandbox");
    assert.equal(ok.body.read.doubled, 8);
    const ran = await runs();

    // Refused by the gate: a replayed nonce, a key without the scope, a bad query (400 after the gate).
    const replayed = await callRoute(readProbe, { url: "/api/partner/v1/read-probe?n=4", credential: searcher, nonce: "read-probe-nonce" });
    assert.equal(replayed.status, 200);
    const again = await callRoute(readProbe, { url: "/api/partner/v1/read-probe?n=4", credential: searcher, nonce: "read-probe-nonce" });
    assert.equal((again.body as { error: { code: string } }).error.code, "replay_detected");
    const buyer = (await createTestPartner({ scopes: ["buy"] })).credential;
    assert.equal((await callRoute(readProbe, { url: "/api/partner/v1/read-probe?n=4", credential: buyer })).status, 403);
    const bad = await callRoute(readProbe, { url: "/api/partner/v1/read-probe?n=x", credential: searcher });
    assert.equal(bad.status, 400);
    assert.equal(await runs(), ran + 1, "only the second accepted request ran the read");
    await getDb().execute(sql`drop sequence read_probe_runs`);
  });

  it("sends the gate's statements over a few connections of its own (DB_GATE_POOL_MAX), pipelined", async () => {
    const { credential: searcher } = await createTestPartner({ scopes: ["search"] });
    const url = "/api/partner/v1/search-probe";
    const answers = await Promise.all(Array.from({ length: 12 }, () => callRoute(searchProbe, { url, credential: searcher })));
    assert.deepEqual(
      answers.map((a) => a.status),
      answers.map(() => 200),
    );
    const connections = await getDb().execute<{ app: string; n: number }>(
      sql`select application_name as app, count(*)::int as n from pg_stat_activity
          where datname = current_database() and application_name = ${APPLICATION_NAMES.gate} group by 1`,
    );
    // Twelve statements at once, DB_GATE_POOL_MAX (2) connections: the rest were pipelined behind them.
    assert.equal(connections[0]?.n, getEnv().DB_GATE_POOL_MAX);
    assert.notEqual(gateClient(getDb()), getDb().$client);
    // Any other handle (a test's or a script's own pool) keeps its statements on its own client.
    const other = createPool(resolveDatabaseUrl(), 1);
    try {
      assert.equal(gateClient(other.db), other.db.$client);
    } finally {
      await other.sql.end();
    }
  });

  it("parses a signed JSON body", async () => {
    const result = await callRoute(probeHandler, {
      method: "POST",
      url: "/api/partner/v1/probe",
      credential,
      body: { domain: "x.com", buyer: { email: "a@b.co" } },
    });
    assert.equal(result.status, 200);
    assert.deepEqual(result.body, { echoed: "x.com" });
  });

  it("reports validation errors with field paths", async () => {
    const result = await callRoute(probeHandler, {
      method: "POST",
      url: "/api/partner/v1/probe",
      credential,
      body: { domain: "x.com", buyer: { email: "nope" } },
    });
    assert.equal(result.status, 400);
    const error = (result.body as { error: { code: string; details: { path: string }[] } }).error;
    assert.equal(error.code, "validation_error");
    assert.equal(error.details[0]?.path, "buyer.email");
  });

  it("refuses U+0000 in a body, query or path value with validation_error, before the database sees it", async () => {
    const body = await callRoute(probeHandler, { method: "POST", url: "/api/partner/v1/probe", credential, body: { domain: "x\u0000.com", buyer: { email: "a@b.co" } } });
    assert.equal(body.status, 400);
    assert.equal((body.body as { error: { details: { path: string }[] } }).error.details[0]?.path, "domain");
    // Found by the fuzz harness as 500s: an order id, an events cursor, a brokerage case id.
    const { GET: getOrder } = await import("@/app/api/partner/v1/orders/[public_id]/route");
    const { GET: listEvents } = await import("@/app/api/partner/v1/events/route");
    const { GET: getCase } = await import("@/app/api/partner/v1/brokerage/[case_id]/route");
    const answers = [
      await callRoute(getOrder, { url: "/api/partner/v1/orders/ord_%00", params: { public_id: "ord_\u0000" }, credential }),
      await callRoute(listEvents, { url: "/api/partner/v1/events?after_id=evt_%00", credential }),
      await callRoute(getCase, { url: "/api/partner/v1/brokerage/bc_%00", params: { case_id: "bc_\u0000" }, credential }),
    ];
    for (const answer of answers) {
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal((answer.body as { error: { code: string } }).error.code, "validation_error");
    }
  });

  it("rejects a body that is not JSON", async () => {
    const result = await callRoute(probeHandler, { method: "POST", url: "/api/partner/v1/probe", credential, body: "{not json" });
    assert.equal(result.status, 400);
    assert.equal((result.body as { error: { code: string } }).error.code, "validation_error");
  });

  it("rejects a body over 1 MiB with 413", async () => {
    const result = await callRoute(probeHandler, {
      method: "POST",
      url: "/api/partner/v1/probe",
      credential,
      body: { domain: "x".repeat(1024 * 1024), buyer: { email: "a@b.co" } },
    });
    assert.equal(result.status, 413);
    assert.equal((result.body as { error: { code: string } }).error.code, "payload_too_large");
  });

  it("echoes a well-formed X-Request-Id and replaces a malformed one", async () => {
    const echoed = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential, headers: { "X-Request-Id": "abc-123" } });
    assert.equal(echoed.headers.get("x-request-id"), "abc-123");
    const replaced = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential, headers: { "X-Request-Id": "bad id\u0001" } });
    assert.match(replaced.headers.get("x-request-id") ?? "", /^req_[0-9A-Za-z]{22}$/);
  });

  it("answers 405 with Allow for a method the route does not serve", async () => {
    const { DELETE } = methodsNotAllowed(["GET"]);
    const response = await DELETE(new Request("http://localhost/api/partner/v1/pricing", { method: "DELETE" }), {
      params: Promise.resolve({}),
    });
    assert.equal(response.status, 405);
    assert.equal(response.headers.get("allow"), "GET");
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, "method_not_allowed");
  });

  it("answers 404 not_found for an unknown path under the API", async () => {
    const response = await unknownPath.GET(new Request("http://localhost/api/partner/v1/nope"));
    assert.equal(response.status, 404);
    const body = (await response.json()) as { error: { code: string; request_id: string } };
    assert.equal(body.error.code, "not_found");
    assert.equal(body.error.request_id, response.headers.get("x-request-id"));
  });

  it("follows the injectable clock for the timestamp window", async () => {
    clock.advance(10 * 60_000);
    try {
      const stale = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential });
      assert.equal((stale.body as { error: { code: string } }).error.code, "invalid_timestamp");
      const fresh = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential, timestamp: clock.nowSeconds() });
      assert.equal(fresh.status, 200);
    } finally {
      clock.reset();
    }
  });
});

describe("rate limits", () => {
  it("allows 60 search requests a minute; the 61st gets 429 with Retry-After", async () => {
    const fresh = (await createTestPartner()).credential;
    const remaining: number[] = [];
    for (let i = 0; i < 60; i++) {
      const result = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential: fresh });
      assert.equal(result.status, 200, `request ${i + 1}`);
      assert.equal(result.headers.get("ratelimit-limit"), "60");
      remaining.push(Number(result.headers.get("ratelimit-remaining")));
    }
    assert.equal(remaining[0], 59);
    assert.equal(remaining[59], 0);
    const limited = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential: fresh });
    assert.equal(limited.status, 429);
    assert.equal((limited.body as { error: { code: string } }).error.code, "rate_limited");
    const retryAfter = Number(limited.headers.get("retry-after"));
    assert.ok(retryAfter >= 1 && retryAfter <= 60, `Retry-After ${retryAfter}`);
    assert.equal(limited.headers.get("ratelimit-remaining"), "0");
    assert.ok(Number(limited.headers.get("ratelimit-reset")) > 0);
  });

  it("keeps classes apart: write is 20/min and does not eat the search budget", async () => {
    const fresh = (await createTestPartner()).credential;
    for (let i = 0; i < 20; i++) {
      const result = await callRoute(probeHandler, {
        method: "POST",
        url: "/api/partner/v1/probe",
        credential: fresh,
        body: { domain: "x.com", buyer: { email: "a@b.co" } },
      });
      assert.equal(result.status, 200, `write ${i + 1}`);
    }
    const limited = await callRoute(probeHandler, {
      method: "POST",
      url: "/api/partner/v1/probe",
      credential: fresh,
      body: { domain: "x.com", buyer: { email: "a@b.co" } },
    });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get("ratelimit-limit"), "20");
    const search = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential: fresh });
    assert.equal(search.status, 200);
    assert.equal(search.headers.get("ratelimit-remaining"), "59");
  });

  it("refills as time passes (one search request per second)", async () => {
    const fresh = (await createTestPartner()).credential;
    clock.freeze();
    try {
      for (let i = 0; i < 60; i++) await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential: fresh, timestamp: clock.nowSeconds() });
      const limited = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential: fresh, timestamp: clock.nowSeconds() });
      assert.equal(limited.status, 429);
      assert.equal(limited.headers.get("retry-after"), "1");
      clock.advance(1000);
      const again = await callRoute(searchProbe, { url: "/api/partner/v1/search-probe", credential: fresh, timestamp: clock.nowSeconds() });
      assert.equal(again.status, 200);
    } finally {
      clock.reset();
    }
  });

  it("is shared by separate connection pools, as by separate server processes", async () => {
    const fresh = (await createTestPartner()).credential;
    const pools = [createPool(resolveDatabaseUrl(), 5), createPool(resolveDatabaseUrl(), 5)];
    try {
      const attempts = Array.from({ length: 70 }, (_, i) => {
        const pool = pools[i % 2]!;
        const url = "/api/partner/v1/search-probe";
        const request = new Request(`http://localhost${url}`, { headers: signRequest(fresh, { method: "GET", url }) });
        return authenticatePartner(pool.db, request, { scopes: ["search"], rateClass: "search" }).then(
          () => "ok",
          (error: { code?: string }) => error.code ?? "error",
        );
      });
      const outcomes = await Promise.all(attempts);
      assert.equal(outcomes.filter((o) => o === "ok").length, 60);
      assert.equal(outcomes.filter((o) => o === "rate_limited").length, 10);
    } finally {
      await Promise.all(pools.map((p) => p.sql.end()));
    }
  });
});
