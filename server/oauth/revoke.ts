import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { AppError } from "@/server/errors";
import type { Actor } from "@/server/services/partners";
import { revokeClient, revokeFamily, revokeUserTokens } from "./tokens";
import { recordAudit } from "@/server/services/audit";

// Support revocation (DECISIONS: dashboard admin and CLI). Effective on the very
// next request: authenticateBearer reads revoked_at on every call.

export type RevokeTarget = { userEmail: string } | { clientId: string } | { familyId: string };

export interface RevokeResult {
  target: "user" | "client" | "family";
  id: string;
  tokens_revoked: number;
}

export async function revokeOAuthAccess(db: Db, target: RevokeTarget, actor: Actor): Promise<RevokeResult> {
  return db.transaction(async (tx) => {
    let result: RevokeResult;
    if ("userEmail" in target) {
      const email = target.userEmail.trim().toLowerCase();
      const [user] = await tx.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${email}`);
      if (!user) throw new AppError("not_found", `user ${email} not found`);
      result = { target: "user", id: user.id, tokens_revoked: await revokeUserTokens(tx, user.id) };
    } else if ("clientId" in target) {
      const outcome = await revokeClient(tx, target.clientId);
      if (!outcome.found) throw new AppError("not_found", `OAuth client ${target.clientId} not found`);
      result = { target: "client", id: target.clientId, tokens_revoked: outcome.tokensRevoked };
    } else {
      result = { target: "family", id: target.familyId, tokens_revoked: await revokeFamily(tx, target.familyId) };
    }
    await recordAudit(tx, actor, {
      action: `oauth.${result.target}_revoked`,
      targetType: result.target === "user" ? "user" : result.target === "client" ? "oauth_client" : "oauth_token_family",
      targetId: result.id,
      data: { tokens_revoked: result.tokens_revoked },
    });
    return result;
  });
}
