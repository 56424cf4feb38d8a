import { and, desc, eq, gte, inArray, lt, or, ilike, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { partners, payouts, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { recordAudit } from "./audit";
import { recordEvent } from "./events";
import { decodeCursor, encodeCursor, pageOf } from "./pages";
import type { Actor } from "./partners";
import { checkRange } from "./settlements";

// GET /payouts: money the service paid to the partner, newest first. Settlement
// writes one `commission` payout per non-MoR statement (see settlements.ts);
// brokerage shares and referral payouts are written by their own features as
// kinds `brokerage` and `referral`. Date filters apply to created_at.

export type PayoutRow = typeof payouts.$inferSelect;
export const payoutStatuses = ["pending", "paid"] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/**
 * How a payout starts. Live money leaves by bank transfer outside the service,
 * so a live payout is `pending` until staff record the transfer (markPayoutPaid);
 * nothing moves in the sandbox, so a sandbox payout is paid when written.
 */
export function newPayoutState(environment: Environment, now: Date): { status: PayoutStatus; paidAt: Date | null } {
  return environment === "live" ? { status: "pending", paidAt: null } : { status: "paid", paidAt: now };
}
/** Kinds written today; the column is open text so a new kind needs no migration. */
export const payoutKinds = ["commission", "brokerage", "referral"] as const;

export interface ListPayoutsInput {
  partnerId: string;
  environment: Environment;
  from?: Date;
  to?: Date;
  kinds?: string[];
  limit: number;
  cursor?: string;
}

export async function listPayouts(db: Db, input: ListPayoutsInput) {
  checkRange(input.from, input.to);
  const afterId = input.cursor ? decodeCursor(input.cursor, 1)[0] : undefined;
  const rows = await db
    .select()
    .from(payouts)
    .where(
      and(
        eq(payouts.partnerId, input.partnerId),
        eq(payouts.environment, input.environment),
        input.from ? gte(payouts.createdAt, input.from) : undefined,
        input.to ? lt(payouts.createdAt, input.to) : undefined,
        input.kinds?.length ? inArray(payouts.kind, input.kinds) : undefined,
        afterId ? lt(payouts.id, afterId) : undefined,
      ),
    )
    .orderBy(desc(payouts.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeCursor([last.id]));
  return { rows: page, nextCursor };
}

/** One payout as GET /payouts writes it. */
export function serializePayout(row: PayoutRow) {
  return {
    id: row.id,
    kind: row.kind,
    amount_cents: row.amountCents,
    currency: row.currency,
    status: row.status,
    reference: row.reference,
    settlement_id: row.settlementId,
    period_start: row.periodStart,
    period_end: row.periodEnd,
    paid_at: row.paidAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

// --- staff -------------------------------------------------------------------------------

const PAYOUT_ID = /^po_[0-9A-Za-z]{22}$/;

/** Payouts across partners for the console, newest first; `status: "pending"` is the queue to pay. */
export async function listPayoutsForStaff(
  db: Db,
  input: { status?: PayoutStatus; environment?: Environment; partnerId?: string; kind?: string; q?: string; cursor?: string | null; limit: number },
) {
  if (input.cursor && !PAYOUT_ID.test(input.cursor)) throw new AppError("validation_error", "cursor is not a payout id of this listing");
  const term = input.q ? `%${input.q.replace(/[%_\\]/g, "\\$&")}%` : undefined;
  const filters: (SQL | undefined)[] = [
    input.status ? eq(payouts.status, input.status) : undefined,
    input.environment ? eq(payouts.environment, input.environment) : undefined,
    input.partnerId ? eq(payouts.partnerId, input.partnerId) : undefined,
    input.kind ? eq(payouts.kind, input.kind) : undefined,
    term ? or(ilike(partners.name, term), ilike(payouts.id, term), ilike(payouts.reference, term)) : undefined,
    input.cursor ? lt(payouts.id, input.cursor) : undefined,
  ];
  const rows = await db
    .select({ payout: payouts, partnerName: partners.name })
    .from(payouts)
    .innerJoin(partners, eq(partners.id, payouts.partnerId))
    .where(and(...filters))
    .orderBy(desc(payouts.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    payouts: page.map(({ payout, partnerName }) => ({
      ...serializePayout(payout),
      partnerId: payout.partnerId,
      partnerName,
      environment: payout.environment,
    })),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.payout.id ?? null) : null,
  };
}

/**
 * Records that a pending payout was sent: paid, with the transfer's reference,
 * an audit row and a payout.paid event for the partner, in one transaction.
 * Marking it again is refused, so a double click cannot record two transfers.
 */
export async function markPayoutPaid(db: Db, input: { payoutId: string; reference: string; reason?: string }, actor: Actor) {
  const reference = input.reference.trim();
  if (reference.length < 3 || reference.length > 200) {
    throw new AppError("validation_error", "reference must be the transfer's reference, 3-200 characters", [{ path: "reference", message: "3-200 characters" }]);
  }
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(payouts).where(eq(payouts.id, input.payoutId)).for("update");
    if (!row) throw new AppError("not_found", `payout ${input.payoutId} not found`);
    if (row.status === "paid") throw new AppError("conflict", `payout ${row.id} is already paid (${row.paidAt?.toISOString() ?? "when written"})`);
    const now = clock.now();
    const [paid] = await tx.update(payouts).set({ status: "paid", paidAt: now, reference }).where(eq(payouts.id, row.id)).returning();
    await recordAudit(
      tx,
      actor,
      {
        action: "payout.paid",
        targetType: "payout",
        targetId: row.id,
        partnerId: row.partnerId,
        environment: row.environment,
        data: {
          before: { status: row.status },
          after: { status: "paid", reference },
          amount_cents: row.amountCents,
          currency: row.currency,
          ...(input.reason ? { reason: input.reason } : {}),
        },
      },
      now,
    );
    const serialized = serializePayout(paid!);
    await recordEvent(tx, { partnerId: row.partnerId, environment: row.environment, type: "payout.paid", data: { payout: serialized } });
    return serialized;
  });
}
