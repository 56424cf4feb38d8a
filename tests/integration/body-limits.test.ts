import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import * as publicSearch from "@/app/api/domain/search/route";
import * as mcp from "@/app/mcp/route";
import * as register from "@/app/api/oauth/register/route";
import * as token from "@/app/api/oauth/token/route";
import * as quotes from "@/app/api/partner/v1/quotes/route";
import * as webhooks from "@/app/api/partner/webhooks/route";
import { BODY_LIMITS } from "@/server/http/body";

// Every body is read through one counting reader that stops at the limit: a
// 64 MiB chunked upload is refused after at most the limit plus one chunk is
// pulled, before anything is parsed or authenticated (no credentials are sent).

const CHUNK = 64 * 1024;
const TOTAL = 64 * 1024 * 1024;

function chunkedBody(): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  let sent = 0;
  const chunk = new Uint8Array(CHUNK).fill(0x20);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= TOTAL) return controller.close();
      sent += CHUNK;
      controller.enqueue(chunk);
    },
  }, { highWaterMark: 0 });
  return { stream, pulled: () => sent };
}

type Handler = (request: Request, context: never) => Promise<Response>;

const cases: { name: string; handler: Handler; url: string; method: string; limit: number; contentType: string }[] = [
  { name: "partner POST /quotes", handler: quotes.POST as Handler, url: "/api/partner/v1/quotes", method: "POST", limit: BODY_LIMITS.partner, contentType: "application/json" },
  { name: "partner PUT /webhooks", handler: webhooks.PUT as Handler, url: "/api/partner/webhooks", method: "PUT", limit: BODY_LIMITS.partner, contentType: "application/json" },
  { name: "OAuth register", handler: register.POST as Handler, url: "/api/oauth/register", method: "POST", limit: BODY_LIMITS.oauth, contentType: "application/json" },
  { name: "OAuth token", handler: token.POST as Handler, url: "/api/oauth/token", method: "POST", limit: BODY_LIMITS.oauth, contentType: "application/x-www-form-urlencoded" },
  { name: "public search", handler: publicSearch.POST as Handler, url: "/api/domain/search", method: "POST", limit: BODY_LIMITS.publicSearch, contentType: "application/json" },
  { name: "MCP", handler: mcp.POST as Handler, url: "/mcp", method: "POST", limit: BODY_LIMITS.mcp, contentType: "application/json" },
];

const context = { params: Promise.resolve({}) } as never;

describe("request bodies are bounded before any work", () => {
  after(closeDb);

  for (const c of cases) {
    it(`${c.name}: a 64 MiB chunked body is refused after at most ${c.limit / 1024} KiB + one chunk`, async () => {
      const body = chunkedBody();
      const request = new Request(`http://localhost:3000${c.url}`, {
        method: c.method,
        headers: { "content-type": c.contentType, accept: "application/json, text/event-stream", "x-client-ip": "10.9.9.9" },
        body: body.stream,
        duplex: "half",
      } as RequestInit);
      const response = await c.handler(request, context);
      assert.equal(response.status, 413);
      assert.ok(response.headers.get("x-request-id"));
      const json = (await response.json()) as { error: unknown };
      const code = typeof json.error === "string" ? json.error : (json.error as { code: string }).code;
      assert.match(code, /payload_too_large|invalid_request/);
      assert.ok(body.pulled() <= c.limit + CHUNK, `pulled ${body.pulled()} bytes`);
    });

    it(`${c.name}: a declared Content-Length over the limit is refused unread`, async () => {
      const body = chunkedBody();
      const request = new Request(`http://localhost:3000${c.url}`, {
        method: c.method,
        headers: { "content-type": c.contentType, "content-length": String(TOTAL), accept: "application/json, text/event-stream" },
        body: body.stream,
        duplex: "half",
      } as RequestInit);
      const response = await c.handler(request, context);
      assert.equal(response.status, 413);
      assert.ok(body.pulled() <= CHUNK, `pulled ${body.pulled()} bytes`);
    });
  }
});
