import { forgettingCredentials } from "@/server/auth/credential-cache";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { credentials, partners, users, type Environment } from "@/db/schema";
import type { Scope } from "@/server/http/contract";
import { clock } from "@/server/clock";
import { hashPassword, NO_PASSWORD, sealSecret } from "@/server/crypto";
import { AppError, isUniqueViolation } from "@/server/errors";
import { newId, randomBase62 } from "@/server/ids";
import { recordAudit } from "./audit";

// Partners, their dashboard users and their API credentials.

export interface Actor {
  type: "admin" | "partner" | "system" | "cli";
  id?: string;
}

const systemActor: Actor = { type: "system" };

export interface CreatePartnerInput {
  name: string;
  email: string;
  password?: string;
  paymentModel: "mor" | "non_mor";
  isAffiliate?: boolean;
  liveApproved?: boolean;
}

/** Creates the partner and a dashboard login for its email, in one transaction. */
export async function createPartner(db: Db, input: CreatePartnerInput, actor: Actor = systemActor) {
  const email = input.email.trim().toLowerCase();
  const partnerId = newId("partner");
  const userId = newId("user");
  // Without a password the login cannot sign in until one is set (no slow hash of a random one).
  const passwordHash = input.password ? await hashPassword(input.password) : NO_PASSWORD;
  const duplicate = () => new AppError("conflict", `a user with email ${email} already exists`);
  const created = db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email}`);
    if (existing) throw duplicate();
    await tx.insert(partners).values({
      id: partnerId,
      name: input.name,
      email,
      paymentModel: input.paymentModel,
      isAffiliate: input.isAffiliate ?? false,
      liveApprovedAt: input.liveApproved ? clock.now() : null,
    });
    await tx.insert(users).values({ id: userId, email, name: input.name, passwordHash, role: "partner", partnerId });
    await recordAudit(tx, actor, {
      action: "partner.created",
      targetType: "partner",
      targetId: partnerId,
      partnerId,
      data: { name: input.name, payment_model: input.paymentModel },
    });
    return { partnerId, userId, email };
  });
  // The unique index on lower(email) settles a race the check above cannot.
  return created.catch((error: unknown) => {
    throw isUniqueViolation(error) ? duplicate() : error;
  });
}

export interface CreateUserInput {
  email: string;
  password: string;
  name?: string;
  role?: "partner" | "admin" | "customer";
  partnerId?: string;
}

export async function createUser(db: Db, input: CreateUserInput) {
  const email = input.email.trim().toLowerCase();
  const id = newId("user");
  const passwordHash = await hashPassword(input.password);
  const inserted = await db
    .insert(users)
    .values({ id, email, name: input.name, passwordHash, role: input.role ?? "customer", partnerId: input.partnerId })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (inserted.length === 0) throw new AppError("conflict", `a user with email ${email} already exists`);
  return { userId: id, email, role: input.role ?? "customer" };
}

export interface CreateCredentialInput {
  partnerId: string;
  environment: Environment;
  scopes: readonly Scope[];
  label?: string;
  /** CIDR blocks the key may be used from (already normalised); empty or absent means anywhere. */
  allowedCidrs?: readonly string[];
}

/**
 * Issues a key pair. The secret is returned here and never again: it is stored
 * sealed under SECRET_KEY, bound to its key id.
 */
export async function createCredential(db: Db, input: CreateCredentialInput, actor: Actor = systemActor) {
  const [partner] = await db.select().from(partners).where(eq(partners.id, input.partnerId));
  if (!partner) throw new AppError("not_found", `partner ${input.partnerId} not found`);
  if (input.environment === "live" && !partner.liveApprovedAt) {
    throw new AppError("forbidden", "live credentials need the partner's production access to be approved first");
  }
  if (input.scopes.length === 0) throw new AppError("validation_error", "at least one scope is required");
  const keyId = `pk_${input.environment}_${randomBase62(24)}`;
  const secret = `sk_${input.environment}_${randomBase62(40)}`;
  const id = newId("credential");
  const scopes = [...new Set(input.scopes)];
  await db.transaction(async (tx) => {
    await tx.insert(credentials).values({
      id,
      partnerId: input.partnerId,
      keyId,
      environment: input.environment,
      secretSealed: sealSecret(secret, keyId),
      scopes,
      label: input.label,
      allowedCidrs: input.allowedCidrs?.length ? [...input.allowedCidrs] : null,
    });
    await recordAudit(tx, actor, {
      action: "credential.created",
      targetType: "credential",
      targetId: keyId,
      partnerId: input.partnerId,
      environment: input.environment,
      data: { scopes, label: input.label ?? null, allowed_cidrs: input.allowedCidrs ?? [] },
    });
  });
  return { credentialId: id, keyId, secret, environment: input.environment, scopes };
}

/** Revocation takes effect on this process's next request and within one second on every other (credential-cache.ts). It also ends a roll's grace. */
export async function revokeCredential(
  db: Db,
  input: { keyId: string; partnerId?: string; environment?: Environment; reason?: string },
  actor: Actor = systemActor,
) {
  return forgettingCredentials({ keyId: input.keyId }, db.transaction(async (tx) => {
    const [row] = await tx
      .update(credentials)
      .set({ revokedAt: clock.now(), previousSecretSealed: null, previousSecretExpiresAt: null })
      .where(
        and(
          eq(credentials.keyId, input.keyId),
          isNull(credentials.revokedAt),
          input.partnerId ? eq(credentials.partnerId, input.partnerId) : undefined,
          input.environment ? eq(credentials.environment, input.environment) : undefined,
        ),
      )
      .returning({ keyId: credentials.keyId, partnerId: credentials.partnerId, revokedAt: credentials.revokedAt });
    if (!row) throw new AppError("not_found", `active credential ${input.keyId} not found`);
    await recordAudit(tx, actor, {
      action: "credential.revoked",
      targetType: "credential",
      targetId: row.keyId,
      partnerId: row.partnerId,
      ...(input.reason ? { data: { reason: input.reason } } : {}),
    });
    return { keyId: row.keyId, revokedAt: row.revokedAt };
  }));
}

/** Grants production access (live credentials). Approving twice keeps the first date. */
export async function approveLive(db: Db, input: { partnerId: string }, actor: Actor = systemActor) {
  return db.transaction(async (tx) => {
    const [partner] = await tx
      .select({ id: partners.id, liveApprovedAt: partners.liveApprovedAt })
      .from(partners)
      .where(eq(partners.id, input.partnerId))
      .for("update");
    if (!partner) throw new AppError("not_found", `partner ${input.partnerId} not found`);
    if (partner.liveApprovedAt) return { partnerId: partner.id, liveApprovedAt: partner.liveApprovedAt };
    const liveApprovedAt = clock.now();
    await tx.update(partners).set({ liveApprovedAt, updatedAt: liveApprovedAt }).where(eq(partners.id, partner.id));
    await recordAudit(tx, actor, {
      action: "partner.live_approved",
      targetType: "partner",
      targetId: partner.id,
      partnerId: partner.id,
    });
    return { partnerId: partner.id, liveApprovedAt };
  });
}
