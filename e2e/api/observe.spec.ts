import { expect, test } from "@playwright/test";
import { closeDb, getDb } from "@/db/client";
import { getDemoCredential } from "@/db/seed";
import { createPartnerClient } from "@/server/signing/client";

// Liveness, readiness and /metrics through the production build: the web server
// (scripts/serve.ts) counts every answer in the registry the /metrics route
// bundle renders, one registry per process across Next's bundles.

test("live and ready answer 200; /metrics counts a signed request by its route class", async ({ request, baseURL }) => {
  expect((await request.get("/api/health/live")).status()).toBe(200);
  // Ready once the search index has loaded after the start (server/search/warm.ts: a few seconds at most for the demo seed).
  await expect.poll(async () => (await request.get("/api/health/ready")).status(), { timeout: 60_000 }).toBe(200);
  const ready = await request.get("/api/health/ready");
  expect(await ready.json()).toEqual({ status: "ready" });

  const client = createPartnerClient({ baseUrl: baseURL!, ...(await getDemoCredential(getDb(), "mor")) });
  await closeDb();
  expect((await client.get("/api/partner/v1/domains/observe-e2e-zz.com")).status).toBe(404);

  // The line is recorded once the answer is out: poll briefly.
  await expect(async () => {
    const scrape = await request.get("/metrics");
    expect(scrape.status()).toBe(200);
    const text = await scrape.text();
    expect(text).toMatch(/^http_requests_total\{route="\/api\/partner\/v1\/domains\/\[name\]",method="GET",status="404"\} [1-9]/m);
    expect(text).toMatch(/^http_requests_total\{route="\/api\/health\/ready",method="GET",status="200"\} [1-9]/m);
    expect(text).toMatch(/^database_up 1$/m);
    expect(text).not.toContain("observe-e2e-zz.com");
  }).toPass({ timeout: 5_000 });
});
