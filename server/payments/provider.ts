import type { Environment } from "@/db/schema";
import { AppError } from "@/server/errors";
import { sandboxProvider } from "./sandbox";

// The payment-provider interface hosted checkout charges through. The sandbox
// provider behaves like a card processor's test mode; a live processor plugs in
// behind the same interface (getPaymentProvider picks it by environment).

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

export interface PaymentProvider {
  /** Stored on payments.provider. */
  readonly name: string;
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** The charge made under this idempotency key, or null when none was made (reconciling after a crash). */
  lookup(idempotencyKey: string): Promise<ChargeResult | null>;
  refund(request: RefundRequest): Promise<RefundResult>;
}

/**
 * Sandbox sessions charge the sandbox provider. Live has no processor
 * configured yet, so a live charge fails loudly instead of pretending.
 */
export function getPaymentProvider(environment: Environment): PaymentProvider {
  if (environment === "sandbox") return sandboxProvider;
  throw new AppError("internal_error", "no live payment processor is configured; live hosted checkout cannot take payments yet");
}
