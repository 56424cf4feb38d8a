import { and, eq, gte, lt, ne, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { checkoutSessions, commissionLedger, orders, referralSales, requestLog, webhookDeliveries, webhookEndpoints, type Environment } from "@/db/schema";
import { AppError } from "@/server/errors";

// Time series for the dashboard's home sparklines and the finance charts: one
// grouped query per source, bucketed by date_trunc in UTC, so a bucket's figure
// is a plain sum the database made. Each query filters exactly as the report it
// sits beside (GET /transactions for sales, GET /analytics for referral sales,
// the webhook console's delivery stats, the request log), so the buckets of a
// window add up to that report's total for the window; the integration tests
// hold them to it.

export const granularities = ["day", "week", "month"] as const;
export type Granularity = (typeof granularities)[number];

export interface Owner {
  partnerId: string;
  environment: Environment;
}

/** `from` inclusive, `to` exclusive, as every report's date filter. */
export interface TimeWindow {
  from: Date;
  to: Date;
}

/** More buckets than this is no longer a readable chart (a year of days, ten years of months). */
export const MAX_BUCKETS = 400;

/**
 * Refunded and cancelled orders are counted but add no GMV or commission:
 * the rule of GET /transactions totals (transactions.ts), restated here for the grouping.
 */
const VOIDED = sql.raw(`'REFUNDED', 'CANCELLED'`);

/** `YYYY-MM-DD` of the start (UTC) of the day, ISO week (Monday) or month holding `column`. */
function bucketOf(column: AnyColumn, granularity: Granularity): SQL<string> {
  // The unit is a literal from a closed list: a bound parameter would make each
  // occurrence a different expression and break GROUP BY on it.
  return sql<string>`to_char(date_trunc(${sql.raw(`'${granularity}'`)}, ${column} at time zone 'UTC'), 'YYYY-MM-DD')`;
}

function within(column: AnyColumn, window: TimeWindow): SQL | undefined {
  return and(gte(column, window.from), lt(column, window.to));
}

const num = (value: unknown) => Number(value ?? 0);

/** Every bucket start of the window, oldest first, including empty ones. */
export async function bucketsOf(db: Db, window: TimeWindow, granularity: Granularity): Promise<string[]> {
  if (window.to.getTime() <= window.from.getTime()) {
    throw new AppError("validation_error", "to must be later than from", [{ path: "to", message: "must be later than from" }]);
  }
  const unit = sql.raw(`'${granularity}'`);
  const rows = await db.execute<{ bucket: string }>(sql`
    select to_char(b, 'YYYY-MM-DD') as bucket
    from generate_series(
      date_trunc(${unit}, ${window.from.toISOString()}::timestamptz at time zone 'UTC'),
      (${window.to.toISOString()}::timestamptz at time zone 'UTC') - interval '1 microsecond',
      ('1 ' || ${unit})::interval
    ) as b
    limit ${MAX_BUCKETS + 1}`);
  if (rows.length > MAX_BUCKETS) {
    throw new AppError("validation_error", `this range has more than ${MAX_BUCKETS} ${granularity}s; choose a shorter range or a coarser granularity`, [
      { path: "granularity", message: `at most ${MAX_BUCKETS} buckets` },
    ]);
  }
  return rows.map((r) => r.bucket);
}

export interface SalesBucket {
  bucket: string;
  currency: string;
  /** Orders created in the bucket, in every status (GET /transactions `count`). */
  orders: number;
  gmvCents: number;
  commissionCents: number;
}

/** The partner's own orders (every payment model) by creation time, per currency. */
export async function salesSeries(db: Db, owner: Owner, window: TimeWindow, granularity: Granularity): Promise<SalesBucket[]> {
  const bucket = bucketOf(orders.createdAt, granularity);
  const rows = await db
    .select({
      bucket,
      currency: orders.currency,
      orders: sql<number>`count(*)::int`,
      gmv: sql<string>`coalesce(sum(${orders.salePriceCents}) filter (where ${orders.status} not in (${VOIDED})), 0)::text`,
      commission: sql<string>`coalesce(sum(${orders.commissionCents}) filter (where ${orders.status} not in (${VOIDED})), 0)::text`,
    })
    .from(orders)
    .where(and(eq(orders.partnerId, owner.partnerId), eq(orders.environment, owner.environment), within(orders.createdAt, window)))
    .groupBy(sql`1`, orders.currency)
    .orderBy(sql`1`, orders.currency);
  return rows.map((r) => ({ bucket: r.bucket, currency: r.currency, orders: r.orders, gmvCents: num(r.gmv), commissionCents: num(r.commission) }));
}

export interface ReferralBucket {
  bucket: string;
  currency: string;
  sales: number;
  gmvCents: number;
  commissionCents: number;
}

/** Referral sales of the partner's links that stand (commission not reversed), by sale time: GET /analytics `revenue`. */
export async function referralSeries(db: Db, owner: Owner, window: TimeWindow, granularity: Granularity): Promise<ReferralBucket[]> {
  const bucket = bucketOf(referralSales.createdAt, granularity);
  const rows = await db
    .select({
      bucket,
      currency: referralSales.currency,
      sales: sql<number>`count(*)::int`,
      gmv: sql<string>`sum(${referralSales.amountCents})::text`,
      commission: sql<string>`sum(${referralSales.commissionCents})::text`,
    })
    .from(referralSales)
    .innerJoin(commissionLedger, and(eq(commissionLedger.source, "referral"), eq(commissionLedger.sourceId, referralSales.id)))
    .where(
      and(
        eq(referralSales.partnerId, owner.partnerId),
        eq(referralSales.environment, owner.environment),
        within(referralSales.createdAt, window),
        ne(commissionLedger.state, "reversed"),
      ),
    )
    .groupBy(sql`1`, referralSales.currency)
    .orderBy(sql`1`, referralSales.currency);
  return rows.map((r) => ({ bucket: r.bucket, currency: r.currency, sales: r.sales, gmvCents: num(r.gmv), commissionCents: num(r.commission) }));
}

export interface CheckoutBucket {
  bucket: string;
  created: number;
  /** Sessions created in the bucket that a buyer has paid (status completed). */
  paid: number;
}

/** The partner's hosted checkout links (POST /checkout-session) by creation time. */
export async function checkoutSeries(db: Db, owner: Owner, window: TimeWindow, granularity: Granularity): Promise<CheckoutBucket[]> {
  const bucket = bucketOf(checkoutSessions.createdAt, granularity);
  return db
    .select({
      bucket,
      created: sql<number>`count(*)::int`,
      paid: sql<number>`(count(*) filter (where ${checkoutSessions.status} = 'completed'))::int`,
    })
    .from(checkoutSessions)
    .where(and(eq(checkoutSessions.partnerId, owner.partnerId), eq(checkoutSessions.environment, owner.environment), within(checkoutSessions.createdAt, window)))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
}

export interface WebhookBucket {
  bucket: string;
  succeeded: number;
  failed: number;
}

/** Webhook deliveries by creation time, counted as the webhook console's deliveryStats counts them. */
export async function webhookSeries(db: Db, owner: Owner, window: TimeWindow, granularity: Granularity): Promise<WebhookBucket[]> {
  const bucket = bucketOf(webhookDeliveries.createdAt, granularity);
  return db
    .select({
      bucket,
      succeeded: sql<number>`(count(*) filter (where ${webhookDeliveries.status} = 'succeeded'))::int`,
      failed: sql<number>`(count(*) filter (where ${webhookDeliveries.status} = 'failed'))::int`,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(eq(webhookEndpoints.partnerId, owner.partnerId), eq(webhookEndpoints.environment, owner.environment), within(webhookDeliveries.createdAt, window)))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
}

export interface RequestBucket {
  bucket: string;
  total: number;
  /** Answers with a 4xx or 5xx status. */
  errors: number;
  serverErrors: number;
}

/** Signed API requests of the request log (kept 30 days) by time. */
export async function requestSeries(db: Db, owner: Owner, window: TimeWindow, granularity: Granularity): Promise<RequestBucket[]> {
  const bucket = bucketOf(requestLog.createdAt, granularity);
  return db
    .select({
      bucket,
      total: sql<number>`count(*)::int`,
      errors: sql<number>`(count(*) filter (where ${requestLog.status} >= 400))::int`,
      serverErrors: sql<number>`(count(*) filter (where ${requestLog.status} >= 500))::int`,
    })
    .from(requestLog)
    .where(and(eq(requestLog.partnerId, owner.partnerId), eq(requestLog.environment, owner.environment), within(requestLog.createdAt, window)))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
}

/** Spreads grouped rows over every bucket, zero-filling empty ones. */
export function fillBuckets<T extends { bucket: string }, V>(buckets: string[], rows: T[], pick: (row: T | undefined) => V): V[] {
  const byBucket = new Map(rows.map((r) => [r.bucket, r]));
  return buckets.map((b) => pick(byBucket.get(b)));
}
