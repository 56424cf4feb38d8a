import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { oauthClients, users } from "@/db/schema";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/services/partners";
import { revokeClient, revokeFamily, revokeUserTokens } from "./tokens";
import { recordAudit } from "@/server/services/audit";

// Support revocation (DECISIONS: dashboard admin and CLI). Effective on the very
// next request: authenticateBearer reads revoked_at on every call. The admin
// console and `oauth:revoke` both come here, so the audit row (before, after,
// reason) is the same whichever way staff revoke.

/** A user's tokens everywhere, or with `clientId` only those that client holds; a client and all its tokens; one grant (token family). */
export type RevokeTarget = { userEmail: string; clientId?: string } | { clientId: string } | { familyId: string };

export interface RevokeResult {
  target: "user" | "client" | "family";
  id: string;
  tokens_revoked: number;
}

async function clientRevokedAt(db: Db, clientId: string) {
  const [client] = await db.select({ revokedAt: oauthClients.revokedAt }).from(oauthClients).where(eq(oauthClients.id, clientId)).for("update");
  if (!client) throw new AppError("not_found", `OAuth client ${clientId} not found`);
  return client.revokedAt?.toISOString() ?? null;
}

export async function revokeOAuthAccess(db: Db, target: RevokeTarget, actor: Actor, options: { reason?: string } = {}): Promise<RevokeResult> {
  return db.transaction(async (tx) => {
    let result: RevokeResult;
    // Every token not yet revoked is revoked, so the count revoked is the "before".
    let before: Record<string, unknown>;
    let after: Record<string, unknown>;
    let clientId: string | undefined;
    if ("userEmail" in target) {
      const email = target.userEmail.trim().toLowerCase();
      const [user] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`);
      if (!user) throw new AppError("not_found", `user ${email} not found`);
      clientId = target.clientId;
      if (clientId) await clientRevokedAt(tx, clientId);
      result = { target: "user", id: user.id, tokens_revoked: await revokeUserTokens(tx, user.id, clientId) };
      before = { unrevoked_tokens: result.tokens_revoked };
      after = { unrevoked_tokens: 0 };
    } else if ("clientId" in target) {
      const wasRevokedAt = await clientRevokedAt(tx, target.clientId);
      const outcome = await revokeClient(tx, target.clientId);
      if (!outcome.found) throw new AppError("not_found", `OAuth client ${target.clientId} not found`);
      result = { target: "client", id: target.clientId, tokens_revoked: outcome.tokensRevoked };
      before = { revoked_at: wasRevokedAt, unrevoked_tokens: outcome.tokensRevoked };
      after = { revoked_at: await clientRevokedAt(tx, target.clientId), unrevoked_tokens: 0 };
    } else {
      result = { target: "family", id: target.familyId, tokens_revoked: await revokeFamily(tx, target.familyId) };
      before = { unrevoked_tokens: result.tokens_revoked };
      after = { unrevoked_tokens: 0 };
    }
    await recordAudit(tx, actor, {
      action: `oauth.${result.target}_revoked`,
      targetType: result.target === "user" ? "user" : result.target === "client" ? "oauth_client" : "oauth_token_family",
      targetId: result.id,
      data: {
        tokens_revoked: result.tokens_revoked,
        ...(clientId ? { client_id: clientId } : {}),
        before,
        after,
        ...(options.reason ? { reason: options.reason } : {}),
      },
    });
    return result;
  });
}
