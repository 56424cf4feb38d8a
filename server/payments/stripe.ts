import Stripe from "stripe";
import { getEnv, type StripeKeys } from "@/server/env";
import type { IntentProvider, ProviderDispute, ProviderEvent, ProviderIntent } from "./provider";
import { WebhookSignatureError } from "./provider";

// Stripe behind the intent-based provider interface, through the official SDK.
// STRIPE_API_URL points the SDK at another host (tests run a local stand-in
// speaking Stripe's wire format). Amounts are integer minor units both sides;
// Stripe spells currencies in lower case, the service in upper case.

const clients = new Map<string, IntentProvider>();

/** One provider per account key and API host (the SDK keeps its connection pool). */
export function stripeProvider(name: string, keys: StripeKeys): IntentProvider {
  const apiUrl = getEnv().stripe.apiUrl;
  const cacheKey = `${name}|${keys.secretKey}|${apiUrl ?? ""}`;
  let provider = clients.get(cacheKey);
  if (!provider) {
    provider = createStripeProvider(name, keys, apiUrl);
    clients.set(cacheKey, provider);
  }
  return provider;
}

function sdkHost(apiUrl: string | null): Stripe.StripeConfig {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

function createStripeProvider(name: string, keys: StripeKeys, apiUrl: string | null): IntentProvider {
  // Retries are safe: every POST carries an idempotency key (ours, or the SDK's own).
  const stripe = new Stripe(keys.secretKey, { maxNetworkRetries: 2, timeout: 20_000, ...sdkHost(apiUrl) });
  return {
    name,
    kind: "intent",
    publishableKey: keys.publishableKey,

    async createIntent(request) {
      const intent = await stripe.paymentIntents.create(
        {
          amount: request.amountCents,
          currency: request.currency.toLowerCase(),
          automatic_payment_methods: { enabled: true },
          description: request.description,
          metadata: request.metadata,
        },
        { idempotencyKey: request.idempotencyKey },
      );
      return intentOf(intent);
    },

    async retrieveIntent(ref) {
      return intentOf(await stripe.paymentIntents.retrieve(ref));
    },

    async refund(request) {
      const refund = await stripe.refunds.create(
        { payment_intent: request.providerRef, amount: request.amountCents },
        { idempotencyKey: request.idempotencyKey },
      );
      if (refund.status === "failed" || refund.status === "canceled") {
        throw new Error(`Stripe refund ${refund.id} is ${refund.status}`);
      }
      return { status: "succeeded", providerRef: refund.id };
    },

    parseEvent(rawBody, signature, receivedAtMs) {
      if (!signature) throw new WebhookSignatureError("missing Stripe-Signature header");
      let event: Stripe.Event;
      try {
        // The SDK's default tolerance (300 s); receivedAt from our clock so tests can move it.
        const payload = typeof rawBody === "string" ? rawBody : Buffer.from(rawBody.buffer, rawBody.byteOffset, rawBody.byteLength);
        event = stripe.webhooks.constructEvent(payload, signature, keys.webhookSecret, undefined, undefined, receivedAtMs);
      } catch (error) {
        throw new WebhookSignatureError(error instanceof Error ? error.message : "invalid signature");
      }
      return eventOf(event);
    },
  };
}

const statuses: Record<Stripe.PaymentIntent.Status, ProviderIntent["status"]> = {
  requires_payment_method: "requires_payment",
  requires_confirmation: "requires_payment",
  requires_action: "requires_payment",
  processing: "processing",
  requires_capture: "processing",
  succeeded: "succeeded",
  canceled: "canceled",
};

function intentOf(intent: Stripe.PaymentIntent): ProviderIntent {
  return {
    ref: intent.id,
    clientSecret: intent.client_secret ?? "",
    status: statuses[intent.status] ?? "requires_payment",
    amountCents: intent.amount,
    currency: intent.currency.toUpperCase(),
    metadata: { ...intent.metadata },
    lastError: intent.last_payment_error?.message ?? null,
  };
}

function disputeOf(dispute: Stripe.Dispute): ProviderDispute {
  const intent = dispute.payment_intent;
  return {
    ref: dispute.id,
    intentRef: typeof intent === "string" ? intent : (intent?.id ?? ""),
    outcome: dispute.status === "won" ? "won" : dispute.status === "lost" ? "lost" : "open",
    reason: dispute.reason,
  };
}

function eventOf(event: Stripe.Event): ProviderEvent {
  const base = { id: event.id, livemode: event.livemode };
  switch (event.type) {
    case "payment_intent.succeeded":
      return { ...base, type: "intent.succeeded", intent: intentOf(event.data.object) };
    case "payment_intent.payment_failed":
      return { ...base, type: "intent.failed", intent: intentOf(event.data.object) };
    case "charge.dispute.created":
      return { ...base, type: "dispute.opened", dispute: disputeOf(event.data.object) };
    case "charge.dispute.closed":
      return { ...base, type: "dispute.closed", dispute: disputeOf(event.data.object) };
    case "refund.failed":
    case "refund.updated": {
      const refund = event.data.object;
      if (refund.status !== "failed") return { ...base, type: "ignored", processorType: event.type };
      const intent = refund.payment_intent;
      return {
        ...base,
        type: "refund.failed",
        refund: { ref: refund.id, intentRef: typeof intent === "string" ? intent : (intent?.id ?? ""), reason: refund.failure_reason ?? "unknown" },
      };
    }
    default:
      return { ...base, type: "ignored", processorType: event.type };
  }
}
