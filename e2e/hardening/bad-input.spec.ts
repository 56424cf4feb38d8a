import { request as httpRequest } from "node:http";
import { expect, test, type APIResponse } from "@playwright/test";
import { newId } from "@/server/ids";
import { encodeSignedToken, offerClaims } from "@/server/signed-token";

// What a newcomer or an attacker meets first, over real HTTP against the built
// app: bad links answer 4xx pages, every API path and method answers the JSON
// envelope with X-Request-Id, pages carry their security headers, the OAuth
// endpoint does not redirect an unverified request, bodies are bounded.

function checkoutToken(expiresAt: Date): string {
  const offer = offerClaims({ partnerId: null, environment: "sandbox", domain: "nothing-here.com", priceCents: 1000, currency: "USD", expiresAt });
  return encodeSignedToken("checkout", newId("checkoutSession"), offer);
}

async function expectEnvelope(response: APIResponse, status: number, code: string) {
  expect(response.status()).toBe(status);
  const requestId = response.headers()["x-request-id"];
  expect(requestId).toBeTruthy();
  const body = (await response.json()) as { error: { code: string; message: string; request_id: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.request_id).toBe(requestId);
}

test.describe("bad links answer 4xx with a helpful page", () => {
  test("hosted checkout: missing, malformed, tampered, unknown, expired", async ({ page }) => {
    const cases: [string, number, RegExp][] = [
      ["/checkout", 400, /not valid/i],
      ["/checkout?pt=not-a-token", 400, /not valid/i],
      [`/checkout?pt=${encodeURIComponent(checkoutToken(new Date(Date.now() + 3600_000)).replace(/.$/, (c) => (c === "A" ? "B" : "A")))}`, 404, /not valid|not found/i],
      [`/checkout?pt=${encodeURIComponent(checkoutToken(new Date(Date.now() + 3600_000)))}`, 404, /not found/i],
      [`/checkout?pt=${encodeURIComponent(checkoutToken(new Date(Date.now() - 60_000)))}`, 410, /expired/i],
    ];
    for (const [path, status, text] of cases) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(status);
      await expect(page.locator("h1").first()).toHaveText(text);
    }
  });

  test("brokerage progress: malformed 400, unknown 404", async ({ page }) => {
    const malformed = await page.goto("/brokerage/abc");
    expect(malformed?.status()).toBe(400);
    await expect(page.getByTestId("progress-invalid")).toBeVisible();
    const unknown = await page.goto(`/brokerage/${"A".repeat(43)}`);
    expect(unknown?.status()).toBe(404);
  });
});

test.describe("API paths and methods", () => {
  test("unknown /api paths answer 404 not_found in the envelope", async ({ request }) => {
    for (const path of ["/api/nope", "/api/partner/v1/nope", "/api/oauth/nope", "/api/v2/orders"]) {
      await expectEnvelope(await request.get(path), 404, "not_found");
      await expectEnvelope(await request.post(path, { data: {} }), 404, "not_found");
    }
  });

  test("unsupported methods answer 405 with Allow on every route family", async ({ request }) => {
    const cases: [string, "get" | "post" | "put" | "delete" | "patch", string][] = [
      ["/api/health", "post", "GET"],
      ["/api/ping", "delete", "GET"],
      ["/api/domain/search", "get", "POST"],
      ["/api/oauth/token", "get", "POST"],
      ["/api/oauth/register", "put", "POST"],
      ["/.well-known/oauth-authorization-server", "post", "GET"],
      ["/.well-known/oauth-protected-resource/mcp", "delete", "GET"],
      ["/mcp", "get", "POST"],
      ["/mcp", "delete", "POST"],
      ["/api/partner/v1/orders", "patch", "GET, POST"],
      ["/api/partner/webhooks", "post", "GET, PUT, DELETE"],
    ];
    for (const [path, method, allow] of cases) {
      const response = await request[method](path);
      await expectEnvelope(response, 405, "method_not_allowed");
      expect(response.headers()["allow"], `${method} ${path}`).toBe(allow);
    }
  });

  test("every API answer carries X-Request-Id, echoing a valid incoming one", async ({ request }) => {
    for (const path of ["/api/health", "/api/auth/session", "/api/auth/providers", "/api/trpc/nope", "/.well-known/oauth-authorization-server", "/api/ping"]) {
      const response = await request.get(path, { headers: { "x-request-id": "trace-123.abc" } });
      expect(response.headers()["x-request-id"], path).toBe("trace-123.abc");
      const minted = await request.get(path);
      expect(minted.headers()["x-request-id"], path).toMatch(/^req_/);
    }
  });

  test("a 64 MiB chunked upload is refused without being read", async ({ baseURL }) => {
    const url = new URL("/api/domain/search", baseURL);
    const result = await new Promise<{ status: number; written: number }>((resolve, reject) => {
      let written = 0;
      let done = false;
      const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked" } }, (res) => {
        done = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, written });
        req.destroy();
      });
      req.on("error", (error) => (done ? undefined : reject(error)));
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!done && written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!req.write(chunk)) return void req.once("drain", pump);
        }
        if (!done) req.end();
      };
      pump();
    });
    expect(result.status).toBe(413);
    // The server stopped reading at 8 KiB; what was written beyond sits in socket buffers.
    expect(result.written).toBeLessThan(16 * 1024 * 1024);
  });
});

test.describe("page security headers", () => {
  test("pages forbid framing, foreign form targets, <base> and plugins", async ({ request }) => {
    for (const path of ["/", "/sign-in", "/domains"]) {
      const headers = (await request.get(path)).headers();
      expect(headers["content-security-policy"], path).toBe("frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'");
      expect(headers["permissions-policy"], path).toContain("camera=()");
      expect(headers["x-frame-options"], path).toBe("DENY");
      expect(headers["strict-transport-security"], path).toBeUndefined(); // APP_URL is http here
    }
    const consent = (await request.get("/oauth/authorize")).headers()["content-security-policy"];
    expect(consent).toContain("frame-ancestors 'none'");
    expect(consent).toContain("form-action 'self' https:");
  });
});

test("OAuth: an invalid request from a dynamically registered client is shown, not redirected", async ({ request, page }) => {
  const ip = `10.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}.7`;
  const registered = await request.post("/api/oauth/register", {
    data: { redirect_uris: ["https://evil.example/cb"], client_name: "Open redirect probe" },
    headers: { "x-forwarded-for": ip },
  });
  expect(registered.status()).toBe(201);
  const { client_id } = (await registered.json()) as { client_id: string };
  const query = new URLSearchParams({ client_id, redirect_uri: "https://evil.example/cb", response_type: "token", state: "s" });
  const direct = await request.get(`/oauth/authorize?${query}`, { maxRedirects: 0 });
  expect(direct.status()).toBe(200);
  expect(direct.headers()["location"]).toBeUndefined();
  await page.goto(`/oauth/authorize?${query}`);
  await expect(page.getByRole("heading", { name: "This sign-in request cannot be completed" })).toBeVisible();
  await expect(page.getByTestId("oauth-error-return")).toHaveText("Return to evil.example");
  expect(page.url()).toContain("/oauth/authorize");
});
