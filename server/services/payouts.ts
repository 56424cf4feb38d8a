import { and, desc, eq, gte, inArray, lt } from "drizzle-orm";
import type { Db } from "@/db/client";
import { payouts, type Environment } from "@/db/schema";
import { decodeCursor, encodeCursor, pageOf } from "./pages";
import { checkRange } from "./settlements";

// GET /payouts: money the service paid to the partner, newest first. Settlement
// writes one `commission` payout per non-MoR statement (see settlements.ts);
// brokerage shares and referral payouts are written by their own features as
// kinds `brokerage` and `referral`. Date filters apply to created_at.

export type PayoutRow = typeof payouts.$inferSelect;
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
    settlement_id: row.settlementId,
    period_start: row.periodStart,
    period_end: row.periodEnd,
    paid_at: row.paidAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
