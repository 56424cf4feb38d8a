import { and, desc, eq, gte, inArray, lt, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { checkoutSessions, commissionLedger, orders, referralClicks, referralLinks, referralSales, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { listPayouts, serializePayout } from "./payouts";
import { serializeLink, type LinkRow } from "./referrals";
import { decodeCursor, encodeCursor, pageOf } from "./pages";
import { checkRange } from "./settlements";

// The referral reports (GET /links statistics, /me/clicks, /me/sales,
// /me/commissions, /me/payouts, /analytics). Every query filters by the
// credential's partner and environment; clicks, checkouts and sales are reached
// through the partner's own links, so another partner's rows never appear.
// Counts exclude bot clicks; sums exclude reversed (refunded/cancelled) sales.

export interface Owner {
  partnerId: string;
  environment: Environment;
}

interface Window {
  from?: Date;
  to?: Date;
}

interface Page {
  limit: number;
  cursor?: string;
}

const DAY_MS = 86_400_000;

const num = (value: unknown) => Number(value ?? 0);

function ownLinks(owner: Owner) {
  return sql`select ${referralLinks.id} from ${referralLinks}
    where ${referralLinks.partnerId} = ${owner.partnerId} and ${referralLinks.environment} = ${owner.environment}`;
}

function inWindow(column: SQL.Aliased | Parameters<typeof gte>[0], window: Window): (SQL | undefined)[] {
  return [window.from ? gte(column, window.from) : undefined, window.to ? lt(column, window.to) : undefined];
}

// --- GET /links ----------------------------------------------------------------------

export async function listLinksWithStats(db: Db, input: Owner & Page) {
  const afterId = input.cursor ? decodeCursor(input.cursor, 1)[0] : undefined;
  const rows = await db
    .select()
    .from(referralLinks)
    .where(
      and(
        eq(referralLinks.partnerId, input.partnerId),
        eq(referralLinks.environment, input.environment),
        afterId ? lt(referralLinks.id, afterId) : undefined,
      ),
    )
    .orderBy(desc(referralLinks.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeCursor([last.id]));
  const ids = page.map((r) => r.id);
  const stats = ids.length ? await linkStats(db, ids) : new Map<string, LinkStats>();
  return {
    data: page.map((row) => serializeLinkWithStats(row, stats.get(row.id))),
    next_cursor: nextCursor,
  };
}

interface LinkStats {
  clicks: number;
  checkouts: number;
  conversions: number;
  revenue: { currency: string; gmv_cents: number; commission_cents: number }[];
}

async function linkStats(db: Db, ids: string[]): Promise<Map<string, LinkStats>> {
  const [clicks, checkouts, sales] = await Promise.all([
    db
      .select({ linkId: referralClicks.linkId, n: sql<string>`count(*)` })
      .from(referralClicks)
      .where(and(inArray(referralClicks.linkId, ids), eq(referralClicks.isBot, false)))
      .groupBy(referralClicks.linkId),
    db
      .select({ linkId: checkoutSessions.referralLinkId, n: sql<string>`count(*)` })
      .from(checkoutSessions)
      .where(inArray(checkoutSessions.referralLinkId, ids))
      .groupBy(checkoutSessions.referralLinkId),
    db
      .select({
        linkId: referralSales.linkId,
        currency: referralSales.currency,
        n: sql<string>`count(*)`,
        gmv: sql<string>`sum(${referralSales.amountCents})`,
        commission: sql<string>`sum(${referralSales.commissionCents})`,
      })
      .from(referralSales)
      .innerJoin(commissionLedger, and(eq(commissionLedger.source, "referral"), eq(commissionLedger.sourceId, referralSales.id)))
      .where(and(inArray(referralSales.linkId, ids), ne(commissionLedger.state, "reversed")))
      .groupBy(referralSales.linkId, referralSales.currency)
      .orderBy(referralSales.currency),
  ]);
  const out = new Map<string, LinkStats>();
  const get = (id: string) => {
    let s = out.get(id);
    if (!s) out.set(id, (s = { clicks: 0, checkouts: 0, conversions: 0, revenue: [] }));
    return s;
  };
  for (const r of clicks) get(r.linkId).clicks = num(r.n);
  for (const r of checkouts) if (r.linkId) get(r.linkId).checkouts = num(r.n);
  for (const r of sales) {
    const s = get(r.linkId);
    s.conversions += num(r.n);
    s.revenue.push({ currency: r.currency, gmv_cents: num(r.gmv), commission_cents: num(r.commission) });
  }
  return out;
}

/** One own link with its all-time statistics; another partner's or environment's link is not_found. */
export async function getLinkWithStatsOrThrow(db: Db, input: Owner & { linkId: string }) {
  const [row] = await db
    .select()
    .from(referralLinks)
    .where(
      and(
        eq(referralLinks.id, input.linkId),
        eq(referralLinks.partnerId, input.partnerId),
        eq(referralLinks.environment, input.environment),
      ),
    );
  if (!row) throw new AppError("not_found", `link ${input.linkId} not found`);
  return serializeLinkWithStats(row, (await linkStats(db, [row.id])).get(row.id));
}

function serializeLinkWithStats(row: LinkRow, stats: LinkStats | undefined) {
  return { ...serializeLink(row), ...(stats ?? { clicks: 0, checkouts: 0, conversions: 0, revenue: [] }) };
}

// --- GET /me/clicks ------------------------------------------------------------------

/** `linkId` narrows to one link (the dashboard's link detail); it still has to be one of the owner's. */
export async function getClicksReport(db: Db, input: Owner & Window & { interval?: "day"; linkId?: string }) {
  checkRange(input.from, input.to);
  const where = and(
    sql`${referralClicks.linkId} in (${ownLinks(input)})`,
    input.linkId ? eq(referralClicks.linkId, input.linkId) : undefined,
    ...inWindow(referralClicks.createdAt, input),
  );
  const [totals] = await db
    .select({
      clicks: sql<string>`count(*) filter (where not ${referralClicks.isBot})`,
      bots: sql<string>`count(*) filter (where ${referralClicks.isBot})`,
    })
    .from(referralClicks)
    .where(where);
  const series = input.interval
    ? await db
        .select({ date: referralClicks.day, n: sql<string>`count(*)` })
        .from(referralClicks)
        .where(and(where, eq(referralClicks.isBot, false)))
        .groupBy(referralClicks.day)
        .orderBy(referralClicks.day)
    : undefined;
  return {
    from: input.from?.toISOString() ?? null,
    to: input.to?.toISOString() ?? null,
    clicks: num(totals?.clicks),
    bot_clicks: num(totals?.bots),
    ...(series ? { series: series.map((r) => ({ date: r.date, clicks: num(r.n) })) } : {}),
  };
}

// --- GET /me/sales -------------------------------------------------------------------

export async function listReferralSales(db: Db, input: Owner & Window & Page & { linkId?: string }) {
  checkRange(input.from, input.to);
  const afterId = input.cursor ? decodeCursor(input.cursor, 1)[0] : undefined;
  const rows = await db
    .select({ sale: referralSales, orderStatus: orders.status, state: commissionLedger.state })
    .from(referralSales)
    .innerJoin(orders, eq(orders.id, referralSales.orderId))
    .innerJoin(commissionLedger, and(eq(commissionLedger.source, "referral"), eq(commissionLedger.sourceId, referralSales.id)))
    .where(
      and(
        eq(referralSales.partnerId, input.partnerId),
        eq(referralSales.environment, input.environment),
        input.linkId ? eq(referralSales.linkId, input.linkId) : undefined,
        ...inWindow(referralSales.createdAt, input),
        afterId ? lt(referralSales.id, afterId) : undefined,
      ),
    )
    .orderBy(desc(referralSales.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeCursor([last.sale.id]));
  return {
    data: page.map(({ sale, orderStatus, state }) => ({
      id: sale.id,
      link_id: sale.linkId,
      order_id: sale.orderId,
      buyer_email: sale.buyerEmail,
      domain: sale.domain,
      amount_cents: sale.amountCents,
      commission_cents: sale.commissionCents,
      currency: sale.currency,
      order_status: orderStatus,
      commission_state: state,
      created_at: sale.createdAt.toISOString(),
    })),
    next_cursor: nextCursor,
  };
}

// --- GET /me/commissions -------------------------------------------------------------

type CommissionState = (typeof commissionLedger.$inferSelect)["state"];

type CommissionInput = Owner & Window & Page & { state?: CommissionState };

/** One page of the ledger with each entry's running balance (the CSV export pages through these alone). */
export async function listCommissionEntries(db: Db, input: CommissionInput) {
  checkRange(input.from, input.to);
  const afterId = input.cursor ? decodeCursor(input.cursor, 1)[0] : undefined;
  // The balance is computed over the partner's whole ledger first, then the
  // window, state filter and page are applied, so a filtered row shows the same
  // balance as unfiltered.
  const ledger = db.$with("ledger").as(
    db
      .select({
        id: commissionLedger.id,
        source: commissionLedger.source,
        sourceId: commissionLedger.sourceId,
        orderId: commissionLedger.orderId,
        state: commissionLedger.state,
        amountCents: commissionLedger.amountCents,
        currency: commissionLedger.currency,
        payoutId: commissionLedger.payoutId,
        createdAt: commissionLedger.createdAt,
        updatedAt: commissionLedger.updatedAt,
        balance: sql<string>`sum(case when ${commissionLedger.state} in ('accrued', 'pending') then ${commissionLedger.amountCents} else 0 end)
          over (partition by ${commissionLedger.currency} order by ${commissionLedger.createdAt}, ${commissionLedger.id})`.as("balance"),
      })
      .from(commissionLedger)
      .where(and(eq(commissionLedger.partnerId, input.partnerId), eq(commissionLedger.environment, input.environment))),
  );
  const rows = await db
    .with(ledger)
    .select()
    .from(ledger)
    .where(
      and(
        ...inWindow(ledger.createdAt, input),
        input.state ? eq(ledger.state, input.state) : undefined,
        afterId ? lt(ledger.id, afterId) : undefined,
      ),
    )
    .orderBy(desc(ledger.id))
    .limit(input.limit + 1);
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeCursor([last.id]));
  return {
    rows: page.map((r) => ({
      id: r.id,
      source: r.source,
      source_id: r.sourceId,
      order_id: r.orderId,
      state: r.state,
      amount_cents: r.amountCents,
      currency: r.currency,
      payout_id: r.payoutId,
      balance_cents: num(r.balance),
      created_at: new Date(r.createdAt).toISOString(),
      updated_at: new Date(r.updatedAt).toISOString(),
    })),
    nextCursor,
  };
}

async function commissionTotals(db: Db, input: Owner & Window) {
  const totals = await db
    .select({ currency: commissionLedger.currency, state: commissionLedger.state, sum: sql<string>`sum(${commissionLedger.amountCents})` })
    .from(commissionLedger)
    .where(
      and(
        eq(commissionLedger.partnerId, input.partnerId),
        eq(commissionLedger.environment, input.environment),
        ...inWindow(commissionLedger.createdAt, input),
      ),
    )
    .groupBy(commissionLedger.currency, commissionLedger.state)
    .orderBy(commissionLedger.currency);
  const byCurrency = new Map<string, { currency: string; accrued_cents: number; pending_cents: number; paid_out_cents: number; reversed_cents: number }>();
  for (const t of totals) {
    let entry = byCurrency.get(t.currency);
    if (!entry) byCurrency.set(t.currency, (entry = { currency: t.currency, accrued_cents: 0, pending_cents: 0, paid_out_cents: 0, reversed_cents: 0 }));
    entry[`${t.state}_cents`] = num(t.sum);
  }
  return [...byCurrency.values()];
}

export async function listCommissions(db: Db, input: CommissionInput) {
  const entries = await listCommissionEntries(db, input);
  return { data: entries.rows, next_cursor: entries.nextCursor, totals: await commissionTotals(db, input) };
}

// --- GET /me/payouts -----------------------------------------------------------------

export async function listReferralPayouts(db: Db, input: Owner & Window & Page) {
  const page = await listPayouts(db, { ...input, kinds: ["referral"] });
  const totals = await db.execute<{ currency: string; total: string }>(sql`
    select currency, sum(amount_cents)::text as total from payouts
    where partner_id = ${input.partnerId} and environment = ${input.environment} and kind = 'referral'
      ${input.from ? sql`and created_at >= ${input.from.toISOString()}::timestamptz` : sql``}
      ${input.to ? sql`and created_at < ${input.to.toISOString()}::timestamptz` : sql``}
    group by currency order by currency`);
  return {
    data: page.rows.map(serializePayout),
    next_cursor: page.nextCursor,
    total_paid: totals.map((t) => ({ currency: t.currency, amount_cents: num(t.total) })),
  };
}

// --- GET /analytics ------------------------------------------------------------------

export async function getAnalytics(db: Db, input: Owner & Window) {
  const to = input.to ?? clock.now();
  const from = input.from ?? new Date(to.getTime() - 30 * DAY_MS);
  checkRange(from, to);
  const window = { from, to };
  const links = ownLinks(input);
  const [clicks, checkouts, sales] = await Promise.all([
    db
      .select({ n: sql<string>`count(*)` })
      .from(referralClicks)
      .where(and(sql`${referralClicks.linkId} in (${links})`, eq(referralClicks.isBot, false), ...inWindow(referralClicks.createdAt, window))),
    db
      .select({ n: sql<string>`count(*)` })
      .from(checkoutSessions)
      .where(and(sql`${checkoutSessions.referralLinkId} in (${links})`, ...inWindow(checkoutSessions.createdAt, window))),
    db
      .select({
        currency: referralSales.currency,
        reversed: sql<boolean>`${commissionLedger.state} = 'reversed'`,
        n: sql<string>`count(*)`,
        gmv: sql<string>`sum(${referralSales.amountCents})`,
        commission: sql<string>`sum(${referralSales.commissionCents})`,
      })
      .from(referralSales)
      .innerJoin(commissionLedger, and(eq(commissionLedger.source, "referral"), eq(commissionLedger.sourceId, referralSales.id)))
      .where(
        and(
          eq(referralSales.partnerId, input.partnerId),
          eq(referralSales.environment, input.environment),
          ...inWindow(referralSales.createdAt, window),
        ),
      )
      .groupBy(referralSales.currency, sql`2`)
      .orderBy(referralSales.currency),
  ]);
  const clickCount = num(clicks[0]?.n);
  const kept = sales.filter((s) => !s.reversed);
  const saleCount = kept.reduce((n, s) => n + num(s.n), 0);
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    clicks: clickCount,
    checkouts: num(checkouts[0]?.n),
    sales: saleCount,
    reversed_sales: sales.filter((s) => s.reversed).reduce((n, s) => n + num(s.n), 0),
    conversion_rate: clickCount > 0 ? Math.round((saleCount / clickCount) * 10_000) / 10_000 : null,
    revenue: kept.map((s) => ({ currency: s.currency, gmv_cents: num(s.gmv), commission_cents: num(s.commission) })),
  };
}
