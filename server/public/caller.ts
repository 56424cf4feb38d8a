import type { Db } from "@/db/client";
import { sha256Hex } from "@/server/crypto";
import { resourceIdentifiers } from "@/server/oauth/metadata";
import { authenticateBearer } from "@/server/oauth/tokens";
import { clientIp } from "@/server/http/client-ip";
import type { RateLimitState } from "@/server/http/rate-limit";
import { ANONYMOUS_LIMIT_PER_MIN, TOKEN_LIMIT_PER_MIN, takePublicRateLimit } from "./rate-limit";

// Who is calling the public interface: anonymous (masked prices, limited per IP)
// or a token holder (real prices, limited per token). Used by the search route
// and the MCP route, each naming its own protected resource.

export type PublicResource = "app" | "mcp";

export interface PublicCaller {
  /** A valid token with the pricing scope was presented. */
  priced: boolean;
  /** The caller's rate-limit bucket: per token when one was presented, else per client IP. */
  bucket: string;
  limit: number;
}

const PRICING_SCOPE = "pricing:read";

/**
 * Checks the bearer token in-process, against the token store, for `resource`.
 * A present but invalid, expired or revoked token is 401 invalid_token with the
 * challenge pointing at that resource's RFC 9728 metadata (thrown by
 * authenticateBearer); it is never downgraded to anonymous.
 */
export async function identifyPublicCaller(db: Db, request: Request, resource: PublicResource): Promise<PublicCaller> {
  const header = request.headers.get("authorization");
  const auth = await authenticateBearer(db, header, { resource: resourceIdentifiers()[resource] });
  if (!auth) return { priced: false, bucket: `public:ip:${clientIp(request)}`, limit: ANONYMOUS_LIMIT_PER_MIN };
  const token = header?.replace(/^bearer\s+/i, "").trim() ?? "";
  return {
    priced: auth.scope.split(" ").includes(PRICING_SCOPE),
    bucket: `public:token:${sha256Hex(token)}`,
    limit: TOKEN_LIMIT_PER_MIN,
  };
}

/** Identify, then take one request from the caller's bucket (throws rate_limited). */
export async function admitPublicCaller(
  db: Db,
  request: Request,
  resource: PublicResource,
): Promise<PublicCaller & { rateLimit: RateLimitState }> {
  const caller = await identifyPublicCaller(db, request, resource);
  return { ...caller, rateLimit: await takePublicRateLimit(db, caller.bucket, caller.limit) };
}
