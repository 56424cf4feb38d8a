import { forgettingCredentials } from "@/server/auth/credential-cache";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { partners, paymentModel } from "@/db/schema";
import { AppError } from "@/server/errors";
import { clock } from "@/server/clock";
import { recordAudit } from "./audit";
import type { Actor } from "./partners";

// What staff decide about a partner as a whole: its commercial terms (payment
// model and rates) and whether it may trade at all (suspension). The console
// and the CLI (partner:set-terms, partner:suspend, partner:reinstate) call these.
//
// Terms apply to what happens next: an order keeps the commission rate and
// channel it was created with, and a settlement statement is keyed by the
// payment model its orders were sold under, so a change never rewrites money
// already counted.

export type PaymentModel = (typeof paymentModel.enumValues)[number];

export interface PartnerTerms {
  paymentModel: PaymentModel;
  saleCommissionBps: number;
  referralCommissionBps: number;
  brokerageShareBps: number;
}

const termKeys = ["paymentModel", "saleCommissionBps", "referralCommissionBps", "brokerageShareBps"] as const;

/** A rate in basis points: 0 to 100 %. */
function checkBps(name: string, value: number | undefined) {
  if (value === undefined) return;
  if (!Number.isInteger(value) || value < 0 || value > 10_000) {
    throw new AppError("validation_error", `${name} must be a whole number of basis points from 0 to 10000`, [{ path: name, message: "must be 0-10000" }]);
  }
}

async function lockPartner(tx: Db, partnerId: string) {
  const [row] = await tx.select().from(partners).where(eq(partners.id, partnerId)).for("update");
  if (!row) throw new AppError("not_found", `partner ${partnerId} not found`);
  return row;
}

/** Changes any of the terms given; an unchanged value is not a change. Returns the terms after. */
export async function setPartnerTerms(db: Db, input: { partnerId: string; reason: string } & Partial<PartnerTerms>, actor: Actor) {
  for (const key of ["saleCommissionBps", "referralCommissionBps", "brokerageShareBps"] as const) checkBps(key, input[key]);
  return forgettingCredentials({ partnerId: input.partnerId }, db.transaction(async (tx) => {
    const row = await lockPartner(tx, input.partnerId);
    const before = Object.fromEntries(termKeys.map((k) => [k, row[k]])) as unknown as PartnerTerms;
    const after = { ...before, ...Object.fromEntries(termKeys.flatMap((k) => (input[k] === undefined ? [] : [[k, input[k]]]))) } as PartnerTerms;
    const changed = termKeys.filter((k) => before[k] !== after[k]);
    if (changed.length === 0) throw new AppError("validation_error", "nothing to change: the terms given are the partner's terms already");
    const now = clock.now();
    await tx.update(partners).set({ ...after, updatedAt: now }).where(eq(partners.id, row.id));
    await recordAudit(
      tx,
      actor,
      {
        action: "partner.terms_changed",
        targetType: "partner",
        targetId: row.id,
        partnerId: row.id,
        data: { before: pick(before, changed), after: pick(after, changed), reason: input.reason },
      },
      now,
    );
    return { partnerId: row.id, terms: after };
  }));
}

function pick(terms: PartnerTerms, keys: readonly (keyof PartnerTerms)[]) {
  return Object.fromEntries(keys.map((k) => [k, terms[k]]));
}

/**
 * Suspends a partner: every key of every environment gets 403 partner_suspended
 * (the signing gate reads suspended_at with the credential: at once in this
 * process, within one second in every other, see credential-cache.ts), and its
 * hosted checkout links stop taking payments. Orders
 * in flight, settlements and webhook deliveries go on: money already owed is not
 * frozen by this switch.
 */
export async function suspendPartner(db: Db, input: { partnerId: string; reason: string }, actor: Actor) {
  return forgettingCredentials({ partnerId: input.partnerId }, db.transaction(async (tx) => {
    const row = await lockPartner(tx, input.partnerId);
    if (row.suspendedAt) throw new AppError("conflict", `partner ${row.id} is already suspended (since ${row.suspendedAt.toISOString()})`);
    const now = clock.now();
    await tx.update(partners).set({ suspendedAt: now, suspendedReason: input.reason, updatedAt: now }).where(eq(partners.id, row.id));
    await recordAudit(
      tx,
      actor,
      {
        action: "partner.suspended",
        targetType: "partner",
        targetId: row.id,
        partnerId: row.id,
        data: { before: { suspendedAt: null }, after: { suspendedAt: now.toISOString() }, reason: input.reason },
      },
      now,
    );
    return { partnerId: row.id, suspendedAt: now, suspendedReason: input.reason };
  }));
}

/** Lifts a suspension; the keys that were valid before verify again at once. */
export async function reinstatePartner(db: Db, input: { partnerId: string; reason: string }, actor: Actor) {
  return forgettingCredentials({ partnerId: input.partnerId }, db.transaction(async (tx) => {
    const row = await lockPartner(tx, input.partnerId);
    if (!row.suspendedAt) throw new AppError("conflict", `partner ${row.id} is not suspended`);
    const now = clock.now();
    await tx.update(partners).set({ suspendedAt: null, suspendedReason: null, updatedAt: now }).where(eq(partners.id, row.id));
    await recordAudit(
      tx,
      actor,
      {
        action: "partner.reinstated",
        targetType: "partner",
        targetId: row.id,
        partnerId: row.id,
        data: { before: { suspendedAt: row.suspendedAt.toISOString(), suspendedReason: row.suspendedReason }, after: { suspendedAt: null }, reason: input.reason },
      },
      now,
    );
    return { partnerId: row.id, suspendedAt: null };
  }));
}
