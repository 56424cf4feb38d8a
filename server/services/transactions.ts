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

type TransactionFilters = Omit<ListTransactionsInput, "limit" | "cursor">;

function filtersOf(input: TransactionFilters): SQL | undefined {
  checkRange(input.from, input.to);
  return and(
    eq(orders.partnerId, input.partnerId),
    eq(orders.environment, input.environment),
    input.from ? gte(orders.createdAt, input.from) : undefined,
    input.to ? lt(orders.createdAt, input.to) : undefined,
    input.statuses?.length ? inArray(orders.status, input.statuses) : undefined,
    input.paymentModels?.length ? inArray(orders.channel, input.paymentModels) : undefined,
  );
}

/** One page of the filtered orders, newest first (the CSV export pages through these alone). */
export async function listTransactionRows(db: Db, input: ListTransactionsInput) {
  const filtered = filtersOf(input);
  // Ids sort by creation time, so the id alone is a stable keyset; (partner_id, environment, id) serves it.
  const afterId = input.cursor ? decodeCursor(input.cursor, 1)[0] : undefined;
  const rows = await db
    .select()
    .from(orders)
    .where(afterId ? and(filtered, lt(orders.id, afterId)) : filtered)
    .orderBy(desc(orders.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeCursor([last.id]));
  return { rows: page, nextCursor };
}

/** Totals per currency over the whole filtered set (every page of it). */
export async function transactionTotals(db: Db, input: TransactionFilters): Promise<TransactionTotals[]> {
  const voidedList = sql.join(
    voided.map((s) => sql`${s}`),
    sql`, `,
  );
  const totals = await db
    .select({
      currency: orders.currency,
      count: sql<number>`count(*)::int`,
      gmv: sql<string>`coalesce(sum(${orders.salePriceCents}) filter (where ${orders.status} not in (${voidedList})), 0)::text`,
      commission: sql<string>`coalesce(sum(${orders.commissionCents}) filter (where ${orders.status} not in (${voidedList})), 0)::text`,
    })
    .from(orders)
    .where(filtersOf(input))
    .groupBy(orders.currency)
    .orderBy(orders.currency);
  return totals.map((t) => ({ currency: t.currency, count: t.count, gmvCents: safeSum([t.gmv]), commissionCents: safeSum([t.commission]) }));
}

export async function listTransactions(db: Db, input: ListTransactionsInput) {
  const [page, totals] = await Promise.all([listTransactionRows(db, input), transactionTotals(db, input)]);
  return { ...page, totals };
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
