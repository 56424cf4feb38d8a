import { randomBytes } from "node:crypto";
import { clock } from "@/server/clock";
import { sha256Hex } from "@/server/crypto";
import { cardDigits, checkCard } from "./card";
import type { ChargeFailureCode, ChargeRequest, ChargeResult, PaymentProvider, RefundRequest, RefundResult } from "./provider";

// A card processor's test mode, in process. Test numbers:
//   4242 4242 4242 4242, 5555 5555 5555 4444  succeed
//   4000 0000 0000 0002                       declined (card_declined)
//   4000 0000 0000 9995                       declined (insufficient_funds)
//   any other Luhn-valid number               declined (card_declined): not a test card
// Luhn-invalid numbers, past expiry dates and malformed CVCs are declined with
// incorrect_number, expired_card / invalid_expiry, invalid_cvc.
// Idempotent by key: the first result for a key is replayed, so a retried
// charge never charges twice. The memory is per process, like a processor's own
// idempotency store; the payments table's unique key is the durable guard.

const succeeding = new Set(["4242424242424242", "5555555555554444"]);
const declining: Record<string, { code: ChargeFailureCode; message: string }> = {
  "4000000000000002": { code: "card_declined", message: "Your card was declined." },
  "4000000000009995": { code: "insufficient_funds", message: "Your card has insufficient funds." },
};

interface Stored {
  fingerprint: string;
  result: ChargeResult;
  amountCents: number;
  refunded: boolean;
}

const byKey = new Map<string, Stored>();
const byRef = new Map<string, Stored>();
const refunds = new Map<string, RefundResult>();

const ref = (prefix: string) => `${prefix}_sbx_${randomBytes(12).toString("hex")}`;

function fingerprintOf(request: ChargeRequest): string {
  const { card } = request;
  return sha256Hex([request.amountCents, request.currency, cardDigits(card.number), card.expMonth, card.expYear, card.cvc].join("|"));
}

function decide(request: ChargeRequest): ChargeResult {
  const digits = cardDigits(request.card.number);
  const last4 = digits.slice(-4);
  const problem = checkCard(request.card, clock.now())[0];
  if (problem) return { status: "declined", providerRef: ref("ch"), failureCode: problem.code, message: problem.message, last4 };
  if (succeeding.has(digits)) return { status: "succeeded", providerRef: ref("ch"), last4 };
  const decline = declining[digits] ?? { code: "card_declined" as const, message: "Your card was declined. Use a sandbox test card such as 4242 4242 4242 4242." };
  return { status: "declined", providerRef: ref("ch"), failureCode: decline.code, message: decline.message, last4 };
}

export const sandboxProvider: PaymentProvider = {
  name: "sandbox",

  async charge(request) {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
      throw new Error(`sandbox charge amount must be a positive integer, got ${request.amountCents}`);
    }
    const fingerprint = fingerprintOf(request);
    const previous = byKey.get(request.idempotencyKey);
    if (previous) {
      if (previous.fingerprint !== fingerprint) {
        throw new Error(`idempotency key ${request.idempotencyKey} was used with different charge parameters`);
      }
      return previous.result;
    }
    const result = decide(request);
    const stored = { fingerprint, result, amountCents: request.amountCents, refunded: false };
    byKey.set(request.idempotencyKey, stored);
    byRef.set(result.providerRef, stored);
    return result;
  },

  async refund(request: RefundRequest) {
    const previous = refunds.get(request.idempotencyKey);
    if (previous) return previous;
    const charge = byRef.get(request.providerRef);
    if (!charge || charge.result.status !== "succeeded") throw new Error(`no succeeded sandbox charge ${request.providerRef}`);
    if (charge.refunded) throw new Error(`sandbox charge ${request.providerRef} is already refunded`);
    if (request.amountCents !== charge.amountCents) throw new Error("sandbox refunds are full refunds only");
    charge.refunded = true;
    const result: RefundResult = { status: "succeeded", providerRef: ref("re") };
    refunds.set(request.idempotencyKey, result);
    return result;
  },
};
