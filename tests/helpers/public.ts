import assert from "node:assert/strict";
import { randomBytes, randomInt } from "node:crypto";
import { getDb } from "@/db/client";
import { users } from "@/db/schema";
import { newId } from "@/server/ids";
import { approveAuthorization, validateAuthorization } from "@/server/oauth/authorize";
import { registerClient } from "@/server/oauth/clients";
import { exchangeCode, s256 } from "@/server/oauth/tokens";
import { addDomain } from "@/server/services/inventory";
import { opaqueTag } from "./tags";

// Fixtures of the public-interface suites: live listings under a random tag, and
// real access tokens minted through the authorization server's own functions
// (register -> validate -> approve -> exchange), never by writing token rows.


export function newTag(): string {
  return opaqueTag("zp");
}

/** Lists `${tag}pizza.com` (1,250.00) and `${tag}pizza.io` (480.00) in the LIVE inventory. */
export async function listPublicDomains(tag: string) {
  const db = getDb();
  await addDomain(db, { environment: "live", name: `${tag}pizza.com`, priceCents: 125_000, currency: "USD" });
  await addDomain(db, { environment: "live", name: `${tag}pizza.io`, priceCents: 48_000, currency: "USD" });
}

export async function createCustomer(): Promise<string> {
  const id = newId("user");
  await getDb()
    .insert(users)
    .values({ id, email: `buyer-${id}@test.example`, passwordHash: "not-a-real-hash", role: "customer" });
  return id;
}

export interface IssuedToken {
  accessToken: string;
  refreshToken: string;
  userId: string;
  clientId: string;
}

/** A real access token for a new customer, optionally bound to one resource (RFC 8707). */
export async function issueAccessToken(options: { userId?: string; resource?: string } = {}): Promise<IssuedToken> {
  const db = getDb();
  const userId = options.userId ?? (await createCustomer());
  const redirectUri = "http://127.0.0.1:8976/callback";
  const client = await registerClient(db, { client_name: "Public search test", redirect_uris: [redirectUri] });
  const verifier = randomBytes(32).toString("base64url");
  const outcome = await validateAuthorization(db, {
    response_type: "code",
    client_id: client.client_id,
    redirect_uri: redirectUri,
    code_challenge: s256(verifier),
    code_challenge_method: "S256",
    state: "st",
    ...(options.resource ? { resource: options.resource } : {}),
  });
  assert.equal(outcome.kind, "consent", JSON.stringify(outcome));
  if (outcome.kind !== "consent") throw new Error("unreachable");
  const code = new URL(await approveAuthorization(db, outcome.request, userId)).searchParams.get("code");
  assert.ok(code);
  const tokens = await exchangeCode(db, {
    clientId: client.client_id,
    code,
    redirectUri,
    codeVerifier: verifier,
    ...(options.resource ? { resource: options.resource } : {}),
  });
  return { accessToken: tokens.access_token, refreshToken: tokens.refresh_token, userId, clientId: client.client_id };
}

/** A fresh client IP per test, so anonymous buckets never carry over between tests or runs. */
export function randomIp(): string {
  return `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
}
