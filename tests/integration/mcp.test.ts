import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import * as route from "@/app/mcp/route";
import { closeDb } from "@/db/client";
import { clock } from "@/server/clock";
import { resourceIdentifiers } from "@/server/oauth/metadata";
import { publicSearchResponse } from "@/server/public/contract";
import { issueAccessToken, listPublicDomains, newTag, randomIp, type IssuedToken } from "../helpers/public";

// The MCP endpoint driven by the official SDK client, whose transport's fetch
// hands each request to the route's exported POST handler in-process (GET and
// DELETE get the 405 Next.js gives a route that does not export them).

const MCP_URL = "http://localhost:3000/mcp";

function inProcessFetch(ip: string, seen: Response[] = []) {
  return async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    request.headers.set("x-client-ip", ip);
    const response = request.method === "POST" ? await route.POST(request) : new Response(null, { status: 405 });
    seen.push(response.clone());
    return response;
  };
}

async function connect(token?: string, ip = randomIp()): Promise<Client> {
  const client = new Client({ name: "mcp-integration-test", version: "1.0.0" });
  const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
    fetch: inProcessFetch(ip),
    requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : undefined,
  });
  await client.connect(transport);
  return client;
}

const tag = newTag();
let token: IssuedToken;

before(async () => {
  await listPublicDomains(tag);
  token = await issueAccessToken({ resource: resourceIdentifiers().mcp });
});
after(async () => {
  clock.reset();
  await closeDb();
});

describe("MCP /mcp", () => {
  it("initializes and lists search_domain with its schemas and annotations", async () => {
    const client = await connect();
    assert.equal(client.getServerVersion()?.name, "partner-domain-marketplace");
    const { tools } = await client.listTools();
    assert.deepEqual(
      tools.map((t) => t.name),
      ["search_domain"],
    );
    const tool = tools[0];
    assert.ok(tool);
    assert.match(tool.description ?? "", /masked/);
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.annotations?.openWorldHint, false);
    const input = tool.inputSchema as { properties: Record<string, Record<string, unknown>>; required?: string[] };
    assert.deepEqual(input.required, ["query"]);
    assert.equal(input.properties.query?.type, "string");
    assert.equal(input.properties.query?.minLength, 1);
    assert.equal(input.properties.query?.maxLength, 200);
    assert.equal(input.properties.limit?.minimum, 1);
    assert.equal(input.properties.limit?.maximum, 20);
    assert.ok(tool.outputSchema?.properties?.results);
    await client.close();
  });

  it("returns masked prices without a token, as text and structured content", async () => {
    const client = await connect();
    const result = (await client.callTool({ name: "search_domain", arguments: { query: `${tag}pizza` } })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    const body = publicSearchResponse.parse(result.structuredContent);
    assert.deepEqual(body.results.map((r) => r.domain).filter((d) => d.startsWith(tag)).sort(), [`${tag}pizza.com`, `${tag}pizza.io`]);
    assert.ok(body.results.every((r) => r.sale_price_cents === null && r.price_masked));
    const text = result.content[0];
    assert.equal(text?.type, "text");
    assert.ok(text?.type === "text" && text.text.includes(`${tag}pizza.com`) && text.text.includes("masked"), JSON.stringify(text));
    await client.close();
  });

  it("returns real prices with a valid token, the same results as the public search", async () => {
    const client = await connect(token.accessToken);
    const result = (await client.callTool({
      name: "search_domain",
      arguments: { query: `${tag}pizza.com`, limit: 1 },
    })) as CallToolResult;
    const body = publicSearchResponse.parse(result.structuredContent);
    assert.deepEqual(body.results, [
      { domain: `${tag}pizza.com`, available: true, sale_price_cents: 125_000, currency: "USD", price_masked: false },
    ]);
    const text = result.content[0];
    assert.ok(text?.type === "text" && text.text.includes("USD 1,250.00"), JSON.stringify(text));
    await client.close();
  });

  it("refuses invalid arguments as a tool error", async () => {
    const client = await connect();
    const result = (await client.callTool({ name: "search_domain", arguments: { query: "pizza", limit: 50 } })) as CallToolResult;
    assert.equal(result.isError, true);
    await client.close();
  });

  it("answers a bad token with 401 and a challenge naming the MCP resource metadata", async () => {
    const seen: Response[] = [];
    const client = new Client({ name: "mcp-integration-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(MCP_URL), {
      fetch: inProcessFetch(randomIp(), seen),
      requestInit: { headers: { authorization: "Bearer pdm_at_not-a-real-token" } },
    });
    await assert.rejects(client.connect(transport));
    const response = seen[0];
    assert.ok(response);
    assert.equal(response.status, 401);
    const header = response.headers.get("www-authenticate") ?? "";
    assert.match(header, /^Bearer /);
    assert.match(header, /error="invalid_token"/);
    assert.ok(header.includes(`resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource/mcp"`), header);
    assert.equal(((await response.json()) as { error: { code: string } }).error.code, "invalid_token");
  });

  it("refuses an expired token and a token bound to the public search resource", async () => {
    const app = await issueAccessToken({ resource: resourceIdentifiers().app });
    const initialize = (bearer: string) =>
      route.POST(
        new Request(MCP_URL, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${bearer}` },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "initialize",
            params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
          }),
        }),
      );
    assert.equal((await initialize(token.accessToken)).status, 200);
    assert.equal((await initialize(app.accessToken)).status, 401);
    clock.advance(31 * 60 * 1000);
    assert.equal((await initialize(token.accessToken)).status, 401);
    clock.reset();
  });

  it("shares the public search's per-IP limit: tool calls past it are tool errors", async () => {
    clock.freeze();
    const ip = randomIp();
    const client = await connect(undefined, ip);
    for (let i = 0; i < 30; i++) {
      const result = (await client.callTool({ name: "search_domain", arguments: { query: "pizza", limit: 1 } })) as CallToolResult;
      assert.notEqual(result.isError, true, `call ${i + 1}: ${JSON.stringify(result)}`);
    }
    const refused = (await client.callTool({ name: "search_domain", arguments: { query: "pizza" } })) as CallToolResult;
    assert.equal(refused.isError, true);
    assert.ok(refused.content[0]?.type === "text" && /rate limit/.test(refused.content[0].text));
    await client.close();
    clock.reset();
  });

  it("answers a CORS preflight that allows the MCP headers", () => {
    const res = route.OPTIONS();
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.match(res.headers.get("access-control-allow-headers") ?? "", /mcp-protocol-version/);
  });
});
