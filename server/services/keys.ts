import { forgettingCredentials } from "@/server/auth/credential-cache";
import { and, desc, eq, isNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { credentials, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { sealSecret } from "@/server/crypto";
import { AppError, notFound } from "@/server/errors";
import type { Scope } from "@/server/http/contract";
import { randomBase62 } from "@/server/ids";
import { recordAudit } from "./audit";
import type { Actor } from "./partners";
import { countRecentRequestsByKey } from "./request-log";

// API keys as partners manage them (dashboard, CLI): list, roll with a grace,
// change the allow-list. Creation and revocation live in partners.ts, shared
// with staff. The signing gate (server/http/authenticate.ts) reads the columns
// written here on every request, so each change applies to the next request.

export const scopeDescriptions: Record<Scope, string> = {
  search: "Search inventory, prices and availability; read domain details.",
  embed: "Embed listings and hosted-checkout links in your pages.",
  buy: "Take quotes, record orders, create checkout links, request refunds.",
  broker: "Open and follow brokerage cases for unlisted domains.",
  refer: "Create referral links and read their clicks and sales.",
  report: "Read settlements, transactions, payouts and the event history.",
  webhook: "Register and manage the webhook endpoint.",
};

/** Grace periods a roll may keep the old secret for. */
export const rollGraces = { none: 0, "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000 } as const;
export type RollGrace = keyof typeof rollGraces;

export interface KeyOwner {
  partnerId: string;
  environment: Environment;
}

export async function listKeys(db: Db, owner: KeyOwner & { includeRevoked?: boolean }) {
  const [rows, recent] = await Promise.all([
    db
      .select()
      .from(credentials)
      .where(
        and(
          eq(credentials.partnerId, owner.partnerId),
          eq(credentials.environment, owner.environment),
          owner.includeRevoked ? undefined : isNull(credentials.revokedAt),
        ),
      )
      .orderBy(desc(credentials.createdAt)),
    countRecentRequestsByKey(db, owner),
  ]);
  const now = clock.nowMs();
  return rows.map((row) => ({
    keyId: row.keyId,
    name: row.label,
    environment: row.environment,
    scopes: row.scopes as Scope[],
    allowedCidrs: row.allowedCidrs ?? [],
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    lastUsedIp: row.lastUsedIp,
    requests24h: recent.get(row.keyId) ?? 0,
    rolledAt: row.rolledAt?.toISOString() ?? null,
    previousSecretExpiresAt:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt.getTime() > now ? row.previousSecretExpiresAt.toISOString() : null,
    status: row.revokedAt ? ("revoked" as const) : ("active" as const),
    revokedAt: row.revokedAt?.toISOString() ?? null,
  }));
}

async function getActiveKeyForUpdate(db: Db, owner: KeyOwner, keyId: string) {
  const [row] = await db
    .select()
    .from(credentials)
    .where(
      and(
        eq(credentials.keyId, keyId),
        eq(credentials.partnerId, owner.partnerId),
        eq(credentials.environment, owner.environment),
        isNull(credentials.revokedAt),
      ),
    )
    .for("update");
  if (!row) throw notFound("key");
  return row;
}

/**
 * A new secret for the same key id. With a grace the old secret keeps verifying
 * until it ends; rolling again replaces the one in its grace (only the secret
 * just rolled out stays valid), and `none` ends any grace at once.
 */
export async function rollKey(db: Db, input: KeyOwner & { keyId: string; grace: RollGrace }, actor: Actor) {
  if (!(input.grace in rollGraces)) throw new AppError("validation_error", `grace must be one of ${Object.keys(rollGraces).join(", ")}`);
  return forgettingCredentials({ keyId: input.keyId }, db.transaction(async (tx) => {
    const row = await getActiveKeyForUpdate(tx, input, input.keyId);
    const now = clock.now();
    const graceMs = rollGraces[input.grace];
    const secret = `sk_${row.environment}_${randomBase62(40)}`;
    const previousSecretExpiresAt = graceMs > 0 ? new Date(now.getTime() + graceMs) : null;
    await tx
      .update(credentials)
      .set({
        secretSealed: sealSecret(secret, row.keyId),
        previousSecretSealed: graceMs > 0 ? row.secretSealed : null,
        previousSecretExpiresAt,
        rolledAt: now,
      })
      .where(eq(credentials.id, row.id));
    await recordAudit(
      tx,
      actor,
      {
        action: "credential.rolled",
        targetType: "credential",
        targetId: row.keyId,
        partnerId: row.partnerId,
        environment: row.environment,
        data: { grace: input.grace, previous_secret_expires_at: previousSecretExpiresAt?.toISOString() ?? null },
      },
      now,
    );
    return { keyId: row.keyId, secret, previousSecretExpiresAt: previousSecretExpiresAt?.toISOString() ?? null };
  }));
}

/** Replaces the key's IP allow-list (normalised CIDR blocks; empty allows any address). */
export async function setKeyAllowList(db: Db, input: KeyOwner & { keyId: string; allowedCidrs: readonly string[] }, actor: Actor) {
  return forgettingCredentials({ keyId: input.keyId }, db.transaction(async (tx) => {
    const row = await getActiveKeyForUpdate(tx, input, input.keyId);
    const allowedCidrs = input.allowedCidrs.length ? [...input.allowedCidrs] : null;
    await tx.update(credentials).set({ allowedCidrs }).where(eq(credentials.id, row.id));
    await recordAudit(tx, actor, {
      action: "credential.allow_list_changed",
      targetType: "credential",
      targetId: row.keyId,
      partnerId: row.partnerId,
      environment: row.environment,
      data: { allowed_cidrs: allowedCidrs ?? [] },
    });
    return { keyId: row.keyId, allowedCidrs: allowedCidrs ?? [] };
  }));
}


/** Partner and environment of a key, for staff tools that start from a key id. */
export async function getKeyOwnerOrThrow(db: Db, keyId: string): Promise<KeyOwner> {
  const [row] = await db
    .select({ partnerId: credentials.partnerId, environment: credentials.environment })
    .from(credentials)
    .where(eq(credentials.keyId, keyId));
  if (!row) throw notFound("key");
  return row;
}
