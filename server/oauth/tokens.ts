import { createHash } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oauthClients, oauthCodes, oauthTokens, users } from "@/db/schema";
import { clock } from "@/server/clock";
import { sha256Hex } from "@/server/crypto";
import { AppError } from "@/server/errors";
import { newId, randomBase62 } from "@/server/ids";
import { OAuthError } from "./errors";
import { resourceIdentifiers, resourceMetadataUrl, wwwAuthenticate } from "./metadata";

// Opaque bearer tokens. Only SHA-256 hashes are stored; a token family is every
// access/refresh token descended from one authorization code.

export const ACCESS_TOKEN_TTL_MS = 30 * 60 * 1000;
export const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;

const ACCESS_PREFIX = "pdm_at_";
const REFRESH_PREFIX = "pdm_rt_";

export interface BearerIdentity {
  userId: string;
  clientId: string;
  scope: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  refresh_token: string;
  scope: string;
}

/**
 * Who a request's `Authorization: Bearer` header speaks for. null when there is no
 * header (anonymous caller); throws AppError("invalid_token") with a
 * WWW-Authenticate header for a present but malformed, unknown, expired or revoked
 * token, a revoked client, a disabled user, or a token bound to another resource.
 */
export async function authenticateBearer(
  db: Db,
  authorizationHeader: string | null,
  options: { resource?: string } = {},
): Promise<BearerIdentity | null> {
  if (authorizationHeader === null || authorizationHeader.trim() === "") return null;
  const metadataUrl = resourceMetadataUrl(options.resource === resourceIdentifiers().mcp ? "mcp" : "app");
  const fail = (message: string) =>
    new AppError("invalid_token", message, undefined, {
      "www-authenticate": wwwAuthenticate(metadataUrl, "invalid_token", message),
    });

  const match = /^Bearer[ \t]+([A-Za-z0-9._~+/-]+=*)[ \t]*$/i.exec(authorizationHeader);
  if (!match?.[1]) throw fail("The Authorization header must be `Bearer <access token>`.");
  const token = match[1];
  if (!token.startsWith(ACCESS_PREFIX)) throw fail("The access token is invalid.");

  const [row] = await db
    .select({
      kind: oauthTokens.kind,
      userId: oauthTokens.userId,
      clientId: oauthTokens.clientId,
      scope: oauthTokens.scope,
      resource: oauthTokens.resource,
      expiresAt: oauthTokens.expiresAt,
      revokedAt: oauthTokens.revokedAt,
      clientRevokedAt: oauthClients.revokedAt,
      userDisabledAt: users.disabledAt,
    })
    .from(oauthTokens)
    .innerJoin(oauthClients, eq(oauthClients.id, oauthTokens.clientId))
    .innerJoin(users, eq(users.id, oauthTokens.userId))
    .where(eq(oauthTokens.tokenHash, sha256Hex(token)))
    .limit(1);
  if (!row || row.kind !== "access") throw fail("The access token is invalid.");
  if (row.revokedAt || row.clientRevokedAt || row.userDisabledAt) throw fail("The access token has been revoked.");
  if (row.expiresAt.getTime() <= clock.nowMs()) throw fail("The access token has expired.");
  // A token bound to one resource (RFC 8707) is not accepted by the other; a token
  // issued without `resource` is good for both of this server's resources.
  if (options.resource && row.resource && row.resource !== options.resource) {
    throw fail("The access token was issued for another resource.");
  }
  return { userId: row.userId, clientId: row.clientId, scope: row.scope };
}

/** S256 of RFC 7636 §4.2: BASE64URL(SHA256(ASCII(code_verifier))). */
export function s256(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

interface FamilyGrant {
  familyId: string;
  codeHash: string | null;
  clientId: string;
  userId: string;
  scope: string;
  resource: string | null;
}

async function issuePair(db: Db, grant: FamilyGrant): Promise<TokenResponse> {
  const now = clock.nowMs();
  const access = ACCESS_PREFIX + randomBase62(43);
  const refresh = REFRESH_PREFIX + randomBase62(43);
  const common = { ...grant, createdAt: new Date(now) };
  await db.insert(oauthTokens).values([
    {
      ...common,
      id: newId("oauthToken", now),
      tokenHash: sha256Hex(access),
      kind: "access",
      expiresAt: new Date(now + ACCESS_TOKEN_TTL_MS),
    },
    {
      ...common,
      id: newId("oauthToken", now),
      tokenHash: sha256Hex(refresh),
      kind: "refresh",
      expiresAt: new Date(now + REFRESH_TOKEN_TTL_MS),
    },
  ]);
  return {
    access_token: access,
    token_type: "Bearer",
    expires_in: ACCESS_TOKEN_TTL_MS / 1000,
    refresh_token: refresh,
    scope: grant.scope,
  };
}

export interface CodeGrantInput {
  clientId: string;
  code: string;
  redirectUri: string;
  codeVerifier: string;
  resource?: string;
}

/**
 * grant_type=authorization_code. The code is consumed atomically (single use); a
 * replayed code is refused and revokes every token issued from it (RFC 6819 §4.4.1.1).
 */
export async function exchangeCode(db: Db, input: CodeGrantInput): Promise<TokenResponse> {
  const codeHash = sha256Hex(input.code);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [code] = await tx.select().from(oauthCodes).where(eq(oauthCodes.codeHash, codeHash)).for("update");
    if (!code) throw new OAuthError("invalid_grant", "The authorization code is invalid.");
    if (code.usedAt) {
      await tx
        .update(oauthTokens)
        .set({ revokedAt: now })
        .where(and(eq(oauthTokens.codeHash, codeHash), isNull(oauthTokens.revokedAt)));
      // Committed even though the request fails: the revocation is the point.
      return replayed();
    }
    await tx.update(oauthCodes).set({ usedAt: now }).where(eq(oauthCodes.codeHash, codeHash));
    if (code.clientId !== input.clientId) return fail("The authorization code was issued to another client.");
    if (code.expiresAt.getTime() <= now.getTime()) return fail("The authorization code has expired.");
    if (code.redirectUri !== input.redirectUri) {
      return fail("redirect_uri does not match the one used in the authorization request.");
    }
    if (!VERIFIER.test(input.codeVerifier) || s256(input.codeVerifier) !== code.codeChallenge) {
      return fail("The PKCE code_verifier does not match the code_challenge.");
    }
    if (input.resource !== undefined && input.resource !== (code.resource ?? input.resource)) {
      throw new OAuthError("invalid_target", "resource differs from the one in the authorization request.");
    }
    const [client] = await tx
      .select({ revokedAt: oauthClients.revokedAt })
      .from(oauthClients)
      .where(eq(oauthClients.id, code.clientId));
    if (!client || client.revokedAt) throw new OAuthError("invalid_client", "The client has been revoked.");
    const [user] = await tx.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, code.userId));
    if (!user || user.disabledAt) return fail("The user's account is disabled.");
    return issuePair(tx, {
      familyId: newId("oauthToken"),
      codeHash,
      clientId: code.clientId,
      userId: code.userId,
      scope: code.scope,
      resource: code.resource,
    });
  }).then(unwrap);
}

export interface RefreshGrantInput {
  clientId: string;
  refreshToken: string;
  scope?: string;
  resource?: string;
}

/**
 * grant_type=refresh_token: rotates on every use. Presenting a refresh token that
 * was already rotated revokes its whole family (OAuth 2.1 §4.3.1).
 */
export async function refreshTokens(db: Db, input: RefreshGrantInput): Promise<TokenResponse> {
  const tokenHash = sha256Hex(input.refreshToken);
  const now = clock.now();
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(oauthTokens)
      .where(and(eq(oauthTokens.tokenHash, tokenHash), eq(oauthTokens.kind, "refresh")))
      .for("update");
    if (!row) return fail("The refresh token is invalid.");
    if (row.clientId !== input.clientId) return fail("The refresh token was issued to another client.");
    if (row.rotatedAt) {
      await revokeFamilyIn(tx, row.familyId, now);
      return fail("The refresh token was already used; every token of this grant has been revoked.");
    }
    if (row.revokedAt) return fail("The refresh token has been revoked.");
    if (row.expiresAt.getTime() <= now.getTime()) return fail("The refresh token has expired.");
    if (input.scope !== undefined && !input.scope.split(" ").every((s) => row.scope.split(" ").includes(s))) {
      throw new OAuthError("invalid_scope", "The requested scope exceeds the one originally granted.");
    }
    if (input.resource !== undefined && row.resource && input.resource !== row.resource) {
      throw new OAuthError("invalid_target", "resource differs from the one originally granted.");
    }
    const [state] = await tx
      .select({ clientRevokedAt: oauthClients.revokedAt, userDisabledAt: users.disabledAt })
      .from(oauthClients)
      .innerJoin(users, eq(users.id, row.userId))
      .where(eq(oauthClients.id, row.clientId));
    if (!state || state.clientRevokedAt) throw new OAuthError("invalid_client", "The client has been revoked.");
    if (state.userDisabledAt) return fail("The user's account is disabled.");
    await tx.update(oauthTokens).set({ rotatedAt: now }).where(eq(oauthTokens.id, row.id));
    return issuePair(tx, {
      familyId: row.familyId,
      codeHash: row.codeHash,
      clientId: row.clientId,
      userId: row.userId,
      scope: input.scope ?? row.scope,
      resource: row.resource,
    });
  }).then(unwrap);
}

// invalid_grant outcomes that must still COMMIT (code consumption, family
// revocation) are returned, not thrown, and turned into errors after commit.
interface Refusal {
  refused: OAuthError;
}
function fail(description: string): Refusal {
  return { refused: new OAuthError("invalid_grant", description) };
}
function replayed(): Refusal {
  return fail("The authorization code was already used; the tokens issued from it have been revoked.");
}
function unwrap(result: TokenResponse | Refusal): TokenResponse {
  if ("refused" in result) throw result.refused;
  return result;
}

async function revokeFamilyIn(db: Db, familyId: string, now: Date): Promise<number> {
  const revoked = await db
    .update(oauthTokens)
    .set({ revokedAt: now })
    .where(and(eq(oauthTokens.familyId, familyId), isNull(oauthTokens.revokedAt)))
    .returning({ id: oauthTokens.id });
  return revoked.length;
}

/** Support: revoke one token family (every token descended from one consent). */
export async function revokeFamily(db: Db, familyId: string): Promise<number> {
  return revokeFamilyIn(db, familyId, clock.now());
}

/** Support: revoke every live token of a user, or only those held by one client. */
export async function revokeUserTokens(db: Db, userId: string, clientId?: string): Promise<number> {
  const revoked = await db
    .update(oauthTokens)
    .set({ revokedAt: clock.now() })
    .where(and(eq(oauthTokens.userId, userId), clientId ? eq(oauthTokens.clientId, clientId) : undefined, isNull(oauthTokens.revokedAt)))
    .returning({ id: oauthTokens.id });
  return revoked.length;
}

/** Support: revoke a client (no further authorizations) and every token it holds. */
export async function revokeClient(db: Db, clientId: string): Promise<{ found: boolean; tokensRevoked: number }> {
  const now = clock.now();
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(oauthClients)
      .set({ revokedAt: sql`coalesce(${oauthClients.revokedAt}, ${now.toISOString()}::timestamptz)` })
      .where(eq(oauthClients.id, clientId))
      .returning({ id: oauthClients.id });
    if (updated.length === 0) return { found: false, tokensRevoked: 0 };
    const revoked = await tx
      .update(oauthTokens)
      .set({ revokedAt: now })
      .where(and(eq(oauthTokens.clientId, clientId), isNull(oauthTokens.revokedAt)))
      .returning({ id: oauthTokens.id });
    return { found: true, tokensRevoked: revoked.length };
  });
}
