import { eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { oauthClients } from "@/db/schema";
import { clock } from "@/server/clock";
import { newId } from "@/server/ids";
import { OAuthError } from "./errors";
import { OAUTH_SCOPES } from "./metadata";

// Dynamic client registration (RFC 7591), public clients only, and the
// redirect_uri rules of DECISIONS (exact match; loopback ports free, RFC 8252 §7.3).

export const MAX_REDIRECT_URIS = 10;
export const MAX_REDIRECT_URI_LENGTH = 2000;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

export function isLoopback(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname);
}

/** Why a redirect URI cannot be registered, or null when it can. */
export function redirectUriProblem(value: string): string | null {
  if (value.length > MAX_REDIRECT_URI_LENGTH) return `longer than ${MAX_REDIRECT_URI_LENGTH} characters`;
  const url = parseUrl(value);
  if (!url) return "not an absolute URL";
  if (url.hash || value.includes("#")) return "must not contain a fragment";
  if (url.username || url.password) return "must not contain credentials";
  if (url.protocol === "https:") return null;
  if (isLoopback(url)) return null;
  return "must use https, or http on a loopback address (127.0.0.1, [::1], localhost)";
}

/**
 * Whether `requested` matches one of `registered`: exactly, or, for loopback
 * http redirects, with any port (host, path and query still exact).
 */
export function redirectUriMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  const url = parseUrl(requested);
  if (!url || !isLoopback(url) || requested.includes("#")) return false;
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return registered.some((candidate) => {
    const reg = parseUrl(candidate);
    return reg !== null && isLoopback(reg) && withoutPort(reg) === withoutPort(url);
  });
}

const registrationSchema = z.looseObject({
  redirect_uris: z.array(z.string()),
  client_name: z.string().trim().max(200).optional(),
  client_uri: z.string().max(2000).optional(),
  logo_uri: z.string().max(2000).optional(),
  scope: z.string().max(500).optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  software_id: z.string().max(200).optional(),
  software_version: z.string().max(200).optional(),
});

export interface RegisteredClient {
  client_id: string;
  client_id_issued_at: number;
  client_name?: string;
  client_uri?: string;
  logo_uri?: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: string[];
  token_endpoint_auth_method: "none";
  scope: string;
  software_id?: string;
  software_version?: string;
}

/** RFC 7591 registration. Throws OAuthError invalid_redirect_uri / invalid_client_metadata. */
export async function registerClient(db: Db, body: unknown): Promise<RegisteredClient> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new OAuthError("invalid_client_metadata", "The request body must be a JSON object.");
  }
  const rawUris = (body as Record<string, unknown>).redirect_uris;
  if (!Array.isArray(rawUris) || rawUris.length === 0 || rawUris.some((u) => typeof u !== "string")) {
    throw new OAuthError("invalid_redirect_uri", "redirect_uris must be a non-empty array of URLs.");
  }
  if (rawUris.length > MAX_REDIRECT_URIS) {
    throw new OAuthError("invalid_redirect_uri", `At most ${MAX_REDIRECT_URIS} redirect_uris may be registered.`);
  }
  for (const uri of rawUris as string[]) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthError("invalid_redirect_uri", `redirect_uri ${JSON.stringify(uri.slice(0, 200))} ${problem}.`);
  }
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new OAuthError("invalid_client_metadata", `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
  }
  const input = parsed.data;
  const grantTypes = input.grant_types ?? ["authorization_code", "refresh_token"];
  const unsupportedGrant = grantTypes.find((g) => g !== "authorization_code" && g !== "refresh_token");
  if (unsupportedGrant) {
    throw new OAuthError("invalid_client_metadata", `grant_type ${unsupportedGrant} is not supported.`);
  }
  const responseTypes = input.response_types ?? ["code"];
  if (responseTypes.some((r) => r !== "code")) {
    throw new OAuthError("invalid_client_metadata", "Only the response_type code is supported.");
  }
  const scope = input.scope?.trim() || OAUTH_SCOPES.join(" ");
  if (scope.split(/\s+/).some((s) => !(OAUTH_SCOPES as readonly string[]).includes(s))) {
    throw new OAuthError("invalid_client_metadata", `Unknown scope; supported: ${OAUTH_SCOPES.join(" ")}.`);
  }
  for (const key of ["client_uri", "logo_uri"] as const) {
    const value = input[key];
    if (value !== undefined && parseUrl(value)?.protocol !== "https:") {
      throw new OAuthError("invalid_client_metadata", `${key} must be an https URL.`);
    }
  }

  const now = clock.nowMs();
  const clientId = newId("oauthClient", now);
  const metadata: Omit<RegisteredClient, "client_id" | "client_id_issued_at"> = {
    ...(input.client_name ? { client_name: input.client_name } : {}),
    ...(input.client_uri ? { client_uri: input.client_uri } : {}),
    ...(input.logo_uri ? { logo_uri: input.logo_uri } : {}),
    redirect_uris: rawUris as string[],
    grant_types: grantTypes,
    response_types: responseTypes,
    token_endpoint_auth_method: "none",
    scope,
    ...(input.software_id ? { software_id: input.software_id } : {}),
    ...(input.software_version ? { software_version: input.software_version } : {}),
  };
  await db.insert(oauthClients).values({
    id: clientId,
    clientName: input.client_name || null,
    redirectUris: metadata.redirect_uris,
    metadata,
    createdAt: new Date(now),
  });
  return { client_id: clientId, client_id_issued_at: Math.floor(now / 1000), ...metadata };
}

export async function findClient(db: Db, clientId: string) {
  const [client] = await db.select().from(oauthClients).where(eq(oauthClients.id, clientId)).limit(1);
  return client ?? null;
}
