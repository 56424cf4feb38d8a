import { advisoryLocks } from "@/db/locks";
import { and, desc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { credentials, domains, partners, type Environment } from "@/db/schema";
import { demoInventories, type GeneratedDomain } from "@/db/seed-data";
import { clock } from "@/server/clock";
import { openSecret } from "@/server/crypto";
import { AppError } from "@/server/errors";
import { scopes, type Scope } from "@/server/http/contract";
import { newId } from "@/server/ids";
import { tokenizeLabel } from "@/server/services/inventory";
import { createCredential, createPartner, createUser } from "@/server/services/partners";
import { registerInventoryVocabulary } from "@/server/search/vocabulary";

// Demo data of DECISIONS "Running and operating the service": both inventories,
// the two demo partners with sandbox credentials, an admin and a buyer. Runs in
// one transaction under an advisory lock, so concurrent starters seed once and a
// crash leaves nothing half-made; the demo MoR partner marks a seeded database.

export const demoLogins = {
  mor: { name: "Acme Registrar", email: "mor@example.com", password: "demo-password" },
  nonMor: { name: "Bright Affiliates", email: "nonmor@example.com", password: "demo-password" },
  admin: { email: "admin@example.com", password: "admin-password" },
  buyer: { email: "buyer@example.com", password: "demo-password" },
} as const;

export const DEMO_CREDENTIAL_LABEL = "demo";
const SEED_LOCK = advisoryLocks.seed;
const BATCH = 1000;
const nonMorScopes: Scope[] = ["search", "embed", "broker", "refer", "report", "webhook"];

export interface SeedResult {
  seeded: boolean;
  sandboxDomains: number;
  liveDomains: number;
  ms: number;
}

export async function seedDemoData(db: Db): Promise<SeedResult> {
  const started = clock.nowMs();
  return db.transaction(async (tx) => {
    // A second starter waits here while the first seeds (tens of seconds on a busy
    // two-core machine): longer than the pool's per-statement limit for requests.
    await tx.execute(sql`set local statement_timeout = '300s'`);
    await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
    if (await findDemoPartner(tx, demoLogins.mor.email)) {
      return { seeded: false, sandboxDomains: 0, liveDomains: 0, ms: clock.nowMs() - started };
    }
    const { sandbox, live } = demoInventories();
    await insertDomains(tx, "sandbox", sandbox);
    await insertDomains(tx, "live", live);
    await registerInventoryVocabulary(tx);

    const actor = { type: "system" as const, id: "seed" };
    const mor = await createPartner(tx, { ...demoLogins.mor, paymentModel: "mor", liveApproved: true }, actor);
    const nonMor = await createPartner(tx, { ...demoLogins.nonMor, paymentModel: "non_mor", isAffiliate: true }, actor);
    await createUser(tx, { ...demoLogins.admin, name: "Demo Admin", role: "admin" });
    await createUser(tx, { ...demoLogins.buyer, name: "Demo Buyer", role: "customer" });
    const label = DEMO_CREDENTIAL_LABEL;
    await createCredential(tx, { partnerId: mor.partnerId, environment: "sandbox", scopes, label }, actor);
    await createCredential(tx, { partnerId: nonMor.partnerId, environment: "sandbox", scopes: nonMorScopes, label }, actor);
    return { seeded: true, sandboxDomains: sandbox.length, liveDomains: live.length, ms: clock.nowMs() - started };
  });
}

async function findDemoPartner(db: Db, email: string) {
  const [row] = await db.select({ id: partners.id }).from(partners).where(eq(partners.email, email)).limit(1);
  return row;
}

// Multi-row inserts: 10k single-row addDomain calls would take minutes, these a second.
async function insertDomains(db: Db, environment: Environment, rows: GeneratedDomain[]) {
  const now = clock.now();
  for (let i = 0; i < rows.length; i += BATCH) {
    const values = rows.slice(i, i + BATCH).map((d) => ({
      id: newId("domain", now.getTime()),
      environment,
      name: d.name,
      label: d.label,
      tld: d.tld,
      priceCents: d.priceCents,
      floorPriceCents: d.floorPriceCents,
      vertical: d.vertical,
      tokens: tokenizeLabel(d.tokens),
      description: d.description,
      registeredYear: d.registeredYear,
      metadata: { source: "seed" },
      createdAt: now,
      updatedAt: now,
    }));
    // A name someone listed by hand before seeding keeps its own listing.
    await db.insert(domains).values(values).onConflictDoNothing();
  }
}

export type DemoPartner = "mor" | "nonMor";

/**
 * The newest unrevoked "demo" sandbox credential of a demo partner, secret
 * opened, for the start banner and `npm run partner`.
 */
export async function getDemoCredential(db: Db, which: DemoPartner = "mor") {
  const [row] = await db
    .select({ keyId: credentials.keyId, sealed: credentials.secretSealed, scopes: credentials.scopes })
    .from(credentials)
    .innerJoin(partners, eq(partners.id, credentials.partnerId))
    .where(
      and(
        eq(partners.email, demoLogins[which].email),
        eq(credentials.label, DEMO_CREDENTIAL_LABEL),
        eq(credentials.environment, "sandbox"),
        isNull(credentials.revokedAt),
      ),
    )
    .orderBy(desc(credentials.createdAt))
    .limit(1);
  if (!row) throw new AppError("not_found", "no demo credential: run `npm run admin -- seed` (or start with SEED_DEMO=true)");
  let secret: string;
  try {
    secret = openSecret(row.sealed, row.keyId);
  } catch {
    throw new AppError("internal_error", "the demo secret does not open: SECRET_KEY differs from the one that sealed it");
  }
  return { keyId: row.keyId, secret, scopes: row.scopes };
}

/** A listed sandbox .com with a short name, for ready-to-run examples. */
export async function getExampleDomain(db: Db): Promise<string | undefined> {
  const [row] = await db
    .select({ name: domains.name })
    .from(domains)
    .where(and(eq(domains.environment, "sandbox"), eq(domains.status, "listed"), eq(domains.tld, "com")))
    .orderBy(sql`length(${domains.name})`, domains.name)
    .limit(1);
  return row?.name;
}
