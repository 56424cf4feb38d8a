import { getDb } from "@/db/client";
import { requestIdFor } from "@/server/http/respond";
import { registerClient } from "./clients";
import { isOAuthError, OAuthError } from "./errors";
import {
  authorizationServerMetadata,
  corsHeaders,
  protectedResourceMetadata,
  resourceIdentifiers,
} from "./metadata";
import { clientIp, takeBuckets, takeToken } from "./rate-limit";
import { exchangeCode, refreshTokens } from "./tokens";
import { logError } from "@/server/log";
import { BODY_LIMITS, readTextLimited } from "@/server/http/body";

// Route handlers of the OAuth endpoints; app/** route files re-export these so
// tests can drive the very same functions in-process.

export const REGISTRATIONS_PER_MINUTE_PER_IP = 10;
/** Code exchanges and refreshes: a client refreshes a few times an hour; guessing codes needs thousands. */
export const TOKEN_REQUESTS_PER_MINUTE = { perClient: 30, perIp: 60 } as const;

function json(body: unknown, status: number, requestId: string, extra: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "no-store",
      pragma: "no-cache",
      "x-request-id": requestId,
      ...corsHeaders,
      ...extra,
    },
  });
}

/** RFC 6749 §5.2 body; unexpected failures become server_error without details. */
function oauthErrorResponse(error: unknown, requestId: string): Response {
  if (!isOAuthError(error)) {
    logError("oauth", error, { requestId });
    error = new OAuthError("server_error", "Something went wrong on our side; retry with exponential back-off.");
  }
  const e = error as OAuthError;
  return json({ error: e.error, error_description: e.description }, e.status, requestId, e.headers);
}

function metadataResponse(body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      "content-type": "application/json; charset=utf-8",
      "cache-control": "public, max-age=300",
      ...corsHeaders,
    },
  });
}

export function authorizationServerMetadataHandler(): Response {
  return metadataResponse(authorizationServerMetadata());
}

export function protectedResourceHandler(which: "app" | "mcp"): Response {
  return metadataResponse(protectedResourceMetadata(resourceIdentifiers()[which]));
}

export function optionsHandler(): Response {
  return new Response(null, { status: 204, headers: corsHeaders });
}

function readBody(request: Request): Promise<string> {
  return readTextLimited(request, BODY_LIMITS.oauth, () => new OAuthError("invalid_request", "The request body is too large (64 KiB at most).", 413));
}

/** POST /api/oauth/register (RFC 7591). */
export async function registerHandler(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  try {
    const db = getDb();
    const limit = await takeToken(db, `oauth-register:${clientIp(request)}`, REGISTRATIONS_PER_MINUTE_PER_IP, 60_000);
    if (!limit.allowed) {
      throw new OAuthError("invalid_request", "Too many registrations from this address; retry later.", 429, {
        "retry-after": String(limit.retryAfterSeconds),
      });
    }
    const contentType = request.headers.get("content-type") ?? "";
    if (!/^application\/(.+\+)?json\b/i.test(contentType)) {
      throw new OAuthError("invalid_client_metadata", "Send the client metadata as application/json.");
    }
    let body: unknown;
    try {
      body = JSON.parse(await readBody(request));
    } catch (error) {
      if (isOAuthError(error)) throw error;
      throw new OAuthError("invalid_client_metadata", "The request body is not valid JSON.");
    }
    const client = await registerClient(db, body);
    return json(client, 201, requestId);
  } catch (error) {
    return oauthErrorResponse(error, requestId);
  }
}

/** POST /api/oauth/token (form encoded; public clients, so client_id in the body). */
export async function tokenHandler(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  try {
    const contentType = request.headers.get("content-type") ?? "";
    if (!/^application\/x-www-form-urlencoded\b/i.test(contentType)) {
      throw new OAuthError("invalid_request", "Send the token request as application/x-www-form-urlencoded.");
    }
    const form = new URLSearchParams(await readBody(request));
    const one = (key: string): string | undefined => {
      const values = form.getAll(key);
      if (values.length > 1) throw new OAuthError("invalid_request", `${key} must not be repeated.`);
      return values[0] || undefined;
    };
    const required = (key: string): string => {
      const value = one(key);
      if (!value) throw new OAuthError("invalid_request", `${key} is required.`);
      return value;
    };
    if (request.headers.get("authorization")?.match(/^Basic /i)) {
      throw new OAuthError("invalid_client", "Clients here are public (token_endpoint_auth_method none); send client_id in the body.");
    }
    const grantType = required("grant_type");
    const db = getDb();
    const clientId = one("client_id");
    if (!clientId) throw new OAuthError("invalid_client", "client_id is required (public clients authenticate with none).");
    const limit = await takeBuckets(db, [
      { key: `oauth-token:client:${clientId}`, limit: TOKEN_REQUESTS_PER_MINUTE.perClient, periodMs: 60_000 },
      { key: `oauth-token:ip:${clientIp(request)}`, limit: TOKEN_REQUESTS_PER_MINUTE.perIp, periodMs: 60_000 },
    ]);
    if (!limit.allowed) {
      throw new OAuthError("invalid_request", "Too many token requests; retry later.", 429, { "retry-after": String(limit.retryAfterSeconds) });
    }
    let tokens;
    if (grantType === "authorization_code") {
      tokens = await exchangeCode(db, {
        clientId,
        code: required("code"),
        redirectUri: required("redirect_uri"),
        codeVerifier: required("code_verifier"),
        resource: one("resource"),
      });
    } else if (grantType === "refresh_token") {
      tokens = await refreshTokens(db, {
        clientId,
        refreshToken: required("refresh_token"),
        scope: one("scope"),
        resource: one("resource"),
      });
    } else {
      throw new OAuthError("unsupported_grant_type", "Supported grant types: authorization_code, refresh_token.");
    }
    return json(tokens, 200, requestId);
  } catch (error) {
    return oauthErrorResponse(error, requestId);
  }
}
