import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { auth, type OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { expect, test } from "@playwright/test";

// An MCP host's whole journey, with the official MCP TypeScript SDK doing its
// own discovery (protected-resource metadata of /mcp, then the authorization
// server's), dynamic registration, PKCE and the token exchange; Chromium plays
// the person who signs in and consents. Masked prices before, real ones after.

interface PublicResult {
  domain: string;
  sale_price_cents: number | null;
  price_masked: boolean;
}

/** An in-memory OAuthClientProvider, as a desktop MCP host would keep one. */
class MemoryProvider implements OAuthClientProvider {
  client?: OAuthClientInformationMixed;
  savedTokens?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  constructor(readonly redirect: string) {}
  get redirectUrl() {
    return this.redirect;
  }
  get clientMetadata() {
    return {
      client_name: "SDK host (e2e)",
      redirect_uris: [this.redirect],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.savedTokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.savedTokens = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

async function startReceiver(): Promise<{ url: string; code: Promise<string>; close: () => Promise<void> }> {
  let resolveCode: (code: string) => void = () => {};
  const code = new Promise<string>((resolve) => (resolveCode = resolve));
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end("<title>Done</title><p>Signed in.</p>");
    const value = url.searchParams.get("code");
    if (value) resolveCode(value);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
    code,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function search(baseURL: string, provider?: OAuthClientProvider): Promise<PublicResult[]> {
  const client = new Client({ name: "e2e-mcp-host", version: "1.0.0" });
  const ip = `203.0.113.${1 + Math.floor(Math.random() * 250)}`;
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${baseURL}/mcp`), { authProvider: provider, requestInit: { headers: { "x-forwarded-for": ip } } }),
  );
  const result = await client.callTool({ name: "search_domain", arguments: { query: "pizza", limit: 3 } });
  await client.close();
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  return (result.structuredContent as { results: PublicResult[] }).results;
}

test("the MCP SDK discovers, registers, sends the buyer through consent and then sees real prices", async ({ page, baseURL }) => {
  const masked = await search(baseURL!);
  expect(masked.length).toBeGreaterThan(0);
  expect(masked.every((r) => r.price_masked && r.sale_price_cents === null)).toBe(true);

  const receiver = await startReceiver();
  try {
    const provider = new MemoryProvider(receiver.url);
    // /mcp serves anonymous callers (masked), so the host starts sign-in itself.
    expect(await auth(provider, { serverUrl: `${baseURL}/mcp`, scope: "pricing:read" })).toBe("REDIRECT");
    expect(provider.client?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(`${baseURL}/mcp`);

    await page.goto(authorizationUrl.toString());
    await page.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill("buyer@example.com");
    await page.getByLabel("Password").fill("demo-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Allow" }).click();
    const code = await receiver.code;

    expect(await auth(provider, { serverUrl: `${baseURL}/mcp`, authorizationCode: code })).toBe("AUTHORIZED");
    expect(provider.savedTokens?.access_token).toMatch(/^pdm_at_/);

    const priced = await search(baseURL!, provider);
    expect(priced.length).toBeGreaterThan(0);
    expect(priced.every((r) => !r.price_masked && typeof r.sale_price_cents === "number")).toBe(true);
  } finally {
    await receiver.close();
  }
});
