import { and, eq, inArray, isNull, lt } from "drizzle-orm";
import type { Database, Transaction } from "@/db/client";
import { checkoutSessions, commissionLedger, domains, orders, paymentDisputes, payments, processorEvents, refunds } from "@/db/schema";
import { clock } from "@/server/clock";
import { AppError, isUniqueViolation } from "@/server/errors";
import { newId } from "@/server/ids";
import { logError } from "@/server/log";
import { getPaymentProvider, getProviderByName, intentProviderNames, WebhookSignatureError, type IntentProvider, type ProviderDispute, type ProviderEvent, type ProviderIntent } from "@/server/payments/provider";
import { recordAudit } from "./audit";
import { INTENT_STALE_MS, matches, recordCharge, stateOf, verifyCheckoutToken, type BuyerInput, type CheckoutSessionRow } from "./checkout";
import { lockOrderOrThrow, orderMoves, transitionOrder, type OrderAction, type OrderStatus } from "./order-states";

// Hosted checkout through an intent-based processor (Stripe): card details are
// typed only into the processor's iframes, never our page or server.
//
// Invariants:
// - One processor intent per checkout session: created when the page first
//   renders, under an idempotency key derived from the session, and stored as
//   the session's `payments` row (idempotency_key `<session>:intent`, unique);
//   every later render reads that row and retrieves the same intent.
// - The sale is recorded by recordCharge (checkout.ts) under the payments row
//   lock, exactly once per intent, whichever of the webhook, the return page
//   or the reconciler gets there first and however often each runs.
// - A notification is acted on at most once per event id (processor_events),
//   and each action is itself idempotent (intent row, dispute row), so two
//   concurrent first deliveries still act once.

type PaymentRow = typeof payments.$inferSelect;

export interface IntentPayment {
  publishableKey: string;
  clientSecret: string;
  status: ProviderIntent["status"];
  /** The last attempt's decline message (the buyer may try again). */
  lastError: string | null;
}

const intentKey = (sessionId: string) => `${sessionId}:intent`;

/** The intent-based provider of a session's environment, or null when it pays through the direct (sandbox) one. */
export function intentProviderFor(session: Pick<CheckoutSessionRow, "environment">): IntentProvider | null {
  const provider = getPaymentProvider(session.environment);
  return provider.kind === "intent" ? provider : null;
}

/**
 * The session's intent, created on first call and reused ever after (reloads,
 * a second tab, concurrent renders). A succeeded intent whose sale is not
 * recorded yet (the webhook is late) is recorded here, from the processor's
 * own answer read by the server, never from the page's query parameters.
 */
export async function openIntentPayment(db: Database, session: CheckoutSessionRow, provider: IntentProvider): Promise<IntentPayment> {
  const [existing] = await db.select().from(payments).where(eq(payments.idempotencyKey, intentKey(session.id)));
  let row = existing;
  let intent: ProviderIntent;
  if (row?.providerRef) {
    intent = await provider.retrieveIntent(row.providerRef);
  } else {
    intent = await provider.createIntent({
      amountCents: session.salePriceCents,
      currency: session.currency,
      // The processor replays this for 24 h; after that our row is what makes the intent unique.
      idempotencyKey: `checkout_session:${session.id}`,
      description: `Domain ${session.domain}`,
      metadata: {
        checkout_session_id: session.id,
        partner_id: session.partnerId ?? "",
        domain: session.domain,
        environment: session.environment,
      },
    });
    const now = clock.now();
    await db
      .insert(payments)
      .values({
        id: newId("payment", now.getTime()),
        checkoutSessionId: session.id,
        environment: session.environment,
        provider: provider.name,
        providerRef: intent.ref,
        idempotencyKey: intentKey(session.id),
        amountCents: session.salePriceCents,
        currency: session.currency,
        status: "pending",
        data: {},
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing({ target: payments.idempotencyKey });
    [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, intentKey(session.id)));
    if (!row || row.providerRef !== intent.ref) throw new Error(`checkout session ${session.id} has two processor intents`);
  }
  if (intent.status === "succeeded" && row.status === "pending") await settleIntent(db, intent);
  return { publishableKey: provider.publishableKey, clientSecret: intent.clientSecret, status: intent.status, lastError: intent.lastError };
}

/**
 * A page that is no longer open (sold to someone else, expired) may still
 * have this buyer's payment in flight: Stripe redirects back here after a
 * success the webhook has not brought yet. The session's intent is read on
 * the server and a success recorded (for a sold name: refunded), so the page
 * never tells a buyer who paid that nothing was charged. Null: no intent.
 */
export async function settleReturningIntent(db: Database, token: string | null): Promise<ProviderIntent["status"] | null> {
  const claims = verifyCheckoutToken(token);
  if (!claims) return null;
  const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, intentKey(claims.sessionId)));
  if (!row?.providerRef || row.status !== "pending") return null;
  const provider = getProviderByName(row.provider);
  if (provider.kind !== "intent") return null;
  const intent = await provider.retrieveIntent(row.providerRef);
  if (intent.status === "succeeded") await settleIntent(db, intent);
  return intent.status;
}

/**
 * Who is paying (email, name, country; never card details), saved on the
 * session's intent before the page confirms it with the processor.
 */
export async function saveIntentBuyer(db: Database, token: string, buyer: BuyerInput): Promise<"saved" | "closed"> {
  const claims = verifyCheckoutToken(token);
  if (!claims) return "closed";
  const [session] = await db.select().from(checkoutSessions).where(eq(checkoutSessions.id, claims.sessionId));
  if (!session || !matches(session, claims) || stateOf(session)) return "closed";
  const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, intentKey(session.id)));
  if (!row || row.status !== "pending") return "closed";
  await db
    .update(payments)
    .set({ data: { ...(row.data as object), buyer }, updatedAt: row.updatedAt })
    .where(and(eq(payments.id, row.id), eq(payments.status, "pending")));
  return "saved";
}

/** Intent ids are unique across Stripe accounts: the payment is found whichever account's secret verified the event. */
function paymentOfIntent(db: Database, intentRef: string) {
  return db.select().from(payments).where(and(inArray(payments.provider, intentProviderNames), eq(payments.providerRef, intentRef)));
}

/** A succeeded intent, recorded once: the order (or the refund of a name sold meanwhile). */
async function settleIntent(db: Database, intent: ProviderIntent): Promise<"recorded" | "unknown"> {
  const [row] = await paymentOfIntent(db, intent.ref);
  if (!row) return "unknown"; // not one of ours (another integration on the same account)
  if (intent.status !== "succeeded") return "recorded";
  if (intent.amountCents !== row.amountCents || intent.currency !== row.currency) {
    throw new Error(`intent ${intent.ref} is ${intent.amountCents} ${intent.currency}, payment ${row.id} expects ${row.amountCents} ${row.currency}`);
  }
  await recordCharge(db, row.id, { status: "succeeded", providerRef: intent.ref, last4: "" });
  return "recorded";
}

/**
 * Acts on one verified notification. Redeliveries (same event id) and events
 * in any order are harmless: a failed payment records nothing (the page stays
 * open to try again), a success records the sale once, other types are ignored.
 */
export async function handleProcessorEvent(db: Database, provider: IntentProvider, event: ProviderEvent): Promise<"handled" | "duplicate" | "ignored"> {
  const [seen] = await db.select({ id: processorEvents.id }).from(processorEvents).where(eq(processorEvents.id, event.id));
  if (seen) return "duplicate";
  let result: "handled" | "ignored" = "handled";
  switch (event.type) {
    case "intent.succeeded":
      if ((await settleIntent(db, event.intent)) === "unknown") result = "ignored";
      break;
    case "intent.failed":
      result = "ignored"; // the buyer sees the decline in Stripe's form and may try again on the same intent
      break;
    case "dispute.opened":
    case "dispute.closed":
      if (!(await applyDispute(db, event.dispute))) result = "ignored";
      break;
    case "refund.failed":
      if (!(await applyRefundFailure(db, event.refund))) result = "ignored";
      break;
    case "ignored":
      result = "ignored";
      break;
  }
  // Only after acting: a failure above leaves the event unrecorded, so the processor's retry acts again.
  await db
    .insert(processorEvents)
    .values({ id: event.id, provider: provider.name, type: event.type === "ignored" ? event.processorType : event.type, receivedAt: clock.now() })
    .onConflictDoNothing();
  return result;
}

/**
 * A chargeback: opened holds the order in manual review and the partner's
 * commission; won releases both; lost reverses the sale (REFUNDED, commission
 * reversed). Each step happens once per dispute state, with its event.
 */
async function applyDispute(db: Database, dispute: ProviderDispute): Promise<boolean> {
  const [payment] = await paymentOfIntent(db, dispute.intentRef);
  if (!payment?.orderId) return false;
  const orderId = payment.orderId;
  return db.transaction(async (tx) => {
    const order = await lockOrderOrThrow(tx, orderId);
    const now = clock.now();
    const [known] = await tx.select().from(paymentDisputes).where(eq(paymentDisputes.id, dispute.ref)).for("update");
    if (dispute.outcome === "open") {
      if (known) return true;
      await tx.insert(paymentDisputes).values({ id: dispute.ref, provider: payment.provider, paymentId: payment.id, orderId, status: "open", reason: dispute.reason, createdAt: now, updatedAt: now });
      await tx
        .update(commissionLedger)
        .set({ heldAt: now, updatedAt: now })
        .where(and(eq(commissionLedger.orderId, orderId), inArray(commissionLedger.state, ["accrued", "pending"]), isNull(commissionLedger.heldAt)));
      await move(tx, order.status, orderId, "dispute_open", `disputed by the buyer's bank (${dispute.reason}); commission held`);
      return true;
    }
    if (known?.status === dispute.outcome) return true;
    if (known) {
      await tx.update(paymentDisputes).set({ status: dispute.outcome, updatedAt: now }).where(eq(paymentDisputes.id, dispute.ref));
    } else {
      await tx.insert(paymentDisputes).values({ id: dispute.ref, provider: payment.provider, paymentId: payment.id, orderId, status: dispute.outcome, reason: dispute.reason, createdAt: now, updatedAt: now });
    }
    await tx.update(commissionLedger).set({ heldAt: null, updatedAt: now }).where(eq(commissionLedger.orderId, orderId));
    if (dispute.outcome === "won") {
      await move(tx, order.status, orderId, "dispute_won", "dispute closed in our favour; commission released");
    } else {
      await move(tx, order.status, orderId, "dispute_lost", "dispute lost: the buyer's bank returned the money; commission reversed");
    }
    return true;
  });
}

/**
 * DECISIONS "Partner kinds": a refund Stripe accepted and then could not
 * complete sends the order back to manual review with the reason, for staff.
 * The refund row becomes `failed`; the domain is sold again unless another
 * order took it meanwhile (then only the timeline and audit say so).
 */
async function applyRefundFailure(db: Database, failed: { ref: string; intentRef: string; reason: string }): Promise<boolean> {
  const [refund] = await db.select().from(refunds).where(eq(refunds.providerRef, failed.ref));
  if (!refund) return false;
  return db.transaction(async (tx) => {
    const order = await lockOrderOrThrow(tx, refund.orderId);
    const [current] = await tx.select().from(refunds).where(eq(refunds.id, refund.id)).for("update");
    if (current?.status === "failed") return true;
    const now = clock.now();
    await tx.update(refunds).set({ status: "failed" }).where(eq(refunds.id, refund.id));
    const note = `refund ${failed.ref} failed at the payment processor (${failed.reason}): the buyer has not been paid back; refund again or contact the buyer`;
    const moved = await tx
      .transaction(async (inner) => {
        await move(inner, order.status, order.id, "refund_failed", note);
        await inner.update(payments).set({ status: "succeeded", updatedAt: now }).where(and(eq(payments.orderId, order.id), eq(payments.status, "refunded")));
        await inner.update(domains).set({ status: "sold", updatedAt: now }).where(and(eq(domains.id, order.domainId), eq(domains.status, "listed")));
        return true;
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) return false; // another order holds the domain now
        throw error;
      });
    if (!moved) {
      await recordAudit(tx, { type: "system" }, {
        action: "order.refund_failed",
        targetType: "order",
        targetId: order.id,
        partnerId: order.partnerId,
        environment: order.environment,
        data: { note, domain_resold: true },
      }, now);
    }
    return true;
  });
}

/** A move the order's current status allows; otherwise the dispute is only recorded and audited. */
async function move(tx: Transaction, status: OrderStatus, orderId: string, action: OrderAction, note: string) {
  if (orderMoves[action].from.includes(status)) {
    await transitionOrder(tx, { orderId, action, actor: { type: "system" }, note });
    return;
  }
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId));
  await recordAudit(tx, { type: "system" }, {
    action: `order.${action}`,
    targetType: "order",
    targetId: orderId,
    partnerId: order?.partnerId ?? null,
    environment: order?.environment ?? "live",
    data: { status, note },
  }, clock.now());
}

/**
 * The worker's pass over intents whose webhook may have been missed: each
 * pending intent older than INTENT_STALE_MS is read back from its processor;
 * a success is recorded like the webhook would, a canceled intent or an
 * expired session with nothing paid is marked failed. Checked rows move to
 * the back of the queue (updated_at), so every pending intent gets its turn.
 */
export async function reconcileIntentPayments(db: Database, options: { limit?: number } = {}): Promise<{ recorded: number; abandoned: number }> {
  const stale = new Date(clock.nowMs() - INTENT_STALE_MS);
  const rows = await db
    .select({ payment: payments, session: checkoutSessions })
    .from(payments)
    .innerJoin(checkoutSessions, eq(checkoutSessions.id, payments.checkoutSessionId))
    .where(and(eq(payments.status, "pending"), inArray(payments.provider, intentProviderNames), lt(payments.updatedAt, stale)))
    .orderBy(payments.updatedAt)
    .limit(options.limit ?? 100);
  let recorded = 0;
  let abandoned = 0;
  for (const { payment, session } of rows) {
    if (!payment.providerRef) continue;
    // To the back of the queue first, so an intent that keeps failing to read never starves the rest.
    await db.update(payments).set({ updatedAt: clock.now() }).where(and(eq(payments.id, payment.id), eq(payments.status, "pending")));
    try {
      const outcome = await reconcileOne(db, payment, session);
      if (outcome === "recorded") recorded++;
      if (outcome === "abandoned") abandoned++;
    } catch (error) {
      logError(`reconcile payment ${payment.id}`, error);
    }
  }
  return { recorded, abandoned };
}

async function reconcileOne(db: Database, payment: PaymentRow, session: CheckoutSessionRow): Promise<"recorded" | "abandoned" | "waiting"> {
  const provider = getProviderByName(payment.provider);
  if (provider.kind !== "intent") throw new AppError("internal_error", `payment ${payment.id} is not intent-based`);
  const intent = await provider.retrieveIntent(payment.providerRef!);
  if (intent.status === "succeeded") {
    await settleIntent(db, intent);
    return "recorded";
  }
  const now = clock.now();
  if (intent.status === "canceled" || (intent.status === "requires_payment" && now.getTime() >= session.expiresAt.getTime())) {
    const done = await db
      .update(payments)
      .set({ status: "failed", failureCode: intent.status === "canceled" ? "canceled" : "expired", updatedAt: now })
      .where(and(eq(payments.id, payment.id), eq(payments.status, "pending")))
      .returning({ id: payments.id });
    return done.length ? "abandoned" : "waiting";
  }
  return "waiting";
}

/**
 * POST /api/payments/stripe/webhook: verifies the raw body against the live
 * account's signing secret, then the test-mode one (sandbox checkout on
 * Stripe's test mode), and acts on the event. A missing, wrong or stale
 * signature is 400 with nothing changed.
 */
export async function receiveStripeWebhook(db: Database, rawBody: string | Uint8Array, signature: string | null) {
  const candidates = (["live", "sandbox"] as const)
    .map((environment) => {
      try {
        return intentProviderFor({ environment });
      } catch {
        return null; // live payments off
      }
    })
    .filter((provider): provider is IntentProvider => provider !== null);
  if (candidates.length === 0) throw new AppError("payments_unavailable", "Stripe payments are not configured on this service");
  let lastProblem = "invalid signature";
  for (const provider of candidates) {
    let event: ProviderEvent;
    try {
      event = provider.parseEvent(rawBody, signature, clock.nowMs());
    } catch (error) {
      if (!(error instanceof WebhookSignatureError)) throw error;
      lastProblem = error.message;
      continue;
    }
    const result = await handleProcessorEvent(db, provider, event);
    return { received: true as const, event_id: event.id, result };
  }
  throw new AppError("validation_error", `webhook signature verification failed: ${lastProblem}`, [{ path: "stripe-signature", message: lastProblem }]);
}
