import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import { getDb } from "@/db/client";
import * as route from "@/app/api/domain/search/route";
import { clock } from "@/server/clock";
import { resourceIdentifiers } from "@/server/oauth/metadata";
import { revokeUserTokens } from "@/server/oauth/tokens";
import { publicSearchResponse } from "@/server/public/contract";
import { issueAccessToken, listPublicDomains, newTag, randomIp, type IssuedToken } from "../helpers/public";

// POST /api/domain/search against the real database and real tokens: masked
// prices without a token, real ones with, 401 for a bad token, validation,
// per-IP and per-token rate limits, CORS.

const URL_ = "http://localhost:3000/api/domain/search";

interface Result {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

async function search(body: unknown, headers: Record<string, string> = {}): Promise<Result> {
  const request = new Request(URL_, {
    method: "POST",
    headers: { "content-type": "application/json", "x-client-ip": randomIp(), ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const response = await route.POST(request);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

function errorCode(res: Result): string {
  return (res.body.error as { code: string }).code;
}

const tag = newTag();
let token: IssuedToken;

before(async () => {
  await listPublicDomains(tag);
  token = await issueAccessToken();
});
afterEach(() => clock.reset());
after(async () => {
  clock.reset();
  await closeDb();
});

describe("POST /api/domain/search", () => {
  it("masks prices without a token", async () => {
    const res = await search({ query: `${tag}pizza` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const body = publicSearchResponse.parse(res.body);
    assert.deepEqual(
      body.results.map((r) => r.domain).filter((d) => d.startsWith(tag)).sort(),
      [`${tag}pizza.com`, `${tag}pizza.io`],
    );
    for (const result of body.results) {
      assert.equal(result.sale_price_cents, null);
      assert.equal(result.price_masked, true);
      assert.equal(result.currency, "USD");
      assert.equal(result.available, true);
      assert.deepEqual(Object.keys(result).sort(), ["available", "currency", "domain", "price_masked", "sale_price_cents"]);
    }
    assert.ok(res.headers.get("x-request-id"));
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.headers.get("ratelimit-limit"), "30");
  });

  it("shows real prices with a valid token", async () => {
    const res = await search({ query: `${tag}pizza.com` }, bearer(token.accessToken));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const body = publicSearchResponse.parse(res.body);
    assert.deepEqual(body.results[0], {
      domain: `${tag}pizza.com`,
      available: true,
      sale_price_cents: 125_000,
      currency: "USD",
      price_masked: false,
    });
    assert.equal(res.headers.get("ratelimit-limit"), "120");
  });

  it("accepts a token bound to the public search resource and refuses one bound to the MCP server", async () => {
    const app = await issueAccessToken({ resource: resourceIdentifiers().app });
    assert.equal((await search({ query: `${tag}pizza` }, bearer(app.accessToken))).status, 200);
    const mcp = await issueAccessToken({ resource: resourceIdentifiers().mcp });
    const res = await search({ query: `${tag}pizza` }, bearer(mcp.accessToken));
    assert.equal(res.status, 401);
    assert.equal(errorCode(res), "invalid_token");
  });

  it("refuses an unknown, malformed, expired or revoked token with 401 invalid_token and a challenge", async () => {
    const challenge = (res: Result) => {
      assert.equal(res.status, 401, JSON.stringify(res.body));
      assert.equal(errorCode(res), "invalid_token");
      const header = res.headers.get("www-authenticate") ?? "";
      assert.match(header, /^Bearer /);
      assert.match(header, /error="invalid_token"/);
      assert.ok(header.includes(`resource_metadata="http://localhost:3000/.well-known/oauth-protected-resource"`), header);
      assert.match(res.headers.get("access-control-expose-headers") ?? "", /www-authenticate/);
    };
    challenge(await search({ query: "pizza" }, bearer("pdm_at_unknownunknownunknown")));
    challenge(await search({ query: "pizza" }, { authorization: "Basic abc" }));
    challenge(await search({ query: "pizza" }, bearer(token.refreshToken)));

    const expiring = await issueAccessToken();
    clock.advance(31 * 60 * 1000);
    challenge(await search({ query: "pizza" }, bearer(expiring.accessToken)));
    clock.reset();

    const revoked = await issueAccessToken();
    assert.equal((await search({ query: "pizza" }, bearer(revoked.accessToken))).status, 200);
    await revokeUserTokens(getDb(), revoked.userId);
    challenge(await search({ query: "pizza" }, bearer(revoked.accessToken)));
  });

  it("validates the body in the standard error shape", async () => {
    const cases: [unknown, string][] = [
      [{}, "query"],
      [{ query: "" }, "query"],
      [{ query: "   " }, "query"],
      [{ query: "x".repeat(201) }, "query"],
      [{ query: "pizza", limit: 0 }, "limit"],
      [{ query: "pizza", limit: 21 }, "limit"],
      [{ query: "pizza", limit: 2.5 }, "limit"],
      [{ query: "pizza", limit: "5" }, "limit"],
      ["not json", "body"],
      [[], ""],
    ];
    for (const [body, path] of cases) {
      const res = await search(body);
      assert.equal(res.status, 400, `${JSON.stringify(body)} -> ${JSON.stringify(res.body)}`);
      const error = res.body.error as { code: string; request_id: string; details: { path: string }[] };
      assert.equal(error.code, "validation_error");
      assert.ok(error.request_id);
      assert.equal(error.details[0]?.path, path, JSON.stringify(res.body));
    }
    const limited = publicSearchResponse.parse((await search({ query: `${tag}pizza`, limit: 1 })).body);
    assert.equal(limited.results.length, 1);
  });

  it("limits anonymous callers to 30 requests a minute per client IP", async () => {
    clock.freeze();
    const ip = randomIp();
    for (let i = 0; i < 30; i++) {
      const res = await search({ query: "pizza", limit: 1 }, { "x-client-ip": ip });
      assert.equal(res.status, 200, `request ${i + 1}: ${JSON.stringify(res.body)}`);
      assert.equal(res.headers.get("ratelimit-remaining"), String(29 - i));
    }
    const refused = await search({ query: "pizza" }, { "x-client-ip": ip });
    assert.equal(refused.status, 429);
    assert.equal(errorCode(refused), "rate_limited");
    assert.equal(refused.headers.get("retry-after"), "2");
    assert.equal(refused.headers.get("ratelimit-limit"), "30");
    assert.equal(refused.headers.get("ratelimit-remaining"), "0");
    assert.equal(refused.headers.get("access-control-allow-origin"), "*");

    assert.equal((await search({ query: "pizza" }, { "x-client-ip": randomIp() })).status, 200, "another IP");
    assert.equal((await search({ query: "pizza" }, { "x-client-ip": ip, ...bearer(token.accessToken) })).status, 200, "a token");
    clock.advance(2000);
    assert.equal((await search({ query: "pizza" }, { "x-client-ip": ip })).status, 200, "after Retry-After");
  });

  it("limits a token to 120 requests a minute, whatever the IP", async () => {
    clock.freeze();
    const own = await issueAccessToken();
    for (let i = 0; i < 120; i++) {
      const res = await search({ query: "" }, bearer(own.accessToken)); // invalid bodies count too
      assert.equal(res.status, 400, `request ${i + 1}`);
    }
    const refused = await search({ query: "pizza" }, bearer(own.accessToken));
    assert.equal(refused.status, 429);
    assert.equal(refused.headers.get("ratelimit-limit"), "120");
    assert.equal(refused.headers.get("retry-after"), "1");
    assert.equal((await search({ query: "pizza" }, bearer(token.accessToken))).status, 200, "another token");
  });

  it("answers a CORS preflight", async () => {
    const res = route.OPTIONS();
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.match(res.headers.get("access-control-allow-methods") ?? "", /POST/);
    assert.match(res.headers.get("access-control-allow-headers") ?? "", /authorization/);
    assert.equal(res.headers.get("access-control-allow-credentials"), null);
  });
});
