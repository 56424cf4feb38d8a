import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { expect, test } from "@playwright/test";

// The public interface over real HTTP against the built app and its seeded live
// inventory: the developer page, the JSON search and the MCP server driven by
// the official SDK client, all anonymous (masked prices).

const ip = `198.51.100.${1 + Math.floor(Math.random() * 250)}`;

interface PublicResult {
  domain: string;
  available: boolean;
  sale_price_cents: number | null;
  currency: string;
  price_masked: boolean;
}

test("the developer page explains search, MCP and OAuth with this server's URLs", async ({ page, baseURL }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Public search & MCP" }).click();
  await expect(page).toHaveURL(/\/docs\/public$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Public search, MCP and OAuth");
  await expect(page.getByText(`${baseURL}/mcp`).first()).toBeVisible();
  await expect(page.getByText(`${baseURL}/.well-known/oauth-protected-resource/mcp`).first()).toBeVisible();
  await page.screenshot({ path: "test-results/docs-public.png", fullPage: true });
});

test("anonymous search returns live domains with masked prices; a bad token gets a challenge", async ({ request, baseURL }) => {
  const res = await request.post("/api/domain/search", { data: { query: "pizza", limit: 5 }, headers: { "x-forwarded-for": ip } });
  expect(res.status()).toBe(200);
  expect(res.headers()["access-control-allow-origin"]).toBe("*");
  const { results } = (await res.json()) as { results: PublicResult[] };
  expect(results.length).toBeGreaterThan(0);
  expect(results.length).toBeLessThanOrEqual(5);
  for (const r of results) {
    expect(r.domain).toContain("pizza");
    expect(r.sale_price_cents).toBeNull();
    expect(r.price_masked).toBe(true);
  }

  const bad = await request.post("/api/domain/search", {
    data: { query: "pizza" },
    headers: { authorization: "Bearer pdm_at_nope", "x-forwarded-for": ip },
  });
  expect(bad.status()).toBe(401);
  expect(bad.headers()["www-authenticate"]).toContain('error="invalid_token"');
  expect(bad.headers()["www-authenticate"]).toContain(`resource_metadata="${baseURL}/.well-known/oauth-protected-resource"`);
});

test("the official MCP client lists and calls search_domain without a token", async ({ baseURL }) => {
  const client = new Client({ name: "e2e-mcp-client", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), { requestInit: { headers: { "x-forwarded-for": ip } } }),
  );
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(["search_domain"]);
  expect(tools[0]?.annotations?.readOnlyHint).toBe(true);
  const result = await client.callTool({ name: "search_domain", arguments: { query: "pizza", limit: 3 } });
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  const { results } = result.structuredContent as { results: PublicResult[] };
  expect(results.length).toBeGreaterThan(0);
  expect(results.every((r) => r.price_masked && r.sale_price_cents === null)).toBe(true);
  await client.close();
});
