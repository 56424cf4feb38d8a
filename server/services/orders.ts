import { and, asc, desc, eq, gte, inArray, is, lt, sql, type SQL } from "drizzle-orm";
import { PgTransaction } from "drizzle-orm/pg-core";
import type { Db } from "@/db/client";
import { rowFromJson } from "@/db/rows";
import { compiledStatement, executePrepared } from "@/db/compiled";
import { together } from "@/db/together";
import { auditLog, domains, events, orders, orderTimeline, quotes, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { RISK_THRESHOLD_CENTS } from "@/server/contracts/orders";
import { AppError, isUniqueViolation } from "@/server/errors";
import { newId } from "@/server/ids";
import { heldForOthersSql } from "./discovery";
import { eventValues } from "./events";
import { normalizeDomainName } from "./inventory";
import { serializeOrderSummary, type OrderRow, type OrderStatus } from "./order-states";
import { pageOf } from "./pages";
import type { Actor } from "./partners";
import { listingIdSql, lockListing, unavailable, verifyQuoteToken, type QuoteClaims } from "./quotes";
import { auditValues } from "./audit";

// Partner-collected (merchant-of-record) orders: recording one, reading them.
// Moves after creation go through order-states.ts.

export type TimelineRow = typeof orderTimeline.$inferSelect;

export interface OrderWithTimeline {
  order: OrderRow;
  timeline: TimelineRow[];
}

/** 403 for a partner whose buyers pay on hosted checkout (DECISIONS "Partner kinds"). */
export function requireMerchantOfRecord(paymentModel: "mor" | "non_mor", what: string): void {
  if (paymentModel !== "mor") {
    throw new AppError(
      "forbidden",
      `${what} serves merchant-of-record partners only; this partner sells through POST /checkout-session`,
    );
  }
}

/** Commission in minor units: price x bps / 10000, to the nearest cent, halves up; exact for any safe integer. */
export function commissionCents(priceCents: number, bps: number): number {
  return Number((BigInt(priceCents) * BigInt(bps) + 5000n) / 10000n);
}

export interface CreateOrderInput {
  partnerId: string;
  environment: Environment;
  credentialId?: string;
  domain: string;
  expectedPriceCents: number;
  currency: string;
  buyer: { email: string; name?: string; country?: string };
  returnUrl?: string;
  cancelUrl?: string;
  /** The quote token as the partner sent it. */
  quoteToken?: string;
  externalPaymentRef?: string;
  actor: Actor;
}

/**
 * Records a partner-collected sale. In one transaction: the listing is locked,
 * availability and price are checked, and the order, its first timeline entry,
 * the `order.recorded` event, the audit row, the listing becoming `sold` and
 * the partner's open quotes on it being used up are written together, in one
 * statement after the locked read.
 */
export async function createOrder(db: Db, input: CreateOrderInput): Promise<OrderWithTimeline> {
  const name = normalizeDomainName(input.domain);
  const owner = { partnerId: input.partnerId, environment: input.environment };
  // Token checks need no database: a bad or foreign token is 400, an expired one 422.
  const quote = input.quoteToken ? verifyQuoteToken(input.quoteToken, { ...owner, domain: name }) : undefined;

  const created = inTransaction(db, async (tx) => {
    // The lock and the reads after it in one round trip: the reads find the listing by
    // name rather than by the id the lock returns, and run after the lock is granted.
    const [listing, [state]] = await together(
      lockListing(tx, { environment: input.environment, name }),
      executePrepared<{ held: boolean; bps: number | null; quote_order_id: string | null; quote_found: boolean }>(tx, sql`
        select ${heldForOthersSql(sql`l.id`, input.environment, input.partnerId)} as held,
          (select p.sale_commission_bps from partners p where p.id = ${input.partnerId}) as bps,
          q.order_id as quote_order_id, q.id is not null as quote_found
        from (${listingIdSql(input.environment, name)}) l
        left join quotes q on q.id = ${quote?.quoteId ?? null}::text and q.partner_id = ${input.partnerId}
          and q.environment = ${input.environment} and q.domain_id = l.id`),
    );
    if (listing.status !== "listed") throw unavailable(name, listing.status);
    if (!state || state.bps === null) throw new Error(`partner ${input.partnerId} not found`);
    if (state.held) throw unavailable(name, "reserved");
    if (quote) checkQuoteRow(quote, state);

    const price = quote
      ? { cents: quote.priceCents, currency: quote.currency, source: "the quote" }
      : { cents: listing.priceCents, currency: listing.currency, source: "the listing" };
    if (input.currency !== price.currency || input.expectedPriceCents !== price.cents) {
      throw new AppError(
        "price_mismatch",
        `expected_price ${input.expectedPriceCents} ${input.currency} does not match sale_price_cents ` +
          `${price.cents} ${price.currency} of ${price.source}`,
      );
    }

    const now = clock.now();
    const held = price.cents > RISK_THRESHOLD_CENTS;
    const status: OrderStatus = held ? "MANUAL_REVIEW" : "EXTERNALLY_PAID";
    const orderId = newId("order", now.getTime());
    const values = {
      id: orderId,
      partnerId: input.partnerId,
      environment: input.environment,
      credentialId: input.credentialId,
      domainId: listing.id,
      domain: name,
      status,
      channel: "mor" as const,
      salePriceCents: price.cents,
      currency: price.currency,
      commissionBps: state.bps,
      commissionCents: commissionCents(price.cents, state.bps),
      buyerEmail: input.buyer.email,
      buyerName: input.buyer.name ?? null,
      buyerCountry: input.buyer.country ?? null,
      returnUrl: input.returnUrl ?? null,
      cancelUrl: input.cancelUrl ?? null,
      quoteId: input.quoteToken ?? null,
      externalPaymentRef: input.externalPaymentRef ?? null,
      createdAt: now,
      updatedAt: now,
    };
    const note = held ? `held for manual review: sale price above ${RISK_THRESHOLD_CENTS} minor units` : "sale recorded by the partner";
    const [written] = await saleWrites(tx, {
      placed: values,
      entry: { orderId, status, note, actor: input.actor.type, at: now },
      event: eventValues({ ...owner, type: "order.recorded", data: { order: serializeOrderSummary(values) } }),
      sold: { id: listing.id, updatedAt: now },
      used: { orderId, domainId: listing.id, partnerId: input.partnerId },
      audit: auditValues(input.actor, {
        action: "order.recorded",
        targetType: "order",
        targetId: orderId,
        ...owner,
        data: { status, sale_price_cents: price.cents, quote_id: quote?.quoteId ?? null },
      }, now),
    });
    if (!written) throw new Error("order insert returned no row");
    return { order: rowFromJson(orders, written.order), timeline: [rowFromJson(orderTimeline, written.entry)] };
  });
  // The partial unique index settles any race the row lock above cannot (another writer path).
  return created.catch((error: unknown) => {
    throw isUniqueViolation(error) ? unavailable(name, "reserved") : error;
  });
}

/**
 * Every write of a sale in one statement (one round trip instead of six): its
 * data-modifying CTEs share one snapshot and touch different rows, and the timeline's
 * foreign key to the new order is checked at the statement's end. Compiled once
 * (db/compiled.ts): building it through the builders on every order cost more CPU
 * than the rest of createOrder.
 */
const saleWrites = compiledStatement<
  {
    placed: typeof orders.$inferInsert;
    entry: typeof orderTimeline.$inferInsert;
    event: ReturnType<typeof eventValues>;
    sold: { id: string; updatedAt: Date };
    used: { orderId: string; domainId: string; partnerId: string };
    audit: ReturnType<typeof auditValues>;
  },
  { order: Record<string, unknown>; entry: Record<string, unknown> }
>((db, p) => {
  const placed = db.insert(orders).values(p.placed).returning();
  const entry = db.insert(orderTimeline).values(p.entry).returning();
  const event = db.insert(events).values(p.event);
  // An update's set takes no placeholder in its types: the value, encoded as its column's, in SQL.
  const sold = db
    .update(domains)
    .set({ status: "sold", updatedAt: sql`${sql.param(p.sold.updatedAt, domains.updatedAt)}` })
    .where(eq(domains.id, p.sold.id));
  // Every open quote of this partner on the domain is used up by the sale.
  const used = db
    .update(quotes)
    .set({ orderId: sql`${sql.param(p.used.orderId, quotes.orderId)}` })
    .where(and(eq(quotes.domainId, p.used.domainId), eq(quotes.partnerId, p.used.partnerId), sql`${quotes.orderId} is null`));
  const audit = db.insert(auditLog).values(p.audit);
  return sql`
    with placed as (${placed.getSQL()}), entry as (${entry.getSQL()}), event as (${event.getSQL()}),
      sold as (${sold.getSQL()}), used as (${used.getSQL()}), audit as (${audit.getSQL()})
    select row_to_json(placed) as order, row_to_json(entry) as entry from placed, entry`;
});

/**
 * Runs `fn` in `db`'s transaction when it already is one (no savepoint: the
 * caller owns rollback, e.g. the idempotency step), else in a new transaction.
 * Drizzle's `is`, not `instanceof`: a production build gives each route bundle its
 * own copy of drizzle-orm's classes, so there the transaction was never recognised
 * and every order paid a savepoint and its release (two round trips).
 */
function inTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return is(db, PgTransaction) ? fn(db) : db.transaction(fn);
}

function checkQuoteRow(quote: QuoteClaims, state: { quote_found: boolean; quote_order_id: string | null }): void {
  if (!state.quote_found) {
    throw new AppError("validation_error", "quote_id is not a quote of this partner for this domain", [
      { path: "quote_id", message: "unknown quote" },
    ]);
  }
  if (state.quote_order_id) {
    throw new AppError("conflict", `quote ${quote.quoteId} was already used by order ${state.quote_order_id}`);
  }
}

// --- reads ---------------------------------------------------------------------------

export interface OrderOwner {
  partnerId: string;
  environment: Environment;
}

const ownedBy = (owner: OrderOwner) => and(eq(orders.partnerId, owner.partnerId), eq(orders.environment, owner.environment));

/** The order with its timeline; another partner's or environment's order is not_found. */
export async function getOrderOrThrow(db: Db, input: OrderOwner & { orderId: string }): Promise<OrderWithTimeline> {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, input.orderId), ownedBy(input)));
  if (!order) throw new AppError("not_found", `order ${input.orderId} not found`);
  return { order, timeline: await timelineOf(db, order.id) };
}

/** Staff lookup (CLI, admin console): any partner, any environment. */
export async function getOrderByIdOrThrow(db: Db, orderId: string): Promise<OrderWithTimeline> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw new AppError("not_found", `order ${orderId} not found`);
  return { order, timeline: await timelineOf(db, order.id) };
}

export async function timelineOf(db: Db, orderId: string): Promise<TimelineRow[]> {
  return db.select().from(orderTimeline).where(eq(orderTimeline.orderId, orderId)).orderBy(asc(orderTimeline.id));
}

export type OrderChannel = OrderRow["channel"];

/** The filters of GET /orders, the dashboard's list and its CSV export (one query for all three). */
export interface OrderFilters {
  statuses?: OrderStatus[];
  channels?: OrderChannel[];
  /** Exactly this domain (normalised). */
  domain?: string;
  /** Part of the domain name, case-insensitive. */
  search?: string;
  from?: Date;
  to?: Date;
}

export interface ListOrdersInput extends OrderOwner, OrderFilters {
  limit: number;
  cursor?: string;
}

const ORDER_ID = /^ord_[0-9A-Za-z]{22}$/;

export function encodeOrderCursor(orderId: string): string {
  return Buffer.from(orderId).toString("base64url");
}

const badCursor = () =>
  new AppError("validation_error", "cursor is not a next_cursor of this listing", [{ path: "cursor", message: "invalid cursor" }]);

/** `%`, `_` and `\` typed in a search match themselves, not any text. */
const likeEscape = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Everything but the page position; the same WHERE for every caller. */
function orderFilters(input: OrderOwner & OrderFilters): (SQL | undefined)[] {
  return [
    ownedBy(input),
    input.statuses?.length ? inArray(orders.status, input.statuses) : undefined,
    input.channels?.length ? inArray(orders.channel, input.channels) : undefined,
    input.domain ? eq(orders.domain, normalizeDomainName(input.domain)) : undefined,
    // Domains are stored lowercase ASCII; the trigram index serves terms of 3+ characters.
    input.search ? sql`${orders.domain} like ${`%${likeEscape(input.search.toLowerCase())}%`}` : undefined,
    input.from ? gte(orders.createdAt, input.from) : undefined,
    input.to ? lt(orders.createdAt, input.to) : undefined,
  ];
}

/**
 * Newest first, keyset-paged on (created_at, id), which the index
 * (partner_id, environment, created_at, id) serves at any depth. The cursor
 * names the last order of the previous page; its own (created_at, id) is read
 * back, so the position is exact to the microsecond whatever wrote the row.
 */
export async function listOrders(db: Db, input: ListOrdersInput): Promise<OrdersPage> {
  const [row] = await db.execute<OrdersPageRow>(listOrdersSql(db, input));
  return ordersPageFromRow(input, row!);
}

export interface OrdersPage {
  orders: OrderRow[];
  nextCursor: string | null;
}

/** listOrdersSql's one row: whether the cursor named an order of the owner, and up to limit + 1 orders as JSON. */
export interface OrdersPageRow extends Record<string, unknown> {
  position: boolean;
  rows: Record<string, unknown>[];
}

/**
 * listOrders' one statement (GET /orders sends it in the signing gate's round trip,
 * RouteOptions.read). A bad range or cursor is a validation_error, thrown here.
 */
export function listOrdersSql(db: Db, input: ListOrdersInput): SQL {
  if (input.from && input.to && input.to <= input.from) {
    throw new AppError("validation_error", "to must be after from", [{ path: "to", message: "must be after from" }]);
  }
  const filters = orderFilters(input);
  let position = sql`true`;
  if (input.cursor) {
    const id = Buffer.from(input.cursor, "base64url").toString("utf8");
    if (!ORDER_ID.test(id)) throw badCursor();
    position = sql`exists (select 1 from orders o where o.id = ${id} and o.partner_id = ${input.partnerId} and o.environment = ${input.environment})`;
    // The row's own timestamp, compared in the database: a JS Date would drop its microseconds.
    filters.push(sql`(${orders.createdAt}, ${orders.id}) < ((select o.created_at from orders o where o.id = ${id}), ${id})`);
  }
  const page = db
    .select()
    .from(orders)
    .where(and(...filters))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(input.limit + 1);
  return sql`
    select ${position} as position,
      coalesce((select json_agg(p order by p.created_at desc, p.id desc) from (${page.getSQL()}) p), '[]'::json) as rows`;
}

/** listOrders from listOrdersSql's row, already read. */
export function ordersPageFromRow(input: ListOrdersInput, row: OrdersPageRow): OrdersPage {
  if (!row.position) throw badCursor();
  const rows = row.rows.map((json) => rowFromJson(orders, json));
  const { page, nextCursor } = pageOf(rows, input.limit, (last) => encodeOrderCursor(last.id));
  return { orders: page, nextCursor };
}

// --- serialization ----------------------------------------------------------------------

/** The order as partners see it (GET /orders items): fields in the contract's order. */
export function serializeOrder(order: OrderRow) {
  return {
    ...serializeOrderSummary(order),
    channel: order.channel,
    commission_bps: order.commissionBps,
    commission_cents: order.commissionCents,
    buyer: { email: order.buyerEmail, name: order.buyerName, country: order.buyerCountry },
    return_url: order.returnUrl,
    cancel_url: order.cancelUrl,
    quote_id: order.quoteId,
    external_payment_ref: order.externalPaymentRef,
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
  };
}

/** POST /orders, GET /orders/{public_id}, refunds and the CLI: the order plus its timeline. */
export function serializeOrderWithTimeline({ order, timeline }: OrderWithTimeline) {
  return {
    ...serializeOrder(order),
    timeline: timeline.map((entry) => ({ status: entry.status, at: entry.at.toISOString(), note: entry.note })),
  };
}
