import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";

// A local stand-in for the Stripe API endpoints the service calls (payment
// intents, refunds), with Stripe's wire format: form-encoded bracketed
// parameters, `Authorization: Bearer sk_...`, Idempotency-Key replay (and the
// idempotency_error for a key reused with other parameters), Stripe's error
// envelope. State is in memory. Tests point the SDK at it with STRIPE_API_URL
// and move intents along (succeed, decline) as a buyer in Stripe's iframe
// would; events are signed exactly as Stripe signs them.

export interface StandInIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: Stripe.PaymentIntent.Status;
  client_secret: string;
  description: string | null;
  metadata: Record<string, string>;
  automatic_payment_methods: { enabled: boolean } | null;
  last_payment_error: { type: string; code: string; message: string } | null;
  latest_charge: string | null;
  livemode: boolean;
  created: number;
}

export interface StandInRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  payment_intent: string;
  charge: string | null;
  status: "succeeded" | "failed";
  failure_reason?: string;
  created: number;
}

export interface StandInRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  replayed: boolean;
  status: number;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

/** `metadata[domain]=x&automatic_payment_methods[enabled]=true` -> nested objects (Stripe's encoding). */
export function parseStripeForm(body: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const path = key.replace(/\]/g, "").split("[");
    let node = out;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Record<string, unknown>;
    });
  }
  return out;
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code?: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

export interface StandInKeys {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

export class StripeStandIn {
  readonly secretKey: string;
  readonly publishableKey: string;
  readonly webhookSecret: string;
  readonly intents = new Map<string, StandInIntent>();
  readonly refunds = new Map<string, StandInRefund>();
  readonly requests: StandInRequest[] = [];
  /** Answer this many next requests with 500 and Stripe's api_error (an outage outlasting the SDK's retries). */
  failNext = 0;
  private readonly idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  private readonly stripe = new Stripe("sk_test_unused");
  private server: Server | null = null;
  url = "";

  constructor(keys?: StandInKeys) {
    this.secretKey = keys?.secretKey ?? `sk_test_standin${randomBytes(8).toString("hex")}`;
    this.publishableKey = keys?.publishableKey ?? `pk_test_standin${randomBytes(8).toString("hex")}`;
    this.webhookSecret = keys?.webhookSecret ?? `whsec_${randomBytes(16).toString("hex")}`;
  }

  async start(port = 0): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The settings that point the service at this stand-in (live keys unless `prefix` says test). */
  env(prefix: "STRIPE_" | "STRIPE_TEST_" = "STRIPE_"): Record<string, string> {
    return {
      [`${prefix}SECRET_KEY`]: this.secretKey,
      [`${prefix}PUBLISHABLE_KEY`]: this.publishableKey,
      [`${prefix}WEBHOOK_SECRET`]: this.webhookSecret,
      STRIPE_API_URL: this.url,
    };
  }

  creates(): StandInRequest[] {
    return this.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents" && !r.replayed && r.status === 200);
  }

  /** The buyer completed payment in Stripe's iframe. */
  succeed(intentId: string): StandInIntent {
    const intent = this.mustIntent(intentId);
    Object.assign(intent, { status: "succeeded", amount_received: intent.amount, latest_charge: id("ch"), last_payment_error: null });
    return intent;
  }

  /** The card was declined; the intent waits for another payment method. */
  decline(intentId: string, message = "Your card was declined."): StandInIntent {
    const intent = this.mustIntent(intentId);
    Object.assign(intent, { status: "requires_payment_method", last_payment_error: { type: "card_error", code: "card_declined", message } });
    return intent;
  }

  /** The bank could not complete a refund Stripe had accepted (refund.failed follows). */
  failRefund(refundId: string): StandInRefund {
    const refund = this.refunds.get(refundId);
    if (!refund) throw new Error(`stand-in has no refund ${refundId}`);
    return Object.assign(refund, { status: "failed" as const, failure_reason: "expired_or_canceled_card" });
  }

  /** A signed Stripe event around `object`, as Stripe would POST it: the raw body and its Stripe-Signature header. */
  event(type: string, object: object, options: { id?: string; timestamp?: number; secret?: string } = {}) {
    const payload = JSON.stringify({
      id: options.id ?? id("evt"),
      object: "event",
      api_version: "2026-10-28.endive",
      created: now(),
      data: { object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
    });
    const header = this.stripe.webhooks.generateTestHeaderString({
      payload,
      secret: options.secret ?? this.webhookSecret,
      timestamp: options.timestamp ?? now(),
    });
    return { payload, header };
  }

  dispute(intentId: string, status: "needs_response" | "won" | "lost", disputeId = id("dp")) {
    const intent = this.mustIntent(intentId);
    return {
      id: disputeId,
      object: "dispute",
      amount: intent.amount,
      currency: intent.currency,
      charge: intent.latest_charge,
      payment_intent: intent.id,
      reason: "fraudulent",
      status,
      livemode: false,
      created: now(),
    };
  }

  private mustIntent(intentId: string): StandInIntent {
    const intent = this.intents.get(intentId);
    if (!intent) throw new Error(`stand-in has no intent ${intentId}`);
    return intent;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString("utf8");
    const method = req.method ?? "GET";
    const url = new URL(req.url ?? "/", "http://stand-in");
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    const send = (status: number, text: string, replayed = false) => {
      this.requests.push({ method, path: url.pathname, idempotencyKey: key, replayed, status });
      res.writeHead(status, {
        "content-type": "application/json",
        "request-id": id("req"),
        ...(key ? { "idempotency-key": key } : {}),
        ...(replayed ? { "idempotent-replayed": "true" } : {}),
      });
      res.end(text);
    };
    const fail = (error: StripeApiError) =>
      JSON.stringify({ error: { type: error.type, message: error.message, ...(error.code ? { code: error.code } : {}), ...(error.param ? { param: error.param } : {}) } });

    if (url.pathname.startsWith("/__stand-in/")) {
      this.control(method, url.pathname, res);
      return;
    }
    const auth = req.headers.authorization ?? "";
    if (auth !== `Bearer ${this.secretKey}`) {
      send(401, fail(new StripeApiError(401, "invalid_request_error", `Invalid API Key provided: ${auth.replace(/^Bearer /, "").slice(0, 12)}****`)));
      return;
    }
    if (this.failNext > 0) {
      this.failNext--;
      send(500, fail(new StripeApiError(500, "api_error", "Stripe is having trouble (stand-in outage).")));
      return;
    }
    const fingerprint = createHash("sha256").update(`${method} ${url.pathname}\n${body}`).digest("hex");
    const scoped = key && method === "POST" ? `${this.secretKey}|${key}` : null;
    if (scoped) {
      const previous = this.idempotency.get(scoped);
      if (previous && previous.fingerprint !== fingerprint) {
        send(
          400,
          fail(
            new StripeApiError(
              400,
              "idempotency_error",
              `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            ),
          ),
        );
        return;
      }
      if (previous) {
        send(previous.status, previous.body, true);
        return;
      }
    }
    let status = 200;
    let text: string;
    try {
      text = JSON.stringify(this.route(method, url.pathname, parseStripeForm(body)));
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      status = error.status;
      text = fail(error);
    }
    // Stripe stores the first answer under the key, errors from a request it ran included.
    if (scoped) this.idempotency.set(scoped, { fingerprint, status, body: text });
    send(status, text);
  }

  /**
   * Test controls for a stand-in in another process (browser tests): GET
   * /__stand-in/health; POST /__stand-in/payment_intents/<id>/<succeed|decline|process>
   * moves an intent as a buyer in Stripe's iframe would.
   */
  private control(method: string, path: string, res: ServerResponse) {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (path === "/__stand-in/health") return answer(200, { ok: true });
    const move = /^\/__stand-in\/payment_intents\/([^/]+)\/(succeed|decline|process)$/.exec(path);
    if (method !== "POST" || !move || !this.intents.has(move[1]!)) return answer(404, { error: "unknown control" });
    const intentId = move[1]!;
    if (move[2] === "succeed") return answer(200, this.succeed(intentId));
    if (move[2] === "decline") return answer(200, this.decline(intentId));
    return answer(200, Object.assign(this.intents.get(intentId)!, { status: "processing" }));
  }

  private route(method: string, path: string, params: Record<string, unknown>): object {
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === "POST" && path === "/v1/payment_intents") return this.createIntent(params);
    if (method === "GET" && intentPath) {
      const intent = this.intents.get(intentPath[1]!);
      if (!intent) throw new StripeApiError(404, "invalid_request_error", `No such payment_intent: '${intentPath[1]}'`, "resource_missing", "intent");
      return intent;
    }
    if (method === "POST" && path === "/v1/refunds") return this.createRefund(params);
    throw new StripeApiError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  }

  private createIntent(params: Record<string, unknown>): StandInIntent {
    const amount = Number(params.amount);
    if (!Number.isInteger(amount) || amount < 1) throw new StripeApiError(400, "invalid_request_error", "Missing required param: amount.", "parameter_missing", "amount");
    if (typeof params.currency !== "string" || !/^[a-z]{3}$/.test(params.currency)) {
      throw new StripeApiError(400, "invalid_request_error", "Invalid currency.", "parameter_invalid", "currency");
    }
    const intentId = id("pi");
    const automatic = params.automatic_payment_methods as { enabled?: string } | undefined;
    const intent: StandInIntent = {
      id: intentId,
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: params.currency,
      status: "requires_payment_method",
      client_secret: `${intentId}_secret_${randomBytes(10).toString("hex")}`,
      description: typeof params.description === "string" ? params.description : null,
      metadata: (params.metadata as Record<string, string> | undefined) ?? {},
      automatic_payment_methods: automatic ? { enabled: automatic.enabled === "true" } : null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      created: now(),
    };
    this.intents.set(intentId, intent);
    return intent;
  }

  private createRefund(params: Record<string, unknown>): StandInRefund {
    const intent = typeof params.payment_intent === "string" ? this.intents.get(params.payment_intent) : undefined;
    if (!intent) throw new StripeApiError(400, "invalid_request_error", `No such payment_intent: '${String(params.payment_intent)}'`, "resource_missing", "payment_intent");
    if (intent.status !== "succeeded") {
      throw new StripeApiError(400, "invalid_request_error", `This PaymentIntent (${intent.id}) does not have a successful charge to refund.`, "charge_not_refundable");
    }
    const refunded = [...this.refunds.values()].filter((r) => r.payment_intent === intent.id && r.status !== "failed").reduce((sum, r) => sum + r.amount, 0);
    const amount = params.amount === undefined ? intent.amount - refunded : Number(params.amount);
    if (refunded + amount > intent.amount) {
      throw new StripeApiError(400, "invalid_request_error", `Charge ${intent.latest_charge} has already been refunded.`, "charge_already_refunded");
    }
    const refund: StandInRefund = { id: id("re"), object: "refund", amount, currency: intent.currency, payment_intent: intent.id, charge: intent.latest_charge, status: "succeeded", created: now() };
    this.refunds.set(refund.id, refund);
    return refund;
  }
}
