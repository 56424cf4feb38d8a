import { and, desc, eq, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { orders, type Environment } from "@/db/schema";
import type { OrderRow, OrderStatus } from "./order-states";
import { decodeCursor, encodeCursor, pageOf } from "./pages";
import { checkRange, safeSum } from "./settlements";

// GET /transactions: the partner's full sales history, one row per order in
// every status, newest first, with totals per currency over the whole filtered
// set (every page of it, not just this one): the same filter, without the cursor.
// Refunded and cancelled orders are listed and counted, but carry no GMV or
// commission: `gmv_cents` and `commission_cents` sum the sales that stand.

export type Channel = OrderRow["channel"];

export interface ListTransactionsInput {
  partnerId: string;
  environment: Environment;
  from?: Date;
  to?: Date;
  statuses?: OrderStatus[];
  paymentModels?: Channel[];
  limit: number;
  cursor?: string;
}

export interface TransactionTotals {
  currency: string;
  count: number;
  gmvCents: number;
  commissionCents: number;
}

const voided: OrderStatus[] = ["REFUNDED", "CANCELLED"];

export async function listTransactions(db: Db, input: ListTransactionsInput) {
  checkRange(input.from, input.to);
  const filtered = and(
    eq(orders.partnerId, input.partnerId),
    eq(orders.environment, input.environment),
    input.from ? gte(orders.createdAt, input.from) : undefined,
    input.to ? lt(orders.createdAt, input.to) : undefined,
    input.statuses?.length ? inArray(orders.status, input.statuses) : undefined,
    input.paymentModels?.length ? inArray(orders.channel, input.paymentModels) : undefined,
  );
  // Ids sort by creation time, so the id alone is a stable keyset.
  const afterId = input.cursor ? decodeCursor(input.cursor, 1)[0] : undefined;
  const pageWhere: SQL | undefined = afterId ? and(filtered, lt(orders.id, afterId)) : filtered;
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(orders)
      .where(pageWhere)
      .orderBy(desc(orders.id))
      .limit(input.limit + 1),
    db
      .select({
        currency: orders.currency,
        count: sql<number>`count(*)::int`,
        gmv: sql<string>`coalesce(sum(${orders.salePriceCents}) filter (where ${orders.status} not in (${sql.join(
          voided.map((s) => sql`${s}`),
          sql`, `,
        )})), 0)::text`,
        commission: sql<string>`coalesce(sum(${orders.commissionCents}) filter (where ${orders.status} not in (${sql.join(
          voided.map((s) => sql`${s}`),
          sql`, `,
        )})), 0)::text`,
      })
      .from(orders)
      .where(filtered)
      .groupBy(orders.currency)
      .orderBy(orders.currency),
  ]);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeCursor([last.id]));
  return {
    rows: page,
    nextCursor,
    totals: totals.map(
      (t): TransactionTotals => ({
        currency: t.currency,
        count: t.count,
        gmvCents: safeSum([t.gmv]),
        commissionCents: safeSum([t.commission]),
      }),
    ),
  };
}

/** One order as GET /transactions writes it. */
export function serializeTransaction(row: OrderRow) {
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    payment_model: row.channel,
    sale_price_cents: row.salePriceCents,
    commission_bps: row.commissionBps,
    commission_cents: row.commissionCents,
    currency: row.currency,
    created_at: row.createdAt.toISOString(),
    transfer_completed_at: row.transferCompletedAt?.toISOString() ?? null,
    settlement_id: row.settlementId,
  };
}

export function serializeTotals(t: TransactionTotals) {
  return { currency: t.currency, count: t.count, gmv_cents: t.gmvCents, commission_cents: t.commissionCents };
}
