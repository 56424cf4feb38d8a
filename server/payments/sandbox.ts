import { randomBytes } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { getDb } from "@/db/client";
import { sandboxProcessorCharges } from "@/db/schema";
import { clock } from "@/server/clock";
import { sha256Hex } from "@/server/crypto";
import { cardDigits, checkCard } from "./card";
import type { ChargeFailureCode, ChargeRequest, ChargeResult, DirectProvider, RefundRequest } from "./provider";

// A card processor's test mode, in process. Test numbers:
//   4242 4242 4242 4242, 5555 5555 5555 4444  succeed
//   4000 0000 0000 0002                       declined (card_declined)
//   4000 0000 0000 9995                       declined (insufficient_funds)
//   any other Luhn-valid number               declined (card_declined): not a test card
// Luhn-invalid numbers, past expiry dates and malformed CVCs are declined with
// incorrect_number, expired_card / invalid_expiry, invalid_cvc.
// Idempotent by key, like a real processor: the first result for a key is
// replayed, so a retried charge never charges twice, and a charge can be looked
// up by its key after our process died between charging and recording. The
// processor's memory is its own ledger table (db/schema/sandbox-processor.ts),
// shared by every process of the service.

const succeeding = new Set(["4242424242424242", "5555555555554444"]);
const declining: Record<string, { code: ChargeFailureCode; message: string }> = {
  "4000000000000002": { code: "card_declined", message: "Your card was declined." },
  "4000000000009995": { code: "insufficient_funds", message: "Your card has insufficient funds." },
};

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

type LedgerRow = typeof sandboxProcessorCharges.$inferSelect;

function resultOf(row: LedgerRow): ChargeResult {
  return row.status === "succeeded"
    ? { status: "succeeded", providerRef: row.ref, last4: row.last4 }
    : { status: "declined", providerRef: row.ref, failureCode: (row.failureCode ?? "card_declined") as ChargeFailureCode, message: row.message ?? undefined, last4: row.last4 };
}

export const sandboxProvider: DirectProvider = {
  name: "sandbox",
  kind: "direct",

  async charge(request) {
    if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
      throw new Error(`sandbox charge amount must be a positive integer, got ${request.amountCents}`);
    }
    const db = getDb();
    const fingerprint = fingerprintOf(request);
    const decided = decide(request);
    const [inserted] = await db
      .insert(sandboxProcessorCharges)
      .values({
        ref: decided.providerRef,
        idempotencyKey: request.idempotencyKey,
        fingerprint,
        status: decided.status,
        failureCode: decided.failureCode ?? null,
        message: decided.message ?? null,
        last4: decided.last4,
        amountCents: request.amountCents,
        currency: request.currency,
        createdAt: clock.now(),
      })
      .onConflictDoNothing({ target: sandboxProcessorCharges.idempotencyKey })
      .returning();
    if (inserted) return resultOf(inserted);
    const [previous] = await db.select().from(sandboxProcessorCharges).where(eq(sandboxProcessorCharges.idempotencyKey, request.idempotencyKey));
    if (!previous) throw new Error(`sandbox idempotency key ${request.idempotencyKey} vanished`);
    if (previous.fingerprint !== fingerprint) {
      throw new Error(`idempotency key ${request.idempotencyKey} was used with different charge parameters`);
    }
    return resultOf(previous);
  },

  async lookup(idempotencyKey) {
    const [row] = await getDb().select().from(sandboxProcessorCharges).where(eq(sandboxProcessorCharges.idempotencyKey, idempotencyKey));
    return row ? resultOf(row) : null;
  },

  async refund(request: RefundRequest) {
    const db = getDb();
    const [previous] = await db.select().from(sandboxProcessorCharges).where(eq(sandboxProcessorCharges.refundKey, request.idempotencyKey));
    if (previous?.refundRef) return { status: "succeeded", providerRef: previous.refundRef };
    const [charge] = await db.select().from(sandboxProcessorCharges).where(eq(sandboxProcessorCharges.ref, request.providerRef));
    if (!charge || charge.status !== "succeeded") throw new Error(`no succeeded sandbox charge ${request.providerRef}`);
    if (request.amountCents !== charge.amountCents) throw new Error("sandbox refunds are full refunds only");
    const refundRef = ref("re");
    const [refunded] = await db
      .update(sandboxProcessorCharges)
      .set({ refundRef, refundKey: request.idempotencyKey, refundedAt: clock.now() })
      .where(and(eq(sandboxProcessorCharges.ref, request.providerRef), isNull(sandboxProcessorCharges.refundRef)))
      .returning();
    if (!refunded) throw new Error(`sandbox charge ${request.providerRef} is already refunded`);
    return { status: "succeeded", providerRef: refundRef };
  },
};
