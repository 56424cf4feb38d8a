import { forgettingCredentials } from "@/server/auth/credential-cache";
import { and, eq, inArray, sql } from "drizzle-orm";
import type { Db, Transaction } from "@/db/client";
import {
  commissionLedger,
  domains,
  orders,
  partners,
  payouts,
  referralClicks,
  referralLinks,
  referralSales,
  type Environment,
} from "@/db/schema";
import { linkProducts, type LinkProduct } from "@/server/contracts/referrals";
import { getEnv } from "@/server/env";
import { AppError, isUniqueViolation } from "@/server/errors";
import { clock } from "@/server/clock";
import { deriveKey, hmacSha256Hex, safeEqual } from "@/server/crypto";
import { newId, randomBase62 } from "@/server/ids";
import type { OrderRow } from "./order-states";
import { commissionCents } from "./orders";
import type { Actor } from "./partners";
import { nextPeriodStart, SETTLEMENT_LOCK, SETTLEMENT_STATEMENT_TIMEOUT_MS } from "./settlements";
import { recordAudit } from "./audit";
import { newPayoutState } from "./payouts";

// Referral attribution (SPEC "Referral", DECISIONS "Links"): GET /r/{code} sets
// a signed cookie naming the link and the visitor; a storefront purchase by a
// buyer carrying it becomes a referral sale with an `accrued` commission row in
// the same transaction as the order. The ledger row then follows the order:
// pending on transfer completion, reversed on refund or cancel (order-states.ts),
// paid_out by the settlement run (settlements.ts, payout kind `referral`).

/** Name of the attribution cookie set by GET /r/{code}. */
export const ATTRIBUTION_COOKIE = "pdm_ref";
export const ATTRIBUTION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

const LINK_ID = /^lnk_[0-9A-Za-z]{22}$/;
const VISITOR_ID = /^[0-9A-Za-z]{22}$/;

function cookieMac(linkId: string, visitorId: string): string {
  return hmacSha256Hex(deriveKey("referral-attribution"), `${linkId}.${visitorId}`);
}

/** A fresh random visitor id (22 base62 characters, about 131 bits). */
export function newVisitorId(): string {
  return randomBase62(22);
}

/** The cookie value `linkId.visitorId.hmac`; the HMAC binds both ids to this server's SECRET_KEY. */
export function signAttribution(linkId: string, visitorId: string): string {
  return `${linkId}.${visitorId}.${cookieMac(linkId, visitorId)}`;
}

/**
 * Verifies a `pdm_ref` cookie value. Anything malformed or whose HMAC does not
 * match (a tampered link or visitor id) is no attribution at all: null.
 */
export function readAttribution(cookieValue: string | undefined): { linkId: string; visitorId: string } | null {
  if (!cookieValue || cookieValue.length > 200) return null;
  const [linkId, visitorId, mac, extra] = cookieValue.split(".");
  if (!linkId || !visitorId || !mac || extra !== undefined) return null;
  if (!LINK_ID.test(linkId) || !VISITOR_ID.test(visitorId)) return null;
  return safeEqual(cookieMac(linkId, visitorId), mac) ? { linkId, visitorId } : null;
}

/**
 * Records the referral sale of a storefront order and its `accrued` commission
 * (source `referral`) for the link's partner at the partner's referral rate, in
 * the caller's transaction. Quietly does nothing when the link no longer exists,
 * belongs to the other environment, or belongs to the partner that sold the
 * order itself (no commission on one's own sale); at most one per order.
 */
export async function recordReferralSale(
  tx: Transaction,
  input: { order: OrderRow; linkId: string; visitorId: string },
): Promise<void> {
  const { order } = input;
  const [link] = await tx
    .select({ id: referralLinks.id, partnerId: referralLinks.partnerId, environment: referralLinks.environment, bps: partners.referralCommissionBps })
    .from(referralLinks)
    .innerJoin(partners, eq(partners.id, referralLinks.partnerId))
    .where(eq(referralLinks.id, input.linkId));
  if (!link || link.environment !== order.environment || link.partnerId === order.partnerId) return;
  const now = clock.now();
  const commission = commissionCents(order.salePriceCents, link.bps);
  const saleId = newId("referralSale", now.getTime());
  const inserted = await tx
    .insert(referralSales)
    .values({
      id: saleId,
      linkId: link.id,
      partnerId: link.partnerId,
      environment: link.environment,
      orderId: order.id,
      buyerEmail: order.buyerEmail,
      domain: order.domain,
      amountCents: order.salePriceCents,
      commissionCents: commission,
      currency: order.currency,
      createdAt: now,
    })
    .onConflictDoNothing({ target: referralSales.orderId })
    .returning({ id: referralSales.id });
  if (inserted.length === 0) return;
  await tx.insert(commissionLedger).values({
    id: newId("commission", now.getTime()),
    partnerId: link.partnerId,
    environment: link.environment,
    source: "referral",
    sourceId: saleId,
    orderId: order.id,
    state: "accrued",
    amountCents: commission,
    currency: order.currency,
    createdAt: now,
    updatedAt: now,
  });
  if (order.referralLinkId !== link.id) await tx.update(orders).set({ referralLinkId: link.id }).where(eq(orders.id, order.id));
}

export interface ReferralPayout {
  payoutId: string | null;
  partnerId: string;
  environment: Environment;
  currency: string;
  periodStart: string;
  amountCents: number;
  commissionIds: string[];
}

/**
 * The settlement run's referral step: every `pending` referral commission whose
 * order is SETTLED is paid out, one payout (kind `referral`) per partner,
 * environment, currency and settlement period of the order, and its rows become
 * `paid_out` with the payout id. Runs under the settlement lock and moves rows
 * only from `pending`, so concurrent or repeated runs pay each row once.
 */
export async function payOutReferralCommissions(db: Db, actor: Actor, only?: { partnerId: string; environment: Environment }): Promise<ReferralPayout[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${SETTLEMENT_LOCK})`);
    await tx.execute(sql.raw(`set local statement_timeout = ${SETTLEMENT_STATEMENT_TIMEOUT_MS}`));
    const groups = await tx.execute<{
      partner_id: string;
      environment: Environment;
      currency: string;
      period_start: string;
      ids: string[];
      total: string;
    }>(sql`
      select l.partner_id, l.environment, l.currency,
        to_char(date_trunc('month', o.transfer_completed_at at time zone 'UTC'), 'YYYY-MM-DD') as period_start,
        array_agg(l.id order by l.id) as ids, sum(l.amount_cents)::text as total
      from ${commissionLedger} l join ${orders} o on o.id = l.order_id
      where l.source = 'referral' and l.state = 'pending' and o.status = 'SETTLED' and l.held_at is null
        ${only ? sql`and l.partner_id = ${only.partnerId} and l.environment = ${only.environment}` : sql``}
      group by 1, 2, 3, 4
      order by 4, 1, 2, 3`);
    const now = clock.now();
    const result: ReferralPayout[] = [];
    for (const group of groups) {
      const amount = Number(group.total);
      const payoutId = amount > 0 ? newId("payout", now.getTime()) : null;
      if (payoutId) {
        await tx.insert(payouts).values({
          id: payoutId,
          partnerId: group.partner_id,
          environment: group.environment,
          kind: "referral",
          amountCents: amount,
          currency: group.currency,
          periodStart: group.period_start,
          periodEnd: nextPeriodStart(group.period_start),
          ...newPayoutState(group.environment, now),
          createdAt: now,
        });
      }
      await tx
        .update(commissionLedger)
        .set({ state: "paid_out", payoutId, updatedAt: now })
        .where(and(inArray(commissionLedger.id, group.ids), eq(commissionLedger.state, "pending")));
      await recordAudit(tx, actor, {
        action: "referral.payout",
        targetType: "payout",
        targetId: payoutId ?? group.ids[0] ?? "",
        partnerId: group.partner_id,
        environment: group.environment,
        data: { amount_cents: amount, currency: group.currency, period_start: group.period_start, commission_ids: group.ids },
      }, now);
      result.push({
        payoutId,
        partnerId: group.partner_id,
        environment: group.environment,
        currency: group.currency,
        periodStart: group.period_start,
        amountCents: amount,
        commissionIds: group.ids,
      });
    }
    return result;
  });
}

// --- Links ---------------------------------------------------------------------------

export type LinkRow = typeof referralLinks.$inferSelect;

/** DECISIONS "Credentials": referral needs the partner's affiliate account, whatever the scopes. */
export function requireAffiliate(auth: { isAffiliate: boolean }): void {
  if (!auth.isAffiliate) {
    throw new AppError(
      "forbidden",
      "referral endpoints need an affiliate account; this partner has none (ask the service to enable the affiliate program for it)",
    );
  }
}

/** The partner's affiliate account, for the dashboard (REST reads it from the credential). */
export async function getAffiliateStatus(db: Db, partnerId: string): Promise<{ isAffiliate: boolean; referralCommissionBps: number }> {
  const [row] = await db
    .select({ isAffiliate: partners.isAffiliate, referralCommissionBps: partners.referralCommissionBps })
    .from(partners)
    .where(eq(partners.id, partnerId));
  if (!row) throw new AppError("not_found", `partner ${partnerId} not found`);
  return row;
}

/** Staff switch for the affiliate program (admin console, CLI, tests); audited. */
export async function setAffiliate(db: Db, input: { partnerId: string; isAffiliate: boolean }, actor: Actor) {
  return forgettingCredentials({ partnerId: input.partnerId }, db.transaction(async (tx) => {
    const now = clock.now();
    const [row] = await tx
      .update(partners)
      .set({ isAffiliate: input.isAffiliate, updatedAt: now })
      .where(eq(partners.id, input.partnerId))
      .returning({ id: partners.id, isAffiliate: partners.isAffiliate });
    if (!row) throw new AppError("not_found", `partner ${input.partnerId} not found`);
    await recordAudit(tx, actor, {
      action: input.isAffiliate ? "partner.affiliate_enabled" : "partner.affiliate_disabled",
      targetType: "partner",
      targetId: row.id,
      partnerId: row.id,
    }, now);
    return { partnerId: row.id, isAffiliate: row.isAffiliate };
  }));
}

export interface CreateLinkInput {
  partnerId: string;
  environment: Environment;
  type: LinkRow["type"];
  domain?: string;
  product?: LinkProduct;
  label?: string;
}

export async function createLink(db: Db, input: CreateLinkInput): Promise<LinkRow> {
  let target: string = linkProducts.marketplace;
  if (input.type === "domain") {
    const name = input.domain ?? "";
    const [listed] = await db
      .select({ name: domains.name })
      .from(domains)
      .where(and(eq(domains.environment, input.environment), eq(domains.name, name), eq(domains.status, "listed")));
    if (!listed) {
      throw new AppError("validation_error", `${name} is not listed for sale in ${input.environment}`, [
        { path: "domain", message: "must be a domain listed in this environment" },
      ]);
    }
    target = `/domains/${encodeURIComponent(listed.name)}`;
  } else if (input.type === "product") {
    target = linkProducts[input.product ?? "marketplace"];
  }
  const now = clock.now();
  // 62^10 codes: a collision is astronomically unlikely, but retry rather than fail on one.
  for (let attempt = 0; ; attempt++) {
    try {
      const [row] = await db
        .insert(referralLinks)
        .values({
          id: newId("link", now.getTime()),
          partnerId: input.partnerId,
          environment: input.environment,
          code: randomBase62(10),
          type: input.type,
          target,
          domain: input.type === "domain" ? (input.domain ?? null) : null,
          product: input.type === "product" ? (input.product ?? null) : null,
          label: input.label ?? null,
          createdAt: now,
        })
        .returning();
      if (!row) throw new Error("link insert returned no row");
      return row;
    } catch (error) {
      if (attempt < 3 && isUniqueViolation(error)) continue;
      throw error;
    }
  }
}

export function linkUrl(code: string): string {
  return `${getEnv().APP_URL}/r/${code}`;
}

export function serializeLink(row: LinkRow) {
  return {
    id: row.id,
    url: linkUrl(row.code),
    type: row.type,
    target: row.target,
    domain: row.domain,
    product: row.product,
    label: row.label,
    created_at: row.createdAt.toISOString(),
  };
}

// --- GET /r/{code} -------------------------------------------------------------------

// Automated clients that announce themselves. Headless Chrome is deliberately not
// here: it runs scripts and keeps cookies like a person's browser (and is how the
// browser tests click links).
const BOT_UA = /bot\b|bot\/|crawl|spider|slurp|curl\/|wget\/|python-requests|python-urllib|go-http-client|libwww|okhttp|scrapy|httpclient|facebookexternalhit|preview|monitor/i;

export function isBotUserAgent(userAgent: string | null | undefined): boolean {
  return !userAgent || !userAgent.trim() || BOT_UA.test(userAgent);
}

/** Keyed hash of a visitor id: the raw id (the cookie's secret part) is never stored. */
export function hashVisitor(visitorId: string): string {
  return hmacSha256Hex(deriveKey("referral-visitor"), visitorId);
}

export interface FollowedLink {
  link: { id: string; target: string };
  /** The `pdm_ref` cookie value to set. */
  cookie: string;
  counted: boolean;
  isBot: boolean;
}

/**
 * Counts a click on `code` and returns the redirect target and the attribution
 * cookie, or null for an unknown code. Two queries: the link lookup and an
 * insert that the (link, visitor, day) unique index turns into a no-op for the
 * same visitor's repeat clicks that UTC day.
 */
export async function followLink(
  db: Db,
  input: { code: string; cookie: string | undefined; userAgent: string | null; /** false: redirect without counting (flood). */ record?: boolean },
): Promise<FollowedLink | null> {
  if (!/^[0-9A-Za-z]{10}$/.test(input.code)) return null;
  const [link] = await db
    .select({ id: referralLinks.id, target: referralLinks.target })
    .from(referralLinks)
    .where(eq(referralLinks.code, input.code));
  if (!link) return null;
  const visitorId = readAttribution(input.cookie)?.visitorId ?? newVisitorId();
  const isBot = isBotUserAgent(input.userAgent);
  const now = clock.now();
  if (input.record === false) return { link, cookie: signAttribution(link.id, visitorId), counted: false, isBot };
  const inserted = await db
    .insert(referralClicks)
    .values({
      linkId: link.id,
      visitorHash: hashVisitor(visitorId),
      day: now.toISOString().slice(0, 10),
      isBot,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: referralClicks.id });
  return { link, cookie: signAttribution(link.id, visitorId), counted: inserted.length > 0 && !isBot, isBot };
}
