import { and, count, desc, eq, gte, inArray, lt, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { orders, partners, payouts, settlements } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError, notFound } from "@/server/errors";
import { bucketsOf, fillBuckets, referralSeries, salesSeries, type Granularity, type Owner } from "./finance-series";
import { decodeCursor, encodeCursor, pageOf } from "./pages";
import { listPayouts, serializePayout, type ListPayoutsInput } from "./payouts";
import { getAnalytics } from "./referral-reports";
import { ceilDate, checkRange, listSettlements, safeSum, serializeStatement, type ListSettlementsInput } from "./settlements";
import { serializeTransaction } from "./transactions";

// The dashboard's Finance area: the REST reports (settlements, transactions,
// payouts, commissions) through their own service functions, plus what a page
// needs beside a list: totals over the whole filtered set, a statement's
// orders, and chart data. Every query filters by partner and environment;
// another partner's statement is not_found.

const DAY_MS = 86_400_000;

export interface ReportingAccess {
  paymentModel: "mor" | "non_mor";
  isAffiliate: boolean;
}

/** What the partner may read: statements are for MoR partners, referral reports for affiliates (as on REST). */
export async function getReportingAccessOrThrow(db: Db, partnerId: string): Promise<ReportingAccess> {
  const [row] = await db
    .select({ paymentModel: partners.paymentModel, isAffiliate: partners.isAffiliate })
    .from(partners)
    .where(eq(partners.id, partnerId));
  if (!row) throw notFound("partner");
  return row;
}

// --- settlements ------------------------------------------------------------------

/** GET /settlements's page, plus totals per currency over every page (first page only). */
export async function listStatementsWithTotals(db: Db, input: ListSettlementsInput) {
  const page = await listSettlements(db, input);
  const totals = input.cursor ? null : await statementTotals(db, input);
  return { data: page.rows.map(serializeStatement), next_cursor: page.nextCursor, totals };
}

/** The same filter as listSettlements (period_start against the dates at or after from/to). */
async function statementTotals(db: Db, input: ListSettlementsInput) {
  const rows = await db
    .select({
      currency: settlements.currency,
      statements: sql<number>`count(*)::int`,
      orders: sql<number>`coalesce(sum(${settlements.orderCount}), 0)::int`,
      gross: sql<string>`sum(${settlements.grossSoldCents})::text`,
      commission: sql<string>`sum(${settlements.commissionRetainedCents})::text`,
      owed: sql<string>`sum(coalesce(${settlements.amountOwedCents}, ${settlements.grossSoldCents} - ${settlements.commissionRetainedCents}))::text`,
    })
    .from(settlements)
    .where(
      and(
        eq(settlements.partnerId, input.partnerId),
        eq(settlements.environment, input.environment),
        eq(settlements.paymentModel, "mor"),
        input.from ? gte(settlements.periodStart, ceilDate(input.from)) : undefined,
        input.to ? lt(settlements.periodStart, ceilDate(input.to)) : undefined,
        input.currency ? eq(settlements.currency, input.currency) : undefined,
      ),
    )
    .groupBy(settlements.currency)
    .orderBy(settlements.currency);
  return rows.map((r) => ({
    currency: r.currency,
    statements: r.statements,
    order_count: r.orders,
    gross_sold_cents: safeSum([r.gross]),
    commission_retained_cents: safeSum([r.commission]),
    amount_owed_cents: safeSum([r.owed]),
  }));
}

interface StatementRef extends Owner {
  paymentModel: ReportingAccess["paymentModel"];
  id: string;
}

/** One MoR statement of the partner, as GET /settlements writes it; anyone else's is not_found. */
export async function getStatementOrThrow(db: Db, input: StatementRef) {
  if (input.paymentModel !== "mor") throw new AppError("forbidden", "settlement statements are for merchant-of-record partners");
  const [row] = await db
    .select()
    .from(settlements)
    .where(
      and(
        eq(settlements.id, input.id),
        eq(settlements.partnerId, input.partnerId),
        eq(settlements.environment, input.environment),
        eq(settlements.paymentModel, "mor"),
      ),
    );
  if (!row) throw notFound("settlement statement");
  return serializeStatement(row);
}

/** The statement's lines: the orders it settled, newest first, each as GET /transactions writes it. */
export async function listStatementOrders(db: Db, input: StatementRef & { limit: number; cursor?: string }) {
  await getStatementOrThrow(db, input);
  const afterId = input.cursor ? decodeCursor(input.cursor, 1)[0] : undefined;
  const rows = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.partnerId, input.partnerId),
        eq(orders.environment, input.environment),
        eq(orders.settlementId, input.id),
        afterId ? lt(orders.id, afterId) : undefined,
      ),
    )
    .orderBy(desc(orders.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeCursor([last.id]));
  return { data: page.map(serializeTransaction), next_cursor: nextCursor };
}

// --- payouts ----------------------------------------------------------------------

/** GET /payouts's page, plus totals per currency over every page (first page only). */
export async function listPayoutsWithTotals(db: Db, input: ListPayoutsInput) {
  const page = await listPayouts(db, input);
  const totals = input.cursor ? null : await payoutTotals(db, input);
  return { data: page.rows.map(serializePayout), next_cursor: page.nextCursor, totals };
}

/** The same filter as listPayouts: created_at in [from, to), kind in the list. */
async function payoutTotals(db: Db, input: ListPayoutsInput) {
  const rows = await db
    .select({ currency: payouts.currency, n: count(), amount: sql<string>`sum(${payouts.amountCents})::text` })
    .from(payouts)
    .where(
      and(
        eq(payouts.partnerId, input.partnerId),
        eq(payouts.environment, input.environment),
        input.from ? gte(payouts.createdAt, input.from) : undefined,
        input.to ? lt(payouts.createdAt, input.to) : undefined,
        input.kinds?.length ? inArray(payouts.kind, input.kinds) : undefined,
      ),
    )
    .groupBy(payouts.currency)
    .orderBy(payouts.currency);
  return rows.map((r) => ({ currency: r.currency, count: r.n, amount_cents: safeSum([r.amount]) }));
}

// --- charts -----------------------------------------------------------------------

export interface ChartsInput extends Owner {
  isAffiliate: boolean;
  from?: Date;
  to?: Date;
  granularity: Granularity;
}

/** The charts' window when none is chosen: the 30 UTC days ending today. */
export function defaultChartWindow(now: Date): { from: Date; to: Date } {
  const to = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
  return { from: new Date(to - 30 * DAY_MS), to: new Date(to) };
}

/**
 * GMV and commission over time per currency (sales commission from the orders,
 * referral commission from referral sales), orders by status, and the referral
 * funnel of GET /analytics, all over one window.
 */
export async function getFinanceCharts(db: Db, input: ChartsInput) {
  const fallback = defaultChartWindow(clock.now());
  const window = { from: input.from ?? fallback.from, to: input.to ?? fallback.to };
  checkRange(window.from, window.to);
  const owner = { partnerId: input.partnerId, environment: input.environment };
  const buckets = await bucketsOf(db, window, input.granularity);
  const [sales, referral, statuses, funnel] = await Promise.all([
    salesSeries(db, owner, window, input.granularity),
    input.isAffiliate ? referralSeries(db, owner, window, input.granularity) : Promise.resolve([]),
    ordersByStatus(db, owner, window),
    input.isAffiliate ? getAnalytics(db, { ...owner, ...window }) : Promise.resolve(null),
  ]);
  const currencies = [...new Set([...sales.map((s) => s.currency), ...referral.map((r) => r.currency)])].sort();
  return {
    from: window.from.toISOString(),
    to: window.to.toISOString(),
    granularity: input.granularity,
    buckets,
    series: currencies.map((currency) => {
      const own = sales.filter((s) => s.currency === currency);
      const referred = new Map(referral.filter((r) => r.currency === currency).map((r) => [r.bucket, r]));
      return {
        currency,
        points: fillBuckets(buckets, own, (s) => s).map((s, i) => ({
          bucket: buckets[i]!,
          orders: s?.orders ?? 0,
          gmvCents: s?.gmvCents ?? 0,
          commissionCents: s?.commissionCents ?? 0,
          referralCommissionCents: referred.get(buckets[i]!)?.commissionCents ?? 0,
        })),
      };
    }),
    statuses,
    funnel: funnel && {
      clicks: funnel.clicks,
      checkouts: funnel.checkouts,
      sales: funnel.sales,
      reversedSales: funnel.reversed_sales,
      conversionRate: funnel.conversion_rate,
    },
  };
}

/** Orders created in the window per status, with their sale amounts per currency. */
async function ordersByStatus(db: Db, owner: Owner, window: { from: Date; to: Date }) {
  const rows = await db
    .select({ status: orders.status, currency: orders.currency, n: sql<number>`count(*)::int`, amount: sql<string>`sum(${orders.salePriceCents})::text` })
    .from(orders)
    .where(and(eq(orders.partnerId, owner.partnerId), eq(orders.environment, owner.environment), gte(orders.createdAt, window.from), lt(orders.createdAt, window.to)))
    .groupBy(orders.status, orders.currency)
    .orderBy(orders.status, orders.currency);
  const byStatus = new Map<string, { status: string; count: number; amounts: { currency: string; cents: number }[] }>();
  for (const r of rows) {
    let entry = byStatus.get(r.status);
    if (!entry) byStatus.set(r.status, (entry = { status: r.status, count: 0, amounts: [] }));
    entry.count += r.n;
    entry.amounts.push({ currency: r.currency, cents: safeSum([r.amount]) });
  }
  return [...byStatus.values()];
}
