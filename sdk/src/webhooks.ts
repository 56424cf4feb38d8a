import { createHmac, timingSafeEqual } from "node:crypto";
import type { components } from "./generated/openapi.js";

// Verifying a webhook delivery before trusting it. Each delivery carries two
// independent signatures over the raw body, both keyed with your webhook secret:
//  - the service's own: X-Service-Signature = hex HMAC-SHA256(secret, body)
//    (comma-separated list during a secret roll), X-Service-Timestamp;
//  - Standard Webhooks: webhook-signature = "v1," + base64 HMAC-SHA256(key,
//    "id.timestamp.body") (space-separated list), webhook-id, webhook-timestamp.
// The Standard one also signs the timestamp, so it is preferred when present.

export type WebhookEvent = components["schemas"]["Event"];

export class WebhookVerificationError extends Error {
  override readonly name = "WebhookVerificationError";
}

export interface VerifyWebhookOptions {
  /** Your webhook secret, as registered (or as the dashboard showed it). */
  secret: string;
  /** The raw body exactly as received: verify before parsing. */
  body: string | Uint8Array;
  headers: Headers | Record<string, string | string[] | undefined>;
  /** How far the delivery's timestamp may be from now, in seconds (default 300). */
  toleranceSeconds?: number;
  /** "auto" (default): Standard Webhooks headers when present, else the service's. */
  scheme?: "auto" | "standard" | "service";
  /** Unix seconds; injectable for tests. */
  now?: number;
}

const STANDARD_PREFIX = "whsec_";
const BASE64 = /^[A-Za-z0-9+/]{2,}={0,2}$/;

/**
 * The Standard Webhooks key of a secret, as `new Webhook(secret)` of the
 * standardwebhooks libraries derives it: the part after `whsec_`, base64-decoded;
 * a secret that is not base64 that way is used as its UTF-8 bytes.
 */
export function standardWebhooksKey(secret: string): Buffer {
  const rest = secret.startsWith(STANDARD_PREFIX) ? secret.slice(STANDARD_PREFIX.length) : secret;
  if (rest.length >= 4 && BASE64.test(rest)) {
    const key = Buffer.from(rest, "base64");
    if (key.length > 0) return key;
  }
  return Buffer.from(secret, "utf8");
}

function header(headers: VerifyWebhookOptions["headers"], name: string): string | undefined {
  if (headers instanceof Headers) return headers.get(name) ?? undefined;
  const entry = Object.entries(headers).find(([key]) => key.toLowerCase() === name);
  const value = entry?.[1];
  return Array.isArray(value) ? value[0] : value;
}

function equalConstantTime(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function checkTimestamp(value: string | undefined, toleranceSeconds: number, now: number): void {
  if (value === undefined || !/^\d+$/.test(value)) throw new WebhookVerificationError("the delivery has no valid timestamp header");
  if (Math.abs(now - Number(value)) > toleranceSeconds) {
    throw new WebhookVerificationError(`the delivery's timestamp is more than ${toleranceSeconds} s from now (replayed or clock skew)`);
  }
}

/** Checks the delivery's signature and timestamp; returns the parsed event, or throws WebhookVerificationError. */
export function verifyWebhook(options: VerifyWebhookOptions): WebhookEvent {
  const body = typeof options.body === "string" ? Buffer.from(options.body, "utf8") : Buffer.from(options.body);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const standardSignature = header(options.headers, "webhook-signature");
  const scheme = options.scheme === "standard" || (options.scheme !== "service" && standardSignature !== undefined) ? "standard" : "service";

  if (scheme === "standard") {
    const id = header(options.headers, "webhook-id");
    const timestamp = header(options.headers, "webhook-timestamp");
    if (!standardSignature || !id) throw new WebhookVerificationError("the delivery lacks the webhook-id or webhook-signature header");
    checkTimestamp(timestamp, tolerance, now);
    const mac = createHmac("sha256", standardWebhooksKey(options.secret)).update(`${id}.${timestamp}.`).update(body).digest("base64");
    const matched = standardSignature.split(" ").some((entry) => {
      const [version, signature] = entry.split(",");
      return version === "v1" && signature !== undefined && equalConstantTime(signature, mac);
    });
    if (!matched) throw new WebhookVerificationError("no webhook-signature matches this secret and body");
  } else {
    const signature = header(options.headers, "x-service-signature");
    if (!signature) throw new WebhookVerificationError("the delivery lacks the X-Service-Signature header");
    checkTimestamp(header(options.headers, "x-service-timestamp"), tolerance, now);
    const mac = createHmac("sha256", options.secret).update(body).digest("hex");
    if (!signature.split(",").some((candidate) => equalConstantTime(candidate.trim(), mac))) {
      throw new WebhookVerificationError("X-Service-Signature does not match this secret and body");
    }
  }
  try {
    return JSON.parse(body.toString("utf8")) as WebhookEvent;
  } catch {
    throw new WebhookVerificationError("the signed body is not JSON");
  }
}
