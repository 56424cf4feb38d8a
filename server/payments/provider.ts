import type { Environment } from "@/db/schema";
import { getEnv } from "@/server/env";
import { AppError } from "@/server/errors";
import { sandboxProvider } from "./sandbox";
import { stripeProvider } from "./stripe";

// The payment-provider interface hosted checkout pays through, in two shapes:
// direct (the sandbox's simulated processor, charged from our own form with
// test cards) and intent-based (Stripe: card fields live only in the
// processor's iframes, the outcome arrives asynchronously). getPaymentProvider
// picks one by environment and settings.

export interface CardInput {
  /** Digits, spaces or dashes as typed. */
  number: string;
  expMonth: number;
  /** Four-digit year. */
  expYear: number;
  cvc: string;
}

export interface ChargeRequest {
  amountCents: number;
  currency: string;
  card: CardInput;
  /** Same key, same result: a repeated charge never charges twice. */
  idempotencyKey: string;
  description: string;
}

export type ChargeFailureCode =
  | "card_declined"
  | "insufficient_funds"
  | "incorrect_number"
  | "expired_card"
  | "invalid_cvc"
  | "invalid_expiry";

export interface ChargeResult {
  status: "succeeded" | "declined";
  /** The processor's id of the charge (also of a declined attempt). */
  providerRef: string;
  failureCode?: ChargeFailureCode;
  /** Human-readable reason of a decline, safe to show the buyer. */
  message?: string;
  /** Last four digits of the card, for receipts and support. */
  last4: string;
}

export interface RefundRequest {
  providerRef: string;
  amountCents: number;
  idempotencyKey: string;
}

export interface RefundResult {
  status: "succeeded";
  providerRef: string;
}

/** What every processor does: give money back, once per key. */
interface ProviderBase {
  /** Stored on payments.provider; a payment is refunded by the provider that took it. */
  readonly name: string;
  refund(request: RefundRequest): Promise<RefundResult>;
}

/**
 * A processor our own page sends card details to (only the built-in simulated
 * processor of the sandbox: no real card number ever reaches it).
 */
export interface DirectProvider extends ProviderBase {
  readonly kind: "direct";
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The charge made under this idempotency key, or null when none was made (reconciling after a crash). */
  lookup(idempotencyKey: string): Promise<ChargeResult | null>;
}

/** A processor-side payment the buyer completes in the processor's own fields. */
export interface ProviderIntent {
  ref: string;
  /** Handed to the page's processor script only (never logged). */
  clientSecret: string;
  /** requires_payment: waiting for the buyer (also after a decline); processing: the processor decides later. */
  status: "requires_payment" | "processing" | "succeeded" | "canceled";
  amountCents: number;
  /** Upper-case ISO 4217. */
  currency: string;
  metadata: Record<string, string>;
  /** The last attempt's decline message, safe to show the buyer. */
  lastError: string | null;
}

export interface CreateIntentRequest {
  amountCents: number;
  currency: string;
  /** Same key, same intent: a repeated create never makes a second one. */
  idempotencyKey: string;
  description: string;
  metadata: Record<string, string>;
}

export interface ProviderDispute {
  ref: string;
  intentRef: string;
  /** open: funds withdrawn pending the outcome; won / lost: closed. */
  outcome: "open" | "won" | "lost";
  reason: string;
}

/** A verified processor notification, reduced to what the service acts on. */
export type ProviderEvent = { id: string; livemode: boolean } & (
  | { type: "intent.succeeded" | "intent.failed"; intent: ProviderIntent }
  | { type: "dispute.opened" | "dispute.closed"; dispute: ProviderDispute }
  /** A refund the processor accepted and later could not complete (the buyer has not got the money). */
  | { type: "refund.failed"; refund: { ref: string; intentRef: string; reason: string } }
  | { type: "ignored"; processorType: string }
);

/**
 * An intent-based, asynchronous processor (Stripe; Adyen or Braintree would
 * plug in the same way): the server creates one intent per checkout session,
 * the page collects card details inside the processor's own iframes, and the
 * outcome arrives as a signed notification (or is read back by the reconciler).
 */
export interface IntentProvider extends ProviderBase {
  readonly kind: "intent";
  /** For the page's processor script. */
  readonly publishableKey: string;
  createIntent(request: CreateIntentRequest): Promise<ProviderIntent>;
  retrieveIntent(ref: string): Promise<ProviderIntent>;
  /** Verifies a notification's signature and age; throws WebhookSignatureError. */
  /** The exact bytes received: the signature covers them, so they are never re-serialized. */
  parseEvent(rawBody: string | Uint8Array, signature: string | null, receivedAtMs: number): ProviderEvent;
}

export type PaymentProvider = DirectProvider | IntentProvider;

/** A notification whose signature is missing, wrong or too old. */
export class WebhookSignatureError extends Error {
  override name = "WebhookSignatureError";
}

/**
 * Live sessions pay through Stripe when STRIPE_* are set; without them live
 * hosted checkout is off (payments_unavailable, nothing is created). Sandbox
 * sessions pay through Stripe's test mode when STRIPE_TEST_* are set, else the
 * built-in simulated processor.
 */
export function getPaymentProvider(environment: Environment): PaymentProvider {
  const { live, test } = getEnv().stripe;
  if (environment === "sandbox") return test ? stripeProvider("stripe_test", test) : sandboxProvider;
  if (!live) throw livePaymentsOff();
  return stripeProvider("stripe", live);
}

/** payments.provider of intent-based payments (one Stripe account live, one in test mode). */
export const intentProviderNames = ["stripe", "stripe_test"];

/** The provider that took a payment (refunds and reconciling go back to it, whatever is configured now). */
export function getProviderByName(name: string): PaymentProvider {
  if (name === "sandbox") return sandboxProvider;
  const { live, test } = getEnv().stripe;
  const keys = name === "stripe" ? live : name === "stripe_test" ? test : null;
  if (!keys) throw new AppError("payments_unavailable", `payments taken through ${name} cannot be reached: its settings are not configured`);
  return stripeProvider(name, keys);
}

export function livePaymentsEnabled(): boolean {
  return getEnv().stripe.live !== null;
}

export function livePaymentsOff(): AppError {
  return new AppError(
    "payments_unavailable",
    "live payments are not configured on this service (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET), so a live checkout session cannot take payment; nothing was created",
  );
}
