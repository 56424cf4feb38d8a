import { expect, test } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { getDemoCredential } from "@/db/seed";
import { createPartnerClient, signRequest, type PartnerClient } from "@/server/signing/client";

// The partner API over real HTTP through the production build: what the
// in-process integration tests cannot see (Next's routing, path encoding,
// 404/405 for paths and methods the API does not have, headers on the wire).

let client: PartnerClient;
let credential: { keyId: string; secret: string };

test.beforeAll(async ({ baseURL }) => {
  credential = await getDemoCredential(getDb(), "mor");
  await closeDb();
  client = createPartnerClient({ baseUrl: baseURL!, ...credential });
});

test("a signed search answers with at most five results and rate-limit headers", async () => {
  const result = await client.get<{ results: { domain: string }[] }>("/api/partner/v1/domains/search?q=lawyer");
  expect(result.status).toBe(200);
  expect(result.body.results.length).toBeGreaterThan(0);
  expect(result.body.results.length).toBeLessThanOrEqual(5);
  expect(result.headers.get("ratelimit-limit")).toBe("60");
  expect(result.headers.get("x-request-id")).toMatch(/^req_/);
});

test("a signed query with spaces and reserved characters verifies", async () => {
  const result = await client.get("/api/partner/v1/domains/search?q=best%20law%20(firm)!&limit=3");
  expect(result.status).toBe(200);
});

test("unicode domain names travel percent-encoded in the path and still verify", async () => {
  const result = await client.get<{ error: { code: string } }>(`/api/partner/v1/domains/${encodeURIComponent("bücher-zz.de")}`);
  expect(result.status).toBe(404);
  expect(result.body.error.code).toBe("not_found");
});

test("availability of an unlisted domain is 200 with available false", async () => {
  const result = await client.get<{ available: boolean }>("/api/partner/v1/availability?domain=definitely-not-listed-zz.com");
  expect(result.status).toBe(200);
  expect(result.body.available).toBe(false);
});

test("a replayed request is refused", async ({ request }) => {
  const url = "/api/partner/v1/pricing?domain=definitely-not-listed-zz.com";
  const headers = signRequest(credential, { method: "GET", url });
  expect((await request.get(url, { headers })).status()).toBe(404);
  const replay = await request.get(url, { headers });
  expect(replay.status()).toBe(401);
  expect((await replay.json()).error.code).toBe("replay_detected");
});

test("errors are JSON: missing credentials, unknown path, wrong method", async ({ request }) => {
  const missing = await request.get("/api/partner/v1/availability?domain=x.com");
  expect(missing.status()).toBe(401);
  expect((await missing.json()).error.code).toBe("missing_credentials");

  const unknown = await request.get("/api/partner/v1/no-such-thing");
  expect(unknown.status()).toBe(404);
  expect((await unknown.json()).error.code).toBe("not_found");

  const wrongMethod = await request.delete("/api/partner/v1/pricing");
  expect(wrongMethod.status()).toBe(405);
  expect(wrongMethod.headers()["allow"]).toBe("GET");
  expect((await wrongMethod.json()).error.code).toBe("method_not_allowed");
});

test("the OpenAPI document is served publicly and lists the discovery endpoints", async ({ request }) => {
  const response = await request.get("/api/partner/v1/openapi.json");
  expect(response.status()).toBe(200);
  const document = await response.json();
  expect(document.openapi).toMatch(/^3\.1\./);
  for (const path of ["/api/partner/v1/domains/search", "/api/partner/v1/domains/{name}", "/api/partner/v1/availability", "/api/partner/v1/pricing"]) {
    expect(document.paths[path]).toBeDefined();
  }
});

test("health answers once the database does", async ({ request }) => {
  const response = await request.get("/api/health");
  expect(response.status()).toBe(200);
  expect(await response.json()).toEqual({ status: "ok" });
});
