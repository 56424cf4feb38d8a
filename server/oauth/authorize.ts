import type { Db } from "@/db/client";
import { oauthCodes } from "@/db/schema";
import { clock } from "@/server/clock";
import { sha256Hex } from "@/server/crypto";
import { randomBase62 } from "@/server/ids";
import { findClient, redirectUriMatches } from "./clients";
import { DEFAULT_SCOPE, issuer, OAUTH_SCOPES, resourceIdentifiers } from "./metadata";

// The authorization endpoint's rules (OAuth 2.1 §4.1.1, RFC 8707, RFC 9207),
// independent of the page that shows them: validate, then approve or deny.

export const CODE_TTL_MS = 60 * 1000;

/** The query parameters the consent form carries through, verbatim. */
export const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "state",
  "scope",
  "resource",
] as const;

export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string | string[]>>;

export interface ValidAuthorization {
  clientId: string;
  clientName: string | null;
  redirectUri: string;
  /** Host (and port) of redirect_uri, shown on the consent screen. */
  redirectHost: string;
  codeChallenge: string;
  state: string | undefined;
  scope: string;
  resource: string | null;
}

export type AuthorizeOutcome =
  /** Client or redirect_uri cannot be trusted: show an error page, never redirect. */
  | { kind: "error_page"; title: string; message: string }
  /**
   * The redirect URI is registered, the request is not valid. The error goes
   * back to the client only when the user chooses to follow the link: anyone
   * can register a redirect URI, so redirecting at once would be an open redirect.
   */
  | { kind: "redirect"; url: string; host: string; description: string }
  | { kind: "consent"; request: ValidAuthorization };

function single(value: string | string[] | undefined): string | undefined | null {
  if (Array.isArray(value)) return value.length === 1 ? value[0] : null; // null: repeated
  return value;
}

export async function validateAuthorization(db: Db, params: AuthorizeParams): Promise<AuthorizeOutcome> {
  const clientId = single(params.client_id);
  const redirectUri = single(params.redirect_uri);
  if (clientId === null || redirectUri === null) {
    return errorPage("Invalid request", "client_id and redirect_uri must each be given once.");
  }
  if (!clientId) return errorPage("Invalid request", "The request names no client (client_id is missing).");
  const client = await findClient(db, clientId);
  if (!client) return errorPage("Unknown application", "No application is registered with this client_id.");
  if (client.revokedAt) return errorPage("Application blocked", "This application's access has been revoked.");
  if (!redirectUri) return errorPage("Invalid request", "The request has no redirect_uri.");
  if (!redirectUriMatches(client.redirectUris, redirectUri)) {
    return errorPage(
      "Invalid redirect address",
      "The redirect_uri is not registered for this application, so we will not send you there.",
    );
  }

  const state = single(params.state);
  const back = (error: string, description: string): AuthorizeOutcome => ({
    kind: "redirect",
    host: new URL(redirectUri).host,
    description,
    url: redirectWith(redirectUri, {
      error,
      error_description: description,
      ...(typeof state === "string" ? { state } : {}),
    }),
  });
  for (const key of AUTHORIZE_PARAMS) {
    if (single(params[key]) === null) return back("invalid_request", `${key} must not be repeated.`);
  }
  const responseType = single(params.response_type);
  if (responseType !== "code") {
    return responseType
      ? back("unsupported_response_type", "Only response_type=code is supported.")
      : back("invalid_request", "response_type is required.");
  }
  const challenge = single(params.code_challenge);
  const method = single(params.code_challenge_method);
  if (!challenge) return back("invalid_request", "PKCE is required: send code_challenge with method S256.");
  if (method !== "S256") return back("invalid_request", "code_challenge_method must be S256.");
  if (!/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
    return back("invalid_request", "code_challenge must be the base64url SHA-256 of the verifier (43 characters).");
  }
  const scope = (single(params.scope) ?? "").trim().split(/\s+/).filter(Boolean);
  if (scope.some((s) => !(OAUTH_SCOPES as readonly string[]).includes(s))) {
    return back("invalid_scope", `Supported scopes: ${OAUTH_SCOPES.join(" ")}.`);
  }
  const resource = single(params.resource) || null;
  if (resource !== null && !Object.values(resourceIdentifiers()).includes(resource)) {
    return back("invalid_target", "resource must be this service's API or its MCP server URL.");
  }
  return {
    kind: "consent",
    request: {
      clientId: client.id,
      clientName: client.clientName,
      redirectUri,
      redirectHost: new URL(redirectUri).host,
      codeChallenge: challenge,
      state: state ?? undefined,
      scope: scope.length > 0 ? [...new Set(scope)].join(" ") : DEFAULT_SCOPE,
      resource,
    },
  };
}

/** The user allowed: mint a single-use 60-second code and return the client's redirect. */
export async function approveAuthorization(db: Db, request: ValidAuthorization, userId: string): Promise<string> {
  const code = randomBase62(43);
  const now = clock.nowMs();
  await db.insert(oauthCodes).values({
    codeHash: sha256Hex(code),
    clientId: request.clientId,
    userId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    scope: request.scope,
    resource: request.resource,
    expiresAt: new Date(now + CODE_TTL_MS),
    createdAt: new Date(now),
  });
  return redirectWith(request.redirectUri, { code, ...(request.state !== undefined ? { state: request.state } : {}) });
}

/** The user declined. */
export function denyAuthorization(request: ValidAuthorization): string {
  return redirectWith(request.redirectUri, {
    error: "access_denied",
    error_description: "The user declined the request.",
    ...(request.state !== undefined ? { state: request.state } : {}),
  });
}

/** redirect_uri plus response parameters and `iss` (RFC 9207), keeping its own query. */
export function redirectWith(redirectUri: string, params: Record<string, string>): string {
  const url = new URL(redirectUri);
  for (const [key, value] of Object.entries({ ...params, iss: issuer() })) url.searchParams.append(key, value);
  return url.toString();
}

function errorPage(title: string, message: string): AuthorizeOutcome {
  return { kind: "error_page", title, message };
}
