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
import { clientIp, takeToken } from "./rate-limit";
import { exchangeCode, refreshTokens } from "./tokens";

// Route handlers of the OAuth endpoints; app/** route files re-export these so
// tests can drive the very same functions in-process.

const MAX_BODY_BYTES = 64 * 1024;
export const REGISTRATIONS_PER_MINUTE_PER_IP = 10;

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
    console.error(`[${requestId}] oauth endpoint failed`, error);
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

async function readBody(request: Request): Promise<string> {
  const length = Number(request.headers.get("content-length") ?? 0);
  if (length > MAX_BODY_BYTES) throw new OAuthError("invalid_request", "The request body is too large.", 413);
  const text = await request.text();
  if (Buffer.byteLength(text) > MAX_BODY_BYTES) {
    throw new OAuthError("invalid_request", "The request body is too large.", 413);
  }
  return text;
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
