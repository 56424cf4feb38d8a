import { inArray } from "drizzle-orm";
import type { Database, Db } from "@/db/client";
import { partners, type Environment } from "@/db/schema";
import { recordAudit } from "./audit";
import type { Actor } from "./partners";
import { runSettlement, type SettlementRunResult, type SettlementScope } from "./settlements";

// Settlement runs from the admin console: a preview that runs the real
// settlement inside a transaction and rolls it back (so it shows exactly what
// the run would write, and writes nothing), and the run itself, the service of
// the CLI's settlement:run. Either may be scoped to one partner's environment.

export interface StaffSettlementInput {
  asOf: Date;
  only?: SettlementScope;
}

class PreviewRollback extends Error {}

export async function summarizeRun(db: Db, result: SettlementRunResult) {
  const ids = [
    ...new Set([
      ...result.statements.map((s) => s.settlement.partnerId),
      ...result.referralPayouts.map((p) => p.partnerId),
      ...result.brokeragePayouts.map((p) => p.partnerId),
    ]),
  ];
  const names = new Map(
    ids.length ? (await db.select({ id: partners.id, name: partners.name }).from(partners).where(inArray(partners.id, ids))).map((p) => [p.id, p.name]) : [],
  );
  return {
    asOf: result.asOf.toISOString(),
    statements: result.statements.map(({ settlement: s }) => ({
      partnerId: s.partnerId,
      partnerName: names.get(s.partnerId) ?? s.partnerId,
      environment: s.environment as Environment,
      paymentModel: s.paymentModel,
      periodStart: s.periodStart,
      sequence: s.sequence,
      currency: s.currency,
      orderCount: s.orderCount,
      grossSoldCents: s.grossSoldCents,
      commissionRetainedCents: s.commissionRetainedCents,
      amountOwedCents: s.amountOwedCents,
      commissionPayableCents: s.commissionPayableCents,
    })),
    ordersSettledWithoutStatement: result.ordersSettledWithoutStatement,
    referralPayouts: result.referralPayouts
      .filter((p) => p.payoutId)
      .map((p) => ({ partnerId: p.partnerId, partnerName: names.get(p.partnerId) ?? p.partnerId, amountCents: p.amountCents, currency: p.currency })),
    brokeragePayouts: result.brokeragePayouts.map((p) => ({
      partnerId: p.partnerId,
      partnerName: names.get(p.partnerId) ?? p.partnerId,
      amountCents: p.amountCents,
      currency: p.currency,
    })),
  };
}

/** What a run at `asOf` would close, computed by the run itself in a transaction that is rolled back. */
export async function previewSettlement(db: Database, input: StaffSettlementInput, actor: Actor) {
  let preview: Awaited<ReturnType<typeof summarizeRun>> | undefined;
  try {
    await db.transaction(async (tx) => {
      const result = await runSettlement(tx, { asOf: input.asOf, actor, only: input.only });
      preview = await summarizeRun(tx, result);
      throw new PreviewRollback();
    });
  } catch (error) {
    if (!(error instanceof PreviewRollback)) throw error;
  }
  return preview!;
}

/** The run (settlement:run), then one audit row naming who ran it, why, and what it closed. */
export async function runSettlementForStaff(db: Database, input: StaffSettlementInput & { reason: string }, actor: Actor) {
  const result = await runSettlement(db, { asOf: input.asOf, actor, only: input.only });
  const summary = await summarizeRun(db, result);
  await recordAudit(db, actor, {
    action: "settlement.run",
    targetType: "settlement_run",
    targetId: summary.asOf,
    partnerId: input.only?.partnerId ?? null,
    environment: input.only?.environment ?? null,
    data: {
      reason: input.reason,
      as_of: summary.asOf,
      statements: summary.statements.length,
      referral_payouts: summary.referralPayouts.length,
      brokerage_payouts: summary.brokeragePayouts.length,
    },
  });
  return summary;
}
