import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Database, Db, Transaction } from "@/db/client";
import { checkoutSessions, commissionLedger, domains, orders, orderTimeline, partners, payments, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { CHECKOUT_SESSION_TTL_DAYS } from "@/server/contracts/checkout";
import { RISK_THRESHOLD_CENTS } from "@/server/contracts/orders";
import { getEnv } from "@/server/env";
import { AppError, isUniqueViolation } from "@/server/errors";
import { newId } from "@/server/ids";
import { encodeSignedToken, offerClaims, openSignedToken, readOfferClaims, type OfferClaims } from "@/server/signed-token";
import { checkCard, type CardProblem } from "@/server/payments/card";
import { getPaymentProvider, getProviderByName, livePaymentsEnabled, livePaymentsOff, type CardInput, type ChargeResult, type DirectProvider } from "@/server/payments/provider";
import { sandboxProvider } from "@/server/payments/sandbox";
import { getDomainDetails, heldForOthersSql } from "./discovery";
import { recordEvent } from "./events";
import { normalizeDomainName } from "./inventory";
import { serializeOrderSummary, type OrderRow, type OrderStatus } from "./order-states";
import { commissionCents } from "./orders";
import { lockListing } from "./quotes";
import { recordReferralSale } from "./referrals";
import { recordAudit } from "./audit";
import type { Actor } from "./partners";

// Hosted checkout: sessions created by partners (POST /checkout-session) or by
// the storefront's buy-now, the signed `pt` token naming one, and paying it.
//
// Invariants:
// - A session is paid at most once. Paying locks the session row, so a second
//   submission waits for the first and then sees the session completed. The
//   charge runs while that lock is held (sandbox answers at once; a live
//   processor's latency would hold only this session's row), and its
//   idempotency key is derived from the session and the card, so a retry
//   after a failure between charge and commit replays the processor's answer.
// - The succeeded payment row has idempotency_key = the session id (unique):
//   a second succeeded payment for one session cannot be written.
// - Order, timeline, payment, `order.paid` event, commission accrual, domain
//   sold, session completed and audit row commit together, or not at all.

export const CHECKOUT_SESSION_TTL_MS = CHECKOUT_SESSION_TTL_DAYS * 24 * 60 * 60_000;

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;

// --- the pt token ------------------------------------------------------------------

/** What a `pt` token binds. `partnerId` null: a storefront session. */
export interface CheckoutClaims extends OfferClaims {
  sessionId: string;
  /** Prefill of the buyer's email (POST /checkout-session `buyer_email`). */
  buyerEmail: string | null;
}

const SESSION_ID = /^cs_[0-9A-Za-z]{22}$/;

/** `cs_<id>.<claims>.<signature>` (server/signed-token.ts), keyed for checkout. */
export function encodeCheckoutToken(claims: CheckoutClaims): string {
  return encodeSignedToken("checkout", claims.sessionId, {
    ...offerClaims(claims),
    ...(claims.buyerEmail ? { b: claims.buyerEmail } : {}),
  });
}

/** The claims of an authentic token (expired or not), or null for anything altered or foreign. */
export function verifyCheckoutToken(token: string | undefined | null): CheckoutClaims | null {
  if (!token) return null;
  const opened = openSignedToken("checkout", token, SESSION_ID);
  if (!opened.ok) return null;
  const offer = readOfferClaims(opened.claims);
  const email = opened.claims.b;
  if (!offer || (email !== undefined && typeof email !== "string")) return null;
  return { sessionId: opened.id, ...offer, buyerEmail: email ?? null };
}

/**
 * The HTTP status a checkout link deserves before the database is asked:
 * 400 missing or malformed, 404 altered (not ours), 410 expired, 200 otherwise
 * (the page then answers 404 for a well-signed token naming no session).
 */
export function checkoutTokenStatus(token: string | undefined | null): 200 | 400 | 404 | 410 {
  if (!token) return 400;
  const opened = openSignedToken("checkout", token, SESSION_ID);
  if (!opened.ok) return opened.reason === "altered" ? 404 : 400;
  const claims = verifyCheckoutToken(token);
  if (!claims) return 400;
  return clock.nowMs() >= claims.expiresAt.getTime() ? 410 : 200;
}

export function checkoutUrl(token: string): string {
  return `${getEnv().APP_URL}/checkout?pt=${encodeURIComponent(token)}`;
}

// --- creating a session ------------------------------------------------------------------

export interface CreateCheckoutSessionInput {
  /** Null for a storefront (marketplace) session. */
  partnerId: string | null;
  environment: Environment;
  domain: string;
  returnUrl?: string;
  cancelUrl?: string;
  buyerEmail?: string;
  /** A verified referral attribution (storefront sessions). */
  referral?: { linkId: string; visitorId: string } | null;
  /** A person in the dashboard: the session and its audit row commit together. */
  actor?: Actor;
}

export interface CreatedCheckoutSession {
  row: CheckoutSessionRow;
  token: string;
}

/** 404 when unlisted, 409 when sold or held for someone else; the session itself holds nothing. */
export async function createCheckoutSession(db: Db, input: CreateCheckoutSessionInput): Promise<CreatedCheckoutSession> {
  // A live link nobody could pay would be a broken promise to the buyer: refuse it before anything is written.
  if (input.environment === "live" && !livePaymentsEnabled()) throw livePaymentsOff();
  const name = normalizeDomainName(input.domain);
  const listing = await getDomainDetails(db, { environment: input.environment, partnerId: input.partnerId ?? "", domain: name });
  if (listing.status === "sold") throw new AppError("conflict", `${name} is already sold`);
  if (!listing.available) throw new AppError("conflict", `${name} is reserved by another order or another partner's quote`);
  const [domainRow] = await db.select({ id: domains.id }).from(domains).where(sql`${domains.environment} = ${input.environment} and ${domains.name} = ${name}`);
  if (!domainRow) throw new AppError("not_found", `${name} is not listed`);
  const now = clock.now();
  const write = async (tx: Db) => {
    const [inserted] = await tx
      .insert(checkoutSessions)
      .values({
        id: newId("checkoutSession", now.getTime()),
        partnerId: input.partnerId,
        referralLinkId: input.referral?.linkId ?? null,
        visitorId: input.referral?.visitorId ?? null,
        environment: input.environment,
        domainId: domainRow.id,
        domain: name,
        salePriceCents: listing.priceCents,
        currency: listing.currency,
        returnUrl: input.returnUrl ?? null,
        cancelUrl: input.cancelUrl ?? null,
        status: "open",
        expiresAt: new Date(now.getTime() + CHECKOUT_SESSION_TTL_MS),
        createdAt: now,
      })
      .returning();
    if (!inserted) throw new Error("checkout session insert returned no row");
    if (input.actor) {
      await recordAudit(tx, input.actor, {
        action: "checkout_session.created",
        targetType: "checkout_session",
        targetId: inserted.id,
        partnerId: inserted.partnerId,
        environment: inserted.environment,
        data: { domain: inserted.domain, sale_price_cents: inserted.salePriceCents, currency: inserted.currency },
      }, now);
    }
    return inserted;
  };
  const row = input.actor ? await db.transaction(write) : await write(db);
  return { row, token: tokenFor(row, input.buyerEmail ?? null) };
}

function tokenFor(row: CheckoutSessionRow, buyerEmail: string | null): string {
  return encodeCheckoutToken({
    sessionId: row.id,
    partnerId: row.partnerId,
    environment: row.environment,
    domain: row.domain,
    priceCents: row.salePriceCents,
    currency: row.currency,
    expiresAt: row.expiresAt,
    buyerEmail,
  });
}

export function serializeCheckoutSession(created: CreatedCheckoutSession) {
  return {
    checkout_session_id: created.row.id,
    checkout_url: checkoutUrl(created.token),
    domain: created.row.domain,
    sale_price_cents: created.row.salePriceCents,
    currency: created.row.currency,
    expires_at: created.row.expiresAt.toISOString(),
  };
}

// --- what the hosted page shows -----------------------------------------------------------

export type CheckoutView =
  | { kind: "invalid" }
  | { kind: "expired"; domain: string; cancelUrl: string | null }
  | { kind: "paid"; orderId: string; domain: string; returnUrl: string | null }
  | { kind: "unavailable"; domain: string; cancelUrl: string | null }
  /** This buyer paid, but someone else bought the domain first: the payment was given back. */
  | { kind: "refunded"; domain: string; cancelUrl: string | null }
  | {
      kind: "open";
      session: CheckoutSessionRow;
      /** "Sold through <partner>"; null on the storefront. */
      partnerName: string | null;
      buyerEmail: string | null;
    };

/** Reads the session a token names; never charges, never writes. */
export async function getCheckoutView(db: Db, token: string | undefined | null): Promise<CheckoutView> {
  const claims = verifyCheckoutToken(token);
  if (!claims) return { kind: "invalid" };
  const [found] = await db
    .select({ session: checkoutSessions, partnerName: partners.name })
    .from(checkoutSessions)
    .leftJoin(partners, eq(partners.id, checkoutSessions.partnerId))
    .where(eq(checkoutSessions.id, claims.sessionId));
  if (!found || !matches(found.session, claims)) return { kind: "invalid" };
  const { session } = found;
  const view = stateOf(session);
  if (view) return view;
  const [listing] = await db
    .select({ held: sql<boolean>`${heldSql(session)}` })
    .from(domains)
    .where(eq(domains.id, session.domainId));
  if (!listing || listing.held) {
    const [given] = await db
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.checkoutSessionId, session.id), inArray(payments.status, ["refunding", "refunded"]), isNull(payments.orderId)))
      .limit(1);
    return { kind: given ? "refunded" : "unavailable", domain: session.domain, cancelUrl: session.cancelUrl };
  }
  return { kind: "open", session, partnerName: found.partnerName, buyerEmail: claims.buyerEmail };
}

export function matches(session: CheckoutSessionRow, claims: CheckoutClaims): boolean {
  return (
    session.partnerId === claims.partnerId &&
    session.environment === claims.environment &&
    session.domain === claims.domain &&
    session.salePriceCents === claims.priceCents &&
    session.currency === claims.currency &&
    session.expiresAt.getTime() === claims.expiresAt.getTime()
  );
}

/** Completed and expired sessions answer before anything else is looked at. */
export function stateOf(session: CheckoutSessionRow): Extract<CheckoutView, { kind: "paid" | "expired" }> | null {
  if (session.status === "completed" && session.orderId) {
    return { kind: "paid", orderId: session.orderId, domain: session.domain, returnUrl: session.returnUrl };
  }
  if (clock.nowMs() >= session.expiresAt.getTime()) return { kind: "expired", domain: session.domain, cancelUrl: session.cancelUrl };
  return null;
}

/**
 * Not listed any more, or held by an order or another partner's quote (the
 * availability rule of discovery.ts, the same SQL), or sold through a partner staff have
 * suspended (its links stop taking payments until it is reinstated).
 */
function heldSql(session: CheckoutSessionRow) {
  return sql`(${domains.status} <> 'listed' or exists (
      select 1 from partners p where p.id = ${session.partnerId ?? ""} and p.suspended_at is not null
    ) or ${heldForOthersSql(sql`${session.domainId}`, session.environment, session.partnerId ?? "")})`;
}

// --- paying -----------------------------------------------------------------------------

export interface BuyerInput {
  email: string;
  name: string;
  country: string;
}

export interface PayCheckoutInput {
  token: string;
  buyer: BuyerInput;
  card: CardInput;
}

export type PayOutcome =
  | Exclude<CheckoutView, { kind: "open" }>
  | { kind: "card_invalid"; problems: CardProblem[] }
  | { kind: "declined"; code: string; message: string }
  /** Another payment of this session is with the processor right now (a second tab). */
  | { kind: "processing" }
  | { kind: "succeeded"; order: OrderRow; returnUrl: string | null };

/** An intent older than this with no answer recorded is the reconciler's (its process died). */
export const INTENT_STALE_MS = 60_000;

/** Test hook: runs between the processor's answer and recording it (simulates a crash there). */
export const payHooks: { afterCharge?: (intentId: string) => Promise<void> } = {};

type PaymentRow = typeof payments.$inferSelect;

/**
 * Charges the session's price and records the sale, in three steps so no
 * database transaction (nor row lock) is held while the processor answers:
 *   1. claim: under the session's row lock, check it can still be paid and
 *      commit a `pending` payment intent carrying a fresh idempotency key (one
 *      intent at a time per session: a second tab gets `processing`);
 *   2. charge with that key, outside any transaction;
 *   3. record: under the lock again, the decline, or the order and the paid
 *      session, exactly once (the intent leaves `pending` only here).
 * A process that dies between 2 and 3 leaves the intent `pending`; the
 * reconciler asks the processor what happened under its key and records it.
 * Card problems are caught before the processor sees the card.
 */
export async function payCheckoutSession(db: Database, input: PayCheckoutInput): Promise<PayOutcome> {
  const claims = verifyCheckoutToken(input.token);
  if (!claims) return { kind: "invalid" };
  // Card details posted to a session that pays in the processor's own form (live, or Stripe test mode) are
  // refused before they are even checked; nothing is stored or charged.
  if (!acceptsCardDetails(claims.environment)) {
    return { kind: "declined", code: "card_not_accepted", message: "This checkout takes card details only in the payment processor's secure form. Reload the page." };
  }
  const problems = checkCard(input.card, clock.now());
  if (problems.length > 0) return { kind: "card_invalid", problems };

  const claimed = await claimIntent(db, claims, input.buyer);
  if (claimed.kind !== "claimed") return claimed.outcome;
  const { intent, session } = claimed;
  const provider = directProvider(session.environment);
  const charge = await provider.charge({
    amountCents: intent.amountCents,
    currency: intent.currency,
    card: input.card,
    idempotencyKey: intent.idempotencyKey,
    description: `Domain ${session.domain}`,
  });
  await payHooks.afterCharge?.(intent.id);
  return recordCharge(db, intent.id, charge);
}

function acceptsCardDetails(environment: Environment): boolean {
  try {
    return getPaymentProvider(environment).kind === "direct";
  } catch {
    return false; // live payments off
  }
}

/** Card details reach only a direct provider (the sandbox's simulated one); live pays in Stripe's own fields. */
function directProvider(environment: Environment): DirectProvider {
  const provider = getPaymentProvider(environment);
  if (provider.kind !== "direct") throw new AppError("conflict", "this checkout takes card details in the payment processor's own form only");
  return provider;
}

type Claim =
  | { kind: "claimed"; intent: PaymentRow; session: CheckoutSessionRow }
  | { kind: "refused"; outcome: PayOutcome };

async function claimIntent(db: Database, claims: CheckoutClaims, buyer: BuyerInput): Promise<Claim> {
  return db.transaction(async (tx): Promise<Claim> => {
    const refuse = (outcome: PayOutcome): Claim => ({ kind: "refused", outcome });
    const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, claims.sessionId)).for("update");
    if (!session || !matches(session, claims)) return refuse({ kind: "invalid" });
    const state = stateOf(session);
    if (state) return refuse(state);
    if (await isHeld(tx, session)) return refuse({ kind: "unavailable", domain: session.domain, cancelUrl: session.cancelUrl });
    const [inFlight] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(and(eq(payments.checkoutSessionId, session.id), eq(payments.status, "pending")))
      .limit(1);
    if (inFlight) return refuse({ kind: "processing" });
    const now = clock.now();
    const id = newId("payment", now.getTime());
    const [intent] = await tx
      .insert(payments)
      .values({
        id,
        checkoutSessionId: session.id,
        environment: session.environment,
        provider: directProvider(session.environment).name,
        idempotencyKey: `${session.id}:${id}`,
        amountCents: session.salePriceCents,
        currency: session.currency,
        status: "pending",
        data: { buyer },
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (!intent) throw new Error("payment intent insert returned no row");
    return { kind: "claimed", intent, session };
  });
}

async function isHeld(tx: Transaction, session: CheckoutSessionRow): Promise<boolean> {
  const listing = await lockListing(tx, { environment: session.environment, name: session.domain });
  const [hold] = await tx.select({ held: sql<boolean>`${heldSql(session)}` }).from(domains).where(eq(domains.id, listing.id));
  return listing.id !== session.domainId || !hold || hold.held;
}

/**
 * Step 3, also the reconciler's and the processor webhook's: the processor's
 * answer for an intent, recorded once (the intent row is locked; only a
 * pending or failed intent is recorded). A charge that succeeded for a name
 * sold meanwhile is refunded at once: the intent is `refunding` until the
 * processor confirms, and the reconciler retries a refund that failed.
 */
export async function recordCharge(db: Database, intentId: string, charge: ChargeResult): Promise<PayOutcome> {
  const outcome = await db
    .transaction(async (tx): Promise<PayOutcome | { kind: "refund"; intent: PaymentRow; session: CheckoutSessionRow }> => {
      const [intent] = await tx.select().from(payments).where(eq(payments.id, intentId)).for("update");
      if (!intent?.checkoutSessionId) throw new Error(`payment intent ${intentId} not found`);
      const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, intent.checkoutSessionId)).for("update");
      if (!session) throw new Error(`checkout session ${intent.checkoutSessionId} not found`);
      // `failed` too: the reconciler gave up on it before this (slow) answer came; the answer still counts.
      if (intent.status !== "pending" && intent.status !== "failed") return answered(intent, session);
      const now = clock.now();
      const common = { providerRef: charge.providerRef, data: { ...(intent.data as object), last4: charge.last4 }, updatedAt: now };
      if (charge.status === "declined") {
        const code = charge.failureCode ?? "card_declined";
        await tx.update(payments).set({ ...common, status: "declined", failureCode: code }).where(eq(payments.id, intent.id));
        return { kind: "declined", code, message: charge.message ?? "Your card was declined." };
      }
      if (stateOf(session)?.kind === "paid" || (await isHeld(tx, session))) {
        await tx.update(payments).set({ ...common, status: "refunding" }).where(eq(payments.id, intent.id));
        return { kind: "refund", intent: { ...intent, providerRef: charge.providerRef }, session };
      }
      const buyer = (intent.data as { buyer?: BuyerInput }).buyer ?? { email: "", name: "", country: "" };
      // A savepoint: another writer path taking the listing first (a unique violation) must not lose the money.
      const order = await tx.transaction((inner) => recordPaidOrder(inner, session, buyer, now)).catch((error: unknown) => {
        if (isUniqueViolation(error)) return null;
        throw error;
      });
      if (!order) {
        await tx.update(payments).set({ ...common, status: "refunding" }).where(eq(payments.id, intent.id));
        return { kind: "refund", intent: { ...intent, providerRef: charge.providerRef }, session };
      }
      await tx.update(payments).set({ ...common, status: "succeeded", orderId: order.id }).where(eq(payments.id, intent.id));
      return { kind: "succeeded", order, returnUrl: session.returnUrl };
    });
  if (outcome.kind !== "refund") return outcome;
  // Charged for a name that was sold or reserved between claim and record: give the money back.
  await refundUnsold(db, outcome.intent.id);
  return { kind: "refunded", domain: outcome.session.domain, cancelUrl: outcome.session.cancelUrl };
}

/**
 * Refunds a `refunding` intent (paid for a name someone else bought first)
 * under a key derived from the intent, so a retry never refunds twice.
 */
export async function refundUnsold(db: Database, intentId: string): Promise<void> {
  const [intent] = await db.select().from(payments).where(eq(payments.id, intentId));
  if (!intent?.providerRef || intent.status !== "refunding") return;
  const refund = await getProviderByName(intent.provider).refund({
    providerRef: intent.providerRef,
    amountCents: intent.amountCents,
    idempotencyKey: `${intent.idempotencyKey}:refund`,
  });
  await db
    .update(payments)
    .set({ status: "refunded", data: { ...(intent.data as object), refund_ref: refund.providerRef, refund_reason: "domain_sold" }, updatedAt: clock.now() })
    .where(and(eq(payments.id, intent.id), eq(payments.status, "refunding")));
}

/** What an intent another path already recorded means for this caller. */
async function answered(intent: PaymentRow, session: CheckoutSessionRow): Promise<PayOutcome> {
  if (intent.status === "declined") return { kind: "declined", code: intent.failureCode ?? "card_declined", message: "Your card was declined." };
  if (intent.status === "succeeded" && session.orderId) return stateOf(session) ?? { kind: "invalid" };
  if ((intent.status === "refunding" || intent.status === "refunded") && !intent.orderId) {
    return { kind: "refunded", domain: session.domain, cancelUrl: session.cancelUrl };
  }
  return { kind: "unavailable", domain: session.domain, cancelUrl: session.cancelUrl };
}

/**
 * Finishes direct charges left `pending` past INTENT_STALE_MS (the process
 * died between charging and recording): the processor is asked what it did
 * under the intent's key; no charge means none was made and the intent is
 * marked failed. Also retries refunds left `refunding`, of any processor.
 * Intent-based payments (Stripe) are reconciled by checkout-intents.ts. Run by
 * the worker every minute; one runner at a time.
 */
export async function reconcilePaymentIntents(db: Database, options: { limit?: number } = {}): Promise<{ recorded: number; abandoned: number }> {
  const stale = new Date(clock.nowMs() - INTENT_STALE_MS).toISOString();
  const rows = await db
    .select()
    .from(payments)
    .where(
      and(
        sql`(${payments.status} = 'refunding' or (${payments.status} = 'pending' and ${payments.provider} = ${sandboxProvider.name}))`,
        sql`${payments.updatedAt} < ${stale}::timestamptz`,
      ),
    )
    .orderBy(payments.updatedAt)
    .limit(options.limit ?? 100);
  let recorded = 0;
  let abandoned = 0;
  for (const intent of rows) {
    if (intent.status === "refunding") {
      await refundUnsold(db, intent.id);
      continue;
    }
    const charge = await sandboxProvider.lookup(intent.idempotencyKey);
    if (charge) {
      await recordCharge(db, intent.id, charge);
      recorded++;
    } else {
      const done = await db
        .update(payments)
        .set({ status: "failed", failureCode: "abandoned", updatedAt: clock.now() })
        .where(and(eq(payments.id, intent.id), eq(payments.status, "pending")))
        .returning({ id: payments.id });
      abandoned += done.length;
    }
  }
  return { recorded, abandoned };
}

async function recordPaidOrder(tx: Transaction, session: CheckoutSessionRow, buyer: BuyerInput, now: Date): Promise<OrderRow> {
  let bps = 0;
  if (session.partnerId) {
    const [partner] = await tx.select({ bps: partners.saleCommissionBps }).from(partners).where(eq(partners.id, session.partnerId));
    if (!partner) throw new Error(`partner ${session.partnerId} not found`);
    bps = partner.bps;
  }
  const held = session.salePriceCents > RISK_THRESHOLD_CENTS;
  const status: OrderStatus = held ? "MANUAL_REVIEW" : "PAID";
  const orderId = newId("order", now.getTime());
  const commission = commissionCents(session.salePriceCents, bps);
  const [order] = await tx
    .insert(orders)
    .values({
      id: orderId,
      partnerId: session.partnerId,
      environment: session.environment,
      domainId: session.domainId,
      domain: session.domain,
      status,
      channel: session.partnerId ? "checkout" : "marketplace",
      salePriceCents: session.salePriceCents,
      currency: session.currency,
      commissionBps: bps,
      commissionCents: commission,
      buyerEmail: buyer.email,
      buyerName: buyer.name,
      buyerCountry: buyer.country,
      returnUrl: session.returnUrl,
      cancelUrl: session.cancelUrl,
      checkoutSessionId: session.id,
      referralLinkId: session.referralLinkId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (!order) throw new Error("order insert returned no row");
  const note = held
    ? `paid on hosted checkout; held for manual review: sale price above ${RISK_THRESHOLD_CENTS} minor units`
    : "paid on hosted checkout";
  await tx.insert(orderTimeline).values({ orderId, status, note, actor: "system", at: now });
  await tx.update(domains).set({ status: "sold", updatedAt: now }).where(eq(domains.id, session.domainId));
  await tx.update(checkoutSessions).set({ status: "completed", orderId }).where(eq(checkoutSessions.id, session.id));
  if (session.partnerId) {
    const owner = { partnerId: session.partnerId, environment: session.environment };
    await recordEvent(tx, { ...owner, type: "order.paid", data: { order: serializeOrderSummary(order) } });
    if (commission > 0) {
      await tx.insert(commissionLedger).values({
        id: newId("commission", now.getTime()),
        ...owner,
        source: "sale",
        sourceId: orderId,
        orderId,
        state: "accrued",
        amountCents: commission,
        currency: session.currency,
        createdAt: now,
        updatedAt: now,
      });
    }
  }
  // Referral attribution of storefront purchases (cookie pdm_ref read when the session was created).
  if (session.referralLinkId && session.visitorId) {
    await recordReferralSale(tx, { order, linkId: session.referralLinkId, visitorId: session.visitorId });
  }
  await recordAudit(tx, { type: "system" }, {
    action: "order.paid",
    targetType: "order",
    targetId: orderId,
    partnerId: session.partnerId,
    environment: session.environment,
    data: { status, sale_price_cents: session.salePriceCents, checkout_session_id: session.id },
  }, now);
  return order;
}

/** Where the buyer goes after paying: the partner's return_url with `order_id`, else the confirmation page. */
export function returnUrlWithOrder(returnUrl: string, orderId: string): string {
  const url = new URL(returnUrl);
  url.searchParams.set("order_id", orderId);
  return url.toString();
}
