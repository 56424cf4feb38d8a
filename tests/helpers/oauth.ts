import assert from "node:assert/strict";
import { getDb } from "@/db/client";
import { getEnv } from "@/server/env";
import { randomBase62 } from "@/server/ids";
import { approveAuthorization, validateAuthorization } from "@/server/oauth/authorize";
import { registerHandler, tokenHandler } from "@/server/oauth/http";
import { s256 } from "@/server/oauth/tokens";
import { randomIp } from "./public";

// A registered OAuth client and a user's consent to it, through the real
// registration and token endpoints (in process); the consent page's service
// stands in for the browser (e2e/oauth covers that part).

export const REDIRECT = "http://127.0.0.1/callback";

async function post(handler: (request: Request) => Response | Promise<Response>, path: string, body: BodyInit, contentType: string) {
  const request = new Request(`${getEnv().APP_URL}${path}`, { method: "POST", headers: { "content-type": contentType, "x-client-ip": randomIp() }, body });
  return handler(request);
}

/** POST /api/oauth/register: the client_id of a new public client. */
export async function registerTestClient(name: string, redirectUris = [REDIRECT]): Promise<string> {
  const response = await post(registerHandler, "/api/oauth/register", JSON.stringify({ client_name: name, redirect_uris: redirectUris }), "application/json");
  assert.equal(response.status, 201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** The user consents (authorize + approve) and the client redeems the code at POST /api/oauth/token. */
export async function grantTokens(clientId: string, userId: string): Promise<{ access_token: string; refresh_token: string; scope: string }> {
  const verifier = randomBase62(64);
  const outcome = await validateAuthorization(getDb(), {
    response_type: "code",
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: s256(verifier),
    code_challenge_method: "S256",
    state: "st",
  });
  assert.equal(outcome.kind, "consent", JSON.stringify(outcome));
  if (outcome.kind !== "consent") throw new Error("unreachable");
  const code = new URL(await approveAuthorization(getDb(), outcome.request, userId)).searchParams.get("code");
  assert.ok(code);
  const params = new URLSearchParams({ grant_type: "authorization_code", client_id: clientId, code, redirect_uri: REDIRECT, code_verifier: verifier });
  const response = await post(tokenHandler, "/api/oauth/token", params, "application/x-www-form-urlencoded");
  assert.equal(response.status, 200);
  return (await response.json()) as { access_token: string; refresh_token: string; scope: string };
}

/** POST /api/oauth/token with a refresh token: the HTTP status and OAuth error, if any. */
export async function refreshWith(clientId: string, refreshToken: string): Promise<{ status: number; error?: string }> {
  const params = new URLSearchParams({ grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken });
  const response = await post(tokenHandler, "/api/oauth/token", params, "application/x-www-form-urlencoded");
  const body = (await response.json()) as { error?: string };
  return { status: response.status, error: body.error };
}
