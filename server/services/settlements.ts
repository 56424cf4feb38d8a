import { advisoryLocks } from "@/db/locks";
import { and, asc, desc, eq, gte, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import type { Db, Transaction } from "@/db/client";
import { commissionLedger, orders, payouts, settlements, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { newId } from "@/server/ids";
import { decodeCursor, encodeCursor, pageOf } from "./pages";
import { transitionOrder, type OrderRow } from "./order-states";
import type { Actor } from "./partners";
import { payOutReferralCommissions, type ReferralPayout } from "./referrals";
import { settleBrokerageShares, type BrokeragePayout } from "./brokerage";
import { recordAudit } from "./audit";
import { newPayoutState } from "./payouts";

// Settlement of SPEC "Settlement and reconciliation" and DECISIONS "Settlement
// periods". Periods are calendar months in UTC; a run closes every ended period
// (period_end <= as-of) that still holds TRANSFER_COMPLETED orders.
//
// Invariants:
// - One statement per partner, environment, currency, payment model, period and
//   sequence. Sequence 1 is the period's statement; an order whose transfer
//   completion commits into a period that was already closed (a transaction that
//   began before the period ended and committed after the run read it, or one
//   completing after a run with a future as-of closed its month early) goes into
//   a supplementary statement (sequence 2, 3, ...) of its own period at the next
//   run. A closed statement is never rewritten, so what a partner saw stays true.
// - Figures are sums of the per-order figures fixed when the order was recorded:
//   commission_cents = sale_price_cents * commission_bps / 10000, nearest cent with
//   halves up (commissionCents in orders.ts), per order.
//   Summing per-order commissions (not applying bps to the total) makes a statement
//   equal, to the cent, to the sum of its orders in GET /transactions.
// - MoR (channel mor): the partner collected the money and keeps its commission:
//   amount_owed_cents = gross_sold_cents - commission_retained_cents, owed to the service.
//   Non-MoR (channel checkout): the service collected; commission_payable_cents =
//   the commission, paid out at settlement as one payout (kind commission) per statement.
// - Each statement closes in its own transaction under an advisory lock, re-reading
//   and locking its orders, so concurrent runs close each statement once and a rerun
//   closes nothing. Orders move to SETTLED with transitionOrder in that transaction,
//   so their `order.settled` events commit with the statement.
// - Orders without a partner (direct marketplace sales) become SETTLED too, with no
//   statement: there is nobody to state them to.

export type SettlementRow = typeof settlements.$inferSelect;
export type PaymentModel = SettlementRow["paymentModel"];

/** Advisory lock serialising settlement runs (statements and the referral payout step). */
export const SETTLEMENT_LOCK = advisoryLocks.settlement;
/** A month's close reads and writes every order of the period: more than a request's 15 s. */
export const SETTLEMENT_STATEMENT_TIMEOUT_MS = 600_000;
const systemActor: Actor = { type: "system" };

export interface ClosedStatement {
  settlement: SettlementRow;
  payoutId: string | null;
  orderIds: string[];
}

export interface SettlementRunResult {
  asOf: Date;
  statements: ClosedStatement[];
  /** Orders without a partner (direct marketplace sales) settled without a statement. */
  ordersSettledWithoutStatement: number;
  /** The separate referral step: pending referral commissions of settled orders paid out. */
  referralPayouts: ReferralPayout[];
  /** The separate brokerage step: partner shares of cases completed in ended months (settleBrokerageShares). */
  brokeragePayouts: BrokeragePayout[];
}

interface Group {
  partnerId: string | null;
  environment: Environment;
  currency: string;
  channel: OrderRow["channel"];
  periodStart: string;
}

/** First instant (UTC) of the calendar month holding `at`. */
export function monthStart(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
}

/** `YYYY-MM-DD` of the first day of the month after the one starting at `periodStart`. */
export function nextPeriodStart(periodStart: string): string {
  const start = new Date(`${periodStart}T00:00:00.000Z`);
  return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

/**
 * Closes every period that ended at `asOf` (default now). An `asOf` in the future
 * closes the running month early (staff and scripted tests use this); orders that
 * complete later in that month go into a supplementary statement of it.
 */
/** One partner's one environment: the sandbox simulator settles a partner's test data alone. */
export interface SettlementScope {
  partnerId: string;
  environment: Environment;
}

export async function runSettlement(db: Db, input: { asOf?: Date; actor?: Actor; only?: SettlementScope } = {}): Promise<SettlementRunResult> {
  const asOf = input.asOf ?? clock.now();
  if (Number.isNaN(asOf.getTime())) throw new AppError("validation_error", "as-of must be an ISO 8601 date-time");
  const cutoff = monthStart(asOf);
  const groups = await db.execute<{
    partner_id: string | null;
    environment: Environment;
    currency: string;
    channel: OrderRow["channel"];
    period_start: string;
  }>(sql`
    select partner_id, environment, currency, channel,
      to_char(date_trunc('month', transfer_completed_at at time zone 'UTC'), 'YYYY-MM-DD') as period_start
    from ${orders}
    where status = 'TRANSFER_COMPLETED' and transfer_completed_at < ${cutoff.toISOString()}::timestamptz
      ${input.only ? sql`and partner_id = ${input.only.partnerId} and environment = ${input.only.environment}` : sql``}
    group by 1, 2, 3, 4, 5
    order by period_start, partner_id nulls first, environment, currency, channel`);

  const result: SettlementRunResult = { asOf, statements: [], ordersSettledWithoutStatement: 0, referralPayouts: [], brokeragePayouts: [] };
  for (const row of groups) {
    const group: Group = {
      partnerId: row.partner_id,
      environment: row.environment,
      currency: row.currency,
      channel: row.channel,
      periodStart: row.period_start,
    };
    const closed = await closeGroup(db, group, input.actor ?? systemActor);
    if (closed.statement) result.statements.push(closed.statement);
    result.ordersSettledWithoutStatement += closed.settledWithoutStatement;
  }
  // A separate step after the statements: referral commission is the referrer's,
  // not the selling partner's, so it is paid apart from any statement.
  result.referralPayouts = await payOutReferralCommissions(db, input.actor ?? systemActor, input.only);
  // Brokerage shares are paid per completed case, apart from any statement (brokerage.ts).
  result.brokeragePayouts = await settleBrokerageShares(db, { asOf, actor: input.actor ?? systemActor, only: input.only });
  return result;
}

function paymentModelOf(group: Group): PaymentModel | null {
  if (!group.partnerId) return null;
  if (group.channel === "mor") return "mor";
  if (group.channel === "checkout") return "non_mor";
  return null; // a marketplace sale carries no partner statement
}

async function closeGroup(db: Db, group: Group, actor: Actor) {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETTLEMENT_LOCK})`);
    await tx.execute(sql.raw(`set local statement_timeout = ${SETTLEMENT_STATEMENT_TIMEOUT_MS}`));
    const periodEnd = nextPeriodStart(group.periodStart);
    // Re-read under the lock: a concurrent run may have settled these already.
    const rows = await tx
      .select()
      .from(orders)
      .where(
        and(
          group.partnerId ? eq(orders.partnerId, group.partnerId) : isNull(orders.partnerId),
          eq(orders.environment, group.environment),
          eq(orders.currency, group.currency),
          eq(orders.channel, group.channel),
          eq(orders.status, "TRANSFER_COMPLETED"),
          gte(orders.transferCompletedAt, new Date(`${group.periodStart}T00:00:00.000Z`)),
          lt(orders.transferCompletedAt, new Date(`${periodEnd}T00:00:00.000Z`)),
        ),
      )
      .orderBy(asc(orders.id))
      .for("update");
    if (rows.length === 0) return { statement: null, settledWithoutStatement: 0 };

    const model = paymentModelOf(group);
    if (!model || !group.partnerId) {
      for (const order of rows) await transitionOrder(tx, { orderId: order.id, action: "settle", actor, note: "settled; no partner statement" });
      return { statement: null, settledWithoutStatement: rows.length };
    }

    const statement = await insertStatement(tx, { ...group, partnerId: group.partnerId, periodEnd, model, rows });
    const payoutId = model === "non_mor" ? await payCommission(tx, statement, rows) : null;
    for (const order of rows) {
      await transitionOrder(tx, {
        orderId: order.id,
        action: "settle",
        actor,
        note: `settlement ${statement.id}`,
        set: { settlementId: statement.id },
      });
    }
    await recordAudit(tx, actor, {
      action: "settlement.closed",
      targetType: "settlement",
      targetId: statement.id,
      partnerId: statement.partnerId,
      environment: statement.environment,
      data: {
        period_start: statement.periodStart,
        sequence: statement.sequence,
        currency: statement.currency,
        gross_sold_cents: statement.grossSoldCents,
        commission_retained_cents: statement.commissionRetainedCents,
        order_count: statement.orderCount,
        payout_id: payoutId,
      },
    }, clock.now());
    return { statement: { settlement: statement, payoutId, orderIds: rows.map((r) => r.id) }, settledWithoutStatement: 0 };
  });
}

async function insertStatement(
  tx: Transaction,
  input: Group & { partnerId: string; periodEnd: string; model: PaymentModel; rows: OrderRow[] },
): Promise<SettlementRow> {
  const gross = safeSum(input.rows.map((r) => r.salePriceCents));
  const commission = safeSum(input.rows.map((r) => r.commissionCents));
  const [last] = await tx
    .select({ sequence: sql<number>`coalesce(max(${settlements.sequence}), 0)::int` })
    .from(settlements)
    .where(
      and(
        eq(settlements.partnerId, input.partnerId),
        eq(settlements.environment, input.environment),
        eq(settlements.periodStart, input.periodStart),
        eq(settlements.currency, input.currency),
        eq(settlements.paymentModel, input.model),
      ),
    );
  const now = clock.now();
  const [row] = await tx
    .insert(settlements)
    .values({
      id: newId("settlement", now.getTime()),
      partnerId: input.partnerId,
      environment: input.environment,
      paymentModel: input.model,
      periodStart: input.periodStart,
      periodEnd: input.periodEnd,
      currency: input.currency,
      grossSoldCents: gross,
      commissionRetainedCents: commission,
      amountOwedCents: input.model === "mor" ? gross - commission : null,
      commissionPayableCents: input.model === "non_mor" ? commission : null,
      orderCount: input.rows.length,
      status: "closed",
      sequence: (last?.sequence ?? 0) + 1,
      createdAt: now,
    })
    .returning();
  if (!row) throw new Error("settlement insert returned no row");
  return row;
}

/**
 * Non-MoR: the commission is paid out at settlement, one payout per statement
 * (none when it is zero), and the sale commissions in the ledger become paid_out.
 */
async function payCommission(tx: Transaction, statement: SettlementRow, rows: OrderRow[]): Promise<string | null> {
  const amount = statement.commissionPayableCents ?? 0;
  if (amount <= 0) return null;
  const now = clock.now();
  const payoutId = newId("payout", now.getTime());
  await tx.insert(payouts).values({
    id: payoutId,
    partnerId: statement.partnerId,
    environment: statement.environment,
    kind: "commission",
    amountCents: amount,
    currency: statement.currency,
    settlementId: statement.id,
    periodStart: statement.periodStart,
    periodEnd: statement.periodEnd,
    ...newPayoutState(statement.environment, now),
    createdAt: now,
  });
  await tx
    .update(commissionLedger)
    .set({ state: "paid_out", payoutId, updatedAt: now })
    .where(
      and(
        eq(commissionLedger.partnerId, statement.partnerId),
        eq(commissionLedger.environment, statement.environment),
        eq(commissionLedger.source, "sale"),
        inArray(
          commissionLedger.orderId,
          rows.map((r) => r.id),
        ),
        inArray(commissionLedger.state, ["accrued", "pending"]),
        isNull(commissionLedger.heldAt), // an open dispute holds it
      ),
    );
  return payoutId;
}

/** Sum of integer cents, refusing (rather than rounding) anything beyond 2^53. */
export function safeSum(values: readonly (number | bigint | string)[]): number {
  const total = values.reduce<bigint>((sum, v) => sum + BigInt(v), 0n);
  const asNumber = Number(total);
  if (!Number.isSafeInteger(asNumber)) throw new Error(`amount ${total} exceeds the safe integer range`);
  return asNumber;
}

// --- GET /settlements ---------------------------------------------------------------

export interface ListSettlementsInput {
  partnerId: string;
  environment: Environment;
  paymentModel: "mor" | "non_mor";
  from?: Date;
  to?: Date;
  currency?: string;
  limit: number;
  cursor?: string;
}

/**
 * The partner's MoR statements, newest period first. Non-MoR partners are
 * refused (DECISIONS "Partner kinds"); their commission reaches them as payouts.
 */
export async function listSettlements(db: Db, input: ListSettlementsInput) {
  if (input.paymentModel !== "mor") {
    throw new AppError(
      "forbidden",
      "settlement statements are for merchant-of-record partners; commissions of hosted-checkout sales are listed by GET /payouts",
    );
  }
  checkRange(input.from, input.to);
  const after = input.cursor ? decodeCursor(input.cursor, 2) : undefined;
  const conditions: (SQL | undefined)[] = [
    eq(settlements.partnerId, input.partnerId),
    eq(settlements.environment, input.environment),
    eq(settlements.paymentModel, "mor"),
    input.from ? gte(settlements.periodStart, ceilDate(input.from)) : undefined,
    input.to ? lt(settlements.periodStart, ceilDate(input.to)) : undefined,
    input.currency ? eq(settlements.currency, input.currency) : undefined,
    after
      ? or(lt(settlements.periodStart, after[0]!), and(eq(settlements.periodStart, after[0]!), lt(settlements.id, after[1]!)))
      : undefined,
  ];
  const rows = await db
    .select()
    .from(settlements)
    .where(and(...conditions))
    .orderBy(desc(settlements.periodStart), desc(settlements.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeCursor([last.periodStart, last.id]));
  return { rows: page, nextCursor };
}

/** A statement as GET /settlements writes it. */
export function serializeStatement(row: SettlementRow) {
  return {
    id: row.id,
    period_start: row.periodStart,
    period_end: row.periodEnd,
    sequence: row.sequence,
    currency: row.currency,
    gross_sold_cents: row.grossSoldCents,
    commission_retained_cents: row.commissionRetainedCents,
    amount_owed_cents: row.amountOwedCents ?? row.grossSoldCents - row.commissionRetainedCents,
    order_count: row.orderCount,
    status: row.status,
    created_at: row.createdAt.toISOString(),
  };
}

/** A closed statement as the operations CLI prints it (both payment models). */
export function serializeClosedStatement({ settlement: row, payoutId }: ClosedStatement) {
  return {
    id: row.id,
    partner_id: row.partnerId,
    environment: row.environment,
    payment_model: row.paymentModel,
    period_start: row.periodStart,
    period_end: row.periodEnd,
    sequence: row.sequence,
    currency: row.currency,
    gross_sold_cents: row.grossSoldCents,
    commission_retained_cents: row.commissionRetainedCents,
    amount_owed_cents: row.amountOwedCents,
    commission_payable_cents: row.commissionPayableCents,
    order_count: row.orderCount,
    status: row.status,
    payout_id: payoutId,
    created_at: row.createdAt.toISOString(),
  };
}

// --- Shared by the reporting lists (settlements, transactions, payouts) ------------

/** `from` inclusive, `to` exclusive: an empty or inverted window is a client mistake. */
export function checkRange(from: Date | undefined, to: Date | undefined): void {
  if (from && to && to.getTime() <= from.getTime()) {
    throw new AppError("validation_error", "to must be later than from", [{ path: "to", message: "must be later than from" }]);
  }
}

/** The first UTC date whose midnight is at or after `at`, as `YYYY-MM-DD`. */
export function ceilDate(at: Date): string {
  const day = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  return new Date(day === at.getTime() ? day : day + 86_400_000).toISOString().slice(0, 10);
}
