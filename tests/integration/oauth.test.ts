import assert from "node:assert/strict";
import { after, afterEach, before, describe, it } from "node:test";
import { eq } from "drizzle-orm";
import * as oauth from "oauth4webapi";
import { closeDb, getDb } from "@/db/client";
import { oauthCodes, oauthTokens, users } from "@/db/schema";
import { clock } from "@/server/clock";
import { getEnv } from "@/server/env";
import { AppError } from "@/server/errors";
import { approveAuthorization, denyAuthorization, validateAuthorization } from "@/server/oauth/authorize";
import {
  authorizationServerMetadataHandler,
  protectedResourceHandler,
  registerHandler,
  tokenHandler,
} from "@/server/oauth/http";
import { resourceIdentifiers, wwwAuthenticate } from "@/server/oauth/metadata";
import { revokeOAuthAccess } from "@/server/oauth/revoke";
import { authenticateBearer } from "@/server/oauth/tokens";
import { createUser } from "@/server/services/partners";
import { uniqueSuffix } from "../helpers/partner";
import { randomIp } from "../helpers/public";

// The authorization server driven by a client library nobody here wrote
// (oauth4webapi), with its HTTP calls dispatched in-process to the route handlers.
// The browser part (sign-in + consent pages) is e2e/oauth/authorize.spec.ts; here
// the consent service is called for a signed-in user directly.

after(closeDb);
afterEach(() => clock.reset());


const routes: Record<string, (request: Request) => Response | Promise<Response>> = {
  "/.well-known/oauth-authorization-server": () => authorizationServerMetadataHandler(),
  "/.well-known/openid-configuration": () => authorizationServerMetadataHandler(),
  "/.well-known/oauth-protected-resource": () => protectedResourceHandler("app"),
  "/.well-known/oauth-protected-resource/mcp": () => protectedResourceHandler("mcp"),
  "/api/oauth/register": registerHandler,
  "/api/oauth/token": tokenHandler,
};

async function dispatch(url: string | URL, init?: RequestInit): Promise<Response> {
  const request = new Request(url, init);
  // Each call its own address, so the per-IP registration limit is tested alone.
  if (!request.headers.has("x-client-ip")) request.headers.set("x-client-ip", randomIp());
  const route = routes[new URL(request.url).pathname];
  assert.ok(route, `no in-process route for ${request.url}`);
  return route(request);
}

const options = { [oauth.customFetch]: dispatch, [oauth.allowInsecureRequests]: true };
const REDIRECT = "http://127.0.0.1/callback";

let as: oauth.AuthorizationServer;
let userId: string;

async function register(body: unknown): Promise<Response> {
  return dispatch(`${getEnv().APP_URL}/api/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function registerClient(redirectUris = [REDIRECT]): Promise<oauth.Client> {
  const response = await register({ client_name: "Test Agent", redirect_uris: redirectUris, token_endpoint_auth_method: "client_secret_basic", unknown_field: 1 });
  assert.equal(response.status, 201);
  const body = (await response.json()) as { client_id: string };
  return { client_id: body.client_id, token_endpoint_auth_method: "none" };
}

/** What a browser would carry to /oauth/authorize, approved by the signed-in user. */
async function authorize(
  client: oauth.Client,
  extra: Record<string, string> = {},
): Promise<{ callback: URL; verifier: string; state: string; redirectUri: string }> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const redirectUri = extra.redirect_uri ?? REDIRECT;
  const outcome = await validateAuthorization(getDb(), {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    ...extra,
  });
  assert.equal(outcome.kind, "consent", JSON.stringify(outcome));
  if (outcome.kind !== "consent") throw new Error("unreachable");
  const callback = new URL(await approveAuthorization(getDb(), outcome.request, userId));
  return { callback, verifier, state, redirectUri };
}

async function exchange(client: oauth.Client, flow: Awaited<ReturnType<typeof authorize>>) {
  const params = oauth.validateAuthResponse(as, client, flow.callback, flow.state);
  const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, flow.redirectUri, flow.verifier, options);
  return oauth.processAuthorizationCodeResponse(as, client, response);
}

async function rawToken(body: Record<string, string>): Promise<{ status: number; body: { error?: string; error_description?: string }; headers: Headers }> {
  const response = await dispatch(`${getEnv().APP_URL}/api/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(body),
  });
  return { status: response.status, body: (await response.json()) as { error?: string }, headers: response.headers };
}

const isInvalidToken = (error: unknown) => error instanceof AppError && error.code === "invalid_token";
const bearer = (token: string) => `Bearer ${token}`;

before(async () => {
  const issuer = new URL(getEnv().APP_URL);
  as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));
  ({ userId } = await createUser(getDb(), { email: `oauth-${uniqueSuffix()}@test.example`, password: "correct horse battery" }));
});

describe("OAuth discovery", () => {
  it("publishes RFC 8414 metadata at both paths with the same issuer", async () => {
    const env = getEnv();
    assert.equal(as.issuer, env.APP_URL);
    assert.equal(as.authorization_endpoint, `${env.APP_URL}/oauth/authorize`);
    assert.equal(as.token_endpoint, `${env.APP_URL}/api/oauth/token`);
    assert.equal(as.registration_endpoint, `${env.APP_URL}/api/oauth/register`);
    assert.deepEqual(as.code_challenge_methods_supported, ["S256"]);
    assert.deepEqual(as.token_endpoint_auth_methods_supported, ["none"]);
    assert.equal(as.authorization_response_iss_parameter_supported, true);
    const oidc = await oauth.processDiscoveryResponse(new URL(env.APP_URL), await oauth.discoveryRequest(new URL(env.APP_URL), { ...options, algorithm: "oidc" }));
    assert.deepEqual(oidc, as);
    const response = authorizationServerMetadataHandler();
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    assert.equal(response.headers.get("access-control-allow-credentials"), null);
  });

  it("publishes RFC 9728 metadata for the API and the MCP server", async () => {
    const { app, mcp } = resourceIdentifiers();
    for (const [which, resource] of [["app", app], ["mcp", mcp]] as const) {
      const body = (await protectedResourceHandler(which).json()) as { resource: string; authorization_servers: string[] };
      assert.equal(body.resource, resource);
      assert.deepEqual(body.authorization_servers, [getEnv().APP_URL]);
    }
    assert.equal(
      wwwAuthenticate("https://x.example/.well-known/oauth-protected-resource", "invalid_token"),
      'Bearer resource_metadata="https://x.example/.well-known/oauth-protected-resource", error="invalid_token"',
    );
  });
});

describe("OAuth registration", () => {
  it("returns 201 with the metadata echoed, auth method forced to none, unknown fields ignored", async () => {
    const response = await register({ client_name: "Echo", redirect_uris: ["https://app.example/cb", "http://[::1]/cb"], token_endpoint_auth_method: "client_secret_post", foo: "bar" });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get("access-control-allow-origin"), "*");
    const body = (await response.json()) as Record<string, unknown>;
    assert.match(String(body.client_id), /^oc_/);
    assert.equal(typeof body.client_id_issued_at, "number");
    assert.equal(body.token_endpoint_auth_method, "none");
    assert.equal(body.client_name, "Echo");
    assert.deepEqual(body.redirect_uris, ["https://app.example/cb", "http://[::1]/cb"]);
    assert.equal(body.client_secret, undefined);
    assert.equal(body.foo, undefined);
  });

  it("refuses bad redirect URIs and bad metadata with RFC 7591 errors", async () => {
    const cases: [unknown, string][] = [
      [{ redirect_uris: ["http://app.example/cb"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [] }, "invalid_redirect_uri"],
      [{ client_name: "x" }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://app.example/cb#frag"] }, "invalid_redirect_uri"],
      [{ redirect_uris: [`https://app.example/${"a".repeat(2000)}`] }, "invalid_redirect_uri"],
      [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://app.example/${i}`) }, "invalid_redirect_uri"],
      [{ redirect_uris: ["https://app.example/cb"], grant_types: ["client_credentials"] }, "invalid_client_metadata"],
      [{ redirect_uris: ["https://app.example/cb"], client_name: 5 }, "invalid_client_metadata"],
      [[1, 2], "invalid_client_metadata"],
    ];
    for (const [body, error] of cases) {
      const response = await register(body);
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 80));
      const json = (await response.json()) as { error: string; error_description: string };
      assert.equal(json.error, error, JSON.stringify(body).slice(0, 80));
      assert.ok(json.error_description);
    }
  });

  it("rate-limits registrations per IP with Retry-After", async () => {
    const other = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const request = new Request(`${getEnv().APP_URL}/api/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-client-ip": other },
        body: JSON.stringify({ redirect_uris: ["https://app.example/cb"] }),
      });
      const response = await registerHandler(request);
      statuses.push(response.status);
      if (response.status === 429) assert.ok(Number(response.headers.get("retry-after")) >= 1);
    }
    assert.deepEqual(statuses.slice(0, 10), Array(10).fill(201));
    assert.deepEqual(statuses.slice(10), [429, 429]);
  });
});

describe("OAuth authorization code flow (oauth4webapi)", () => {
  it("authorize -> token -> refresh -> authenticateBearer", async () => {
    const client = await registerClient();
    const flow = await authorize(client, { resource: resourceIdentifiers().mcp });
    assert.equal(flow.callback.searchParams.get("iss"), getEnv().APP_URL);
    const tokens = await exchange(client, flow);
    assert.equal(tokens.token_type, "bearer");
    assert.equal(tokens.expires_in, 1800);
    assert.equal(tokens.scope, "pricing:read");
    assert.ok(tokens.refresh_token);

    // Only hashes are stored.
    const stored = await getDb().select().from(oauthTokens).where(eq(oauthTokens.clientId, client.client_id));
    assert.equal(stored.length, 2);
    assert.ok(!JSON.stringify(stored).includes(tokens.access_token));
    assert.ok(!JSON.stringify(stored).includes(tokens.refresh_token));
    const codes = await getDb().select().from(oauthCodes).where(eq(oauthCodes.clientId, client.client_id));
    assert.ok(!JSON.stringify(codes).includes(flow.callback.searchParams.get("code")!));

    const identity = await authenticateBearer(getDb(), bearer(tokens.access_token), { resource: resourceIdentifiers().mcp });
    assert.deepEqual(identity, { userId, clientId: client.client_id, scope: "pricing:read" });
    assert.equal(await authenticateBearer(getDb(), null), null);
    // Bound to the MCP resource: not accepted by the public API.
    await assert.rejects(authenticateBearer(getDb(), bearer(tokens.access_token), { resource: resourceIdentifiers().app }), isInvalidToken);
    await assert.rejects(authenticateBearer(getDb(), bearer(tokens.refresh_token)), isInvalidToken);
    await assert.rejects(authenticateBearer(getDb(), "Bearer nope"), isInvalidToken);

    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token, options),
    );
    assert.notEqual(refreshed.refresh_token, tokens.refresh_token);
    assert.ok(await authenticateBearer(getDb(), bearer(refreshed.access_token)));
    // The old access token lives on until it expires (rotation concerns refresh tokens).
    assert.ok(await authenticateBearer(getDb(), bearer(tokens.access_token)));

    clock.advance(30 * 60 * 1000 + 1000);
    await assert.rejects(authenticateBearer(getDb(), bearer(refreshed.access_token)), (error: unknown) => {
      assert.ok(isInvalidToken(error));
      assert.match((error as AppError).headers?.["www-authenticate"] ?? "", /^Bearer resource_metadata=".*", error="invalid_token"/);
      return true;
    });
    // The refresh token still works after the access token expired.
    const again = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshed.refresh_token!, options),
    );
    assert.ok(await authenticateBearer(getDb(), bearer(again.access_token)));
  });

  it("accepts any port on a registered loopback redirect, but refuses another path at /token", async () => {
    const client = await registerClient(["http://127.0.0.1/callback", "http://localhost:8080/cb"]);
    const flow = await authorize(client, { redirect_uri: "http://127.0.0.1:53211/callback" });
    const tokens = await exchange(client, flow);
    assert.ok(tokens.access_token);
    await authorize(client, { redirect_uri: "http://localhost:1/cb" });

    const mismatch = await authorize(client, { redirect_uri: "http://127.0.0.1:4000/callback" });
    const refused = await rawToken({
      grant_type: "authorization_code",
      client_id: client.client_id,
      code: mismatch.callback.searchParams.get("code")!,
      redirect_uri: "http://127.0.0.1:4001/callback",
      code_verifier: mismatch.verifier,
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, "invalid_grant");
    assert.equal(refused.headers.get("cache-control"), "no-store");
  });

  it("shows an error page, never a redirect, for a bad client or redirect_uri", async () => {
    const client = await registerClient(["https://app.example/cb", "http://127.0.0.1/cb"]);
    const base = { response_type: "code", code_challenge: "x".repeat(43), code_challenge_method: "S256" };
    const bad = [
      { ...base, client_id: "oc_unknown", redirect_uri: "https://app.example/cb" },
      { ...base, redirect_uri: "https://app.example/cb" },
      { ...base, client_id: client.client_id, redirect_uri: "https://evil.example/cb" },
      { ...base, client_id: client.client_id, redirect_uri: "https://app.example/cb/more" },
      { ...base, client_id: client.client_id, redirect_uri: "https://app.example:8443/cb" },
      { ...base, client_id: client.client_id, redirect_uri: "http://127.0.0.1:80/other" },
      { ...base, client_id: client.client_id },
      { ...base, client_id: client.client_id, redirect_uri: ["https://app.example/cb", "https://app.example/cb"] },
    ];
    for (const params of bad) {
      const outcome = await validateAuthorization(getDb(), params);
      assert.equal(outcome.kind, "error_page", JSON.stringify(params));
    }
  });

  it("refuses plain or missing PKCE, bad response_type and unknown resource with an error redirect", async () => {
    const client = await registerClient();
    const base = { response_type: "code", client_id: client.client_id, redirect_uri: REDIRECT, state: "s1" };
    const cases: [Record<string, string>, string][] = [
      [{ ...base, code_challenge: "a".repeat(43), code_challenge_method: "plain" }, "invalid_request"],
      [{ ...base, code_challenge: "a".repeat(43) }, "invalid_request"],
      [{ ...base, code_challenge_method: "S256" }, "invalid_request"],
      [{ ...base, response_type: "token", code_challenge: "a".repeat(43), code_challenge_method: "S256" }, "unsupported_response_type"],
      [{ ...base, code_challenge: "a".repeat(43), code_challenge_method: "S256", resource: "https://other.example/mcp" }, "invalid_target"],
      [{ ...base, code_challenge: "a".repeat(43), code_challenge_method: "S256", scope: "admin" }, "invalid_scope"],
    ];
    for (const [params, error] of cases) {
      const outcome = await validateAuthorization(getDb(), params);
      assert.equal(outcome.kind, "redirect", JSON.stringify(params));
      if (outcome.kind !== "redirect") continue;
      const url = new URL(outcome.url);
      assert.equal(`${url.origin}${url.pathname}`, REDIRECT);
      assert.equal(url.searchParams.get("error"), error);
      assert.equal(url.searchParams.get("state"), "s1");
      assert.equal(url.searchParams.get("iss"), getEnv().APP_URL);
      assert.throws(() => oauth.validateAuthResponse(as, client, url, "s1"), oauth.AuthorizationResponseError);
    }
  });

  it("deny redirects with access_denied, state and iss", async () => {
    const client = await registerClient();
    const outcome = await validateAuthorization(getDb(), {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: "b".repeat(43),
      code_challenge_method: "S256",
      state: "xyz",
    });
    assert.equal(outcome.kind, "consent");
    if (outcome.kind !== "consent") return;
    const url = new URL(denyAuthorization(outcome.request));
    assert.equal(url.searchParams.get("error"), "access_denied");
    assert.equal(url.searchParams.get("state"), "xyz");
    assert.equal(url.searchParams.get("iss"), getEnv().APP_URL);
  });

  it("refuses a wrong PKCE verifier with invalid_grant", async () => {
    const client = await registerClient();
    const flow = await authorize(client);
    await assert.rejects(exchange(client, { ...flow, verifier: oauth.generateRandomCodeVerifier() }), (error: unknown) => {
      assert.ok(error instanceof oauth.ResponseBodyError);
      assert.equal(error.error, "invalid_grant");
      assert.equal(error.status, 400);
      return true;
    });
  });

  it("refuses an expired code (60 s)", async () => {
    const client = await registerClient();
    const flow = await authorize(client);
    clock.advance(61_000);
    await assert.rejects(exchange(client, flow), (error: unknown) => error instanceof oauth.ResponseBodyError && error.error === "invalid_grant");
  });

  it("a replayed code is refused and revokes every token issued from it", async () => {
    const client = await registerClient();
    const flow = await authorize(client);
    const tokens = await exchange(client, flow);
    const refreshed = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options),
    );
    assert.ok(await authenticateBearer(getDb(), bearer(refreshed.access_token)));
    await assert.rejects(exchange(client, flow), (error: unknown) => error instanceof oauth.ResponseBodyError && error.error === "invalid_grant");
    await assert.rejects(authenticateBearer(getDb(), bearer(tokens.access_token)), isInvalidToken);
    await assert.rejects(authenticateBearer(getDb(), bearer(refreshed.access_token)), isInvalidToken);
    const refresh = await rawToken({ grant_type: "refresh_token", client_id: client.client_id, refresh_token: refreshed.refresh_token! });
    assert.equal(refresh.body.error, "invalid_grant");
  });

  it("reuse of a rotated refresh token is refused and revokes the whole family", async () => {
    const client = await registerClient();
    const tokens = await exchange(client, await authorize(client));
    const rotated = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options),
    );
    const reuse = await rawToken({ grant_type: "refresh_token", client_id: client.client_id, refresh_token: tokens.refresh_token! });
    assert.equal(reuse.status, 400);
    assert.equal(reuse.body.error, "invalid_grant");
    await assert.rejects(authenticateBearer(getDb(), bearer(rotated.access_token)), isInvalidToken);
    const next = await rawToken({ grant_type: "refresh_token", client_id: client.client_id, refresh_token: rotated.refresh_token! });
    assert.equal(next.body.error, "invalid_grant");
    // A token of the same user from another consent is untouched.
    const other = await exchange(client, await authorize(client));
    assert.ok(await authenticateBearer(getDb(), bearer(other.access_token)));
  });

  it("token endpoint errors follow RFC 6749", async () => {
    const client = await registerClient();
    assert.equal((await rawToken({ grant_type: "password", client_id: client.client_id })).body.error, "unsupported_grant_type");
    assert.equal((await rawToken({ grant_type: "authorization_code", client_id: client.client_id })).body.error, "invalid_request");
    const noClient = await rawToken({ grant_type: "refresh_token", refresh_token: "x" });
    assert.equal(noClient.status, 401);
    assert.equal(noClient.body.error, "invalid_client");
    const other = await registerClient();
    const flow = await authorize(client);
    const stolen = await rawToken({
      grant_type: "authorization_code",
      client_id: other.client_id,
      code: flow.callback.searchParams.get("code")!,
      redirect_uri: REDIRECT,
      code_verifier: flow.verifier,
    });
    assert.equal(stolen.body.error, "invalid_grant");
    const json = await dispatch(`${getEnv().APP_URL}/api/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    assert.equal(json.status, 400);
    assert.equal(((await json.json()) as { error: string }).error, "invalid_request");
  });
});

describe("OAuth support revocation", () => {
  it("revoking a user's tokens takes effect at once; a disabled user is refused", async () => {
    const email = `revoke-${uniqueSuffix()}@test.example`;
    const user = await createUser(getDb(), { email, password: "correct horse battery" });
    const client = await registerClient();
    const saved = userId;
    userId = user.userId;
    try {
      const tokens = await exchange(client, await authorize(client));
      assert.ok(await authenticateBearer(getDb(), bearer(tokens.access_token)));
      const result = await revokeOAuthAccess(getDb(), { userEmail: email }, { type: "cli" });
      assert.deepEqual(result, { target: "user", id: user.userId, tokens_revoked: 2 });
      await assert.rejects(authenticateBearer(getDb(), bearer(tokens.access_token)), isInvalidToken);
      const refresh = await rawToken({ grant_type: "refresh_token", client_id: client.client_id, refresh_token: tokens.refresh_token! });
      assert.equal(refresh.body.error, "invalid_grant");

      const fresh = await exchange(client, await authorize(client));
      await getDb().update(users).set({ disabledAt: clock.now() }).where(eq(users.id, user.userId));
      await assert.rejects(authenticateBearer(getDb(), bearer(fresh.access_token)), isInvalidToken);
    } finally {
      userId = saved;
    }
  });

  it("revoking a client blocks its tokens and its authorize requests", async () => {
    const client = await registerClient();
    const tokens = await exchange(client, await authorize(client));
    const result = await revokeOAuthAccess(getDb(), { clientId: client.client_id }, { type: "cli" });
    assert.equal(result.tokens_revoked, 2);
    await assert.rejects(authenticateBearer(getDb(), bearer(tokens.access_token)), isInvalidToken);
    const outcome = await validateAuthorization(getDb(), {
      response_type: "code",
      client_id: client.client_id,
      redirect_uri: REDIRECT,
      code_challenge: "c".repeat(43),
      code_challenge_method: "S256",
    });
    assert.equal(outcome.kind, "error_page");
    await assert.rejects(revokeOAuthAccess(getDb(), { clientId: "oc_missing" }, { type: "cli" }), (e: unknown) => e instanceof AppError && e.code === "not_found");
  });
});
