import { eq, sql } from "drizzle-orm";
import type { Db, Transaction } from "@/db/client";
import { checkoutSessions, commissionLedger, domains, orders, orderTimeline, partners, payments, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { CHECKOUT_SESSION_TTL_DAYS } from "@/server/contracts/checkout";
import { RISK_THRESHOLD_CENTS } from "@/server/contracts/orders";
import { sha256Hex } from "@/server/crypto";
import { getEnv } from "@/server/env";
import { AppError, isUniqueViolation } from "@/server/errors";
import { newId } from "@/server/ids";
import { encodeSignedToken, offerClaims, openSignedToken, readOfferClaims, type OfferClaims } from "@/server/signed-token";
import { cardDigits, checkCard, type CardProblem } from "@/server/payments/card";
import { getPaymentProvider, type CardInput } from "@/server/payments/provider";
import { getDomainDetails } from "./discovery";
import { recordEvent } from "./events";
import { normalizeDomainName } from "./inventory";
import { serializeOrderSummary, type OrderRow, type OrderStatus } from "./order-states";
import { commissionCents } from "./orders";
import { lockListing } from "./quotes";
import { recordReferralSale } from "./referrals";
import { recordAudit } from "./audit";

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
}

export interface CreatedCheckoutSession {
  row: CheckoutSessionRow;
  token: string;
}

/** 404 when unlisted, 409 when sold or held for someone else; the session itself holds nothing. */
export async function createCheckoutSession(db: Db, input: CreateCheckoutSessionInput): Promise<CreatedCheckoutSession> {
  const name = normalizeDomainName(input.domain);
  const listing = await getDomainDetails(db, { environment: input.environment, partnerId: input.partnerId ?? "", domain: name });
  if (listing.status === "sold") throw new AppError("conflict", `${name} is already sold`);
  if (!listing.available) throw new AppError("conflict", `${name} is reserved by another order or another partner's quote`);
  const [domainRow] = await db.select({ id: domains.id }).from(domains).where(sql`${domains.environment} = ${input.environment} and ${domains.name} = ${name}`);
  if (!domainRow) throw new AppError("not_found", `${name} is not listed`);
  const now = clock.now();
  const [row] = await db
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
  if (!row) throw new Error("checkout session insert returned no row");
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
  if (!listing || listing.held) return { kind: "unavailable", domain: session.domain, cancelUrl: session.cancelUrl };
  return { kind: "open", session, partnerName: found.partnerName, buyerEmail: claims.buyerEmail };
}

function matches(session: CheckoutSessionRow, claims: CheckoutClaims): boolean {
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
function stateOf(session: CheckoutSessionRow): Extract<CheckoutView, { kind: "paid" | "expired" }> | null {
  if (session.status === "completed" && session.orderId) {
    return { kind: "paid", orderId: session.orderId, domain: session.domain, returnUrl: session.returnUrl };
  }
  if (clock.nowMs() >= session.expiresAt.getTime()) return { kind: "expired", domain: session.domain, cancelUrl: session.cancelUrl };
  return null;
}

/** Not listed any more, or held by an order or another partner's quote (the availability rule of discovery.ts). */
function heldSql(session: CheckoutSessionRow) {
  const now = clock.now().toISOString();
  return sql`(${domains.status} <> 'listed' or exists (
      select 1 from orders o where o.domain_id = ${session.domainId} and o.status not in ('REFUNDED', 'CANCELLED')
    ) or exists (
      select 1 from quotes q where q.domain_id = ${session.domainId} and q.environment = ${session.environment}
        and q.expires_at > ${now}::timestamptz and q.order_id is null and q.partner_id <> ${session.partnerId ?? ""}
    ))`;
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
  | { kind: "succeeded"; order: OrderRow; returnUrl: string | null };

/**
 * Charges the session's price and records the sale. Card problems are caught
 * before the processor sees the card; a decline records a declined payment
 * row and leaves the session open for another try.
 */
export async function payCheckoutSession(db: Db, input: PayCheckoutInput): Promise<PayOutcome> {
  const claims = verifyCheckoutToken(input.token);
  if (!claims) return { kind: "invalid" };
  const problems = checkCard(input.card, clock.now());
  if (problems.length > 0) return { kind: "card_invalid", problems };

  return db
    .transaction(async (tx) => {
      const [session] = await tx.select().from(checkoutSessions).where(eq(checkoutSessions.id, claims.sessionId)).for("update");
      if (!session || !matches(session, claims)) return { kind: "invalid" } as const;
      const state = stateOf(session);
      if (state) return state;
      const listing = await lockListing(tx, { environment: session.environment, name: session.domain });
      const [hold] = await tx.select({ held: sql<boolean>`${heldSql(session)}` }).from(domains).where(eq(domains.id, listing.id));
      if (listing.id !== session.domainId || !hold || hold.held) {
        return { kind: "unavailable", domain: session.domain, cancelUrl: session.cancelUrl } as const;
      }

      const provider = getPaymentProvider(session.environment);
      const attempt = sha256Hex([cardDigits(input.card.number), input.card.expMonth, input.card.expYear, input.card.cvc].join("|")).slice(0, 16);
      const charge = await provider.charge({
        amountCents: session.salePriceCents,
        currency: session.currency,
        card: input.card,
        idempotencyKey: `${session.id}:${attempt}`,
        description: `Domain ${session.domain}`,
      });
      const now = clock.now();
      const payment = {
        checkoutSessionId: session.id,
        environment: session.environment,
        provider: provider.name,
        providerRef: charge.providerRef,
        amountCents: session.salePriceCents,
        currency: session.currency,
        data: { last4: charge.last4 },
        createdAt: now,
        updatedAt: now,
      };
      if (charge.status === "declined") {
        await tx
          .insert(payments)
          .values({ ...payment, id: newId("payment", now.getTime()), idempotencyKey: `${session.id}:${charge.providerRef}`, status: "declined", failureCode: charge.failureCode ?? "card_declined" })
          .onConflictDoNothing();
        return { kind: "declined", code: charge.failureCode ?? "card_declined", message: charge.message ?? "Your card was declined." } as const;
      }

      const order = await recordPaidOrder(tx, session, input.buyer, now);
      await tx.insert(payments).values({ ...payment, id: newId("payment", now.getTime()), orderId: order.id, idempotencyKey: session.id, status: "succeeded" });
      return { kind: "succeeded", order, returnUrl: session.returnUrl } as const;
    })
    .catch((error: unknown) => {
      // Only another writer path (not this session's lock) can race us to the listing.
      if (isUniqueViolation(error)) return { kind: "unavailable", domain: claims.domain, cancelUrl: null } as const;
      throw error;
    });
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
