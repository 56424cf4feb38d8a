import { getEnv } from "@/server/env";

// Discovery documents (RFC 8414 authorization server, RFC 9728 protected resource)
// and the WWW-Authenticate challenge that points a client at them.

export const OAUTH_SCOPES = ["pricing:read"] as const;
export const DEFAULT_SCOPE = "pricing:read";

/** The issuer: APP_URL exactly (DECISIONS "metadata identity"). */
export function issuer(): string {
  return getEnv().APP_URL;
}

/** The two protected resources this server issues tokens for. */
export function resourceIdentifiers(): { app: string; mcp: string } {
  const env = getEnv();
  return { app: env.APP_URL, mcp: `${env.MCP_URL}/mcp` };
}

export function authorizationServerMetadata() {
  const iss = issuer();
  return {
    issuer: iss,
    authorization_endpoint: `${iss}/oauth/authorize`,
    token_endpoint: `${iss}/api/oauth/token`,
    registration_endpoint: `${iss}/api/oauth/register`,
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    code_challenge_methods_supported: ["S256"],
    token_endpoint_auth_methods_supported: ["none"],
    scopes_supported: [...OAUTH_SCOPES],
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${iss}/docs/public`,
  };
}

/** RFC 9728 metadata for `resource` (APP_URL or {MCP_URL}/mcp). */
export function protectedResourceMetadata(resource: string) {
  return {
    resource,
    authorization_servers: [issuer()],
    scopes_supported: [...OAUTH_SCOPES],
    bearer_methods_supported: ["header"],
    resource_name: "Partner Domain Marketplace",
    resource_documentation: `${issuer()}/docs/public`,
  };
}

/** Where each resource's RFC 9728 document lives. */
export function resourceMetadataUrl(which: "app" | "mcp"): string {
  const env = getEnv();
  return which === "app"
    ? `${env.APP_URL}/.well-known/oauth-protected-resource`
    : `${env.MCP_URL}/.well-known/oauth-protected-resource/mcp`;
}

/**
 * The `WWW-Authenticate` value of a 401 (RFC 6750 §3, RFC 9728 §5.1):
 * `Bearer resource_metadata="…"` plus `error="invalid_token"` when a token was sent.
 */
export function wwwAuthenticate(
  resourceMetadata: string,
  error?: "invalid_token" | "invalid_request" | "insufficient_scope",
  description?: string,
): string {
  const parts = [`resource_metadata="${quote(resourceMetadata)}"`];
  if (error) parts.push(`error="${error}"`);
  if (description) parts.push(`error_description="${quote(description)}"`);
  return `Bearer ${parts.join(", ")}`;
}

function quote(value: string): string {
  return value.replace(/[\\"]/g, "\\$&");
}

/** CORS for the public OAuth endpoints: any origin, never credentials. */
export const corsHeaders: Record<string, string> = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version",
  "access-control-max-age": "86400",
};

export function preflight(): Response {
  return new Response(null, { status: 204, headers: corsHeaders });
}
