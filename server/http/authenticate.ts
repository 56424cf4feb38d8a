import { is, SQL, type Query } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import { gateClient, type Database } from "@/db/client";
import type { Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { openSecret, safeEqual } from "@/server/crypto";
import { AppError } from "@/server/errors";
import { canonicalString, EMPTY_BODY_SHA256, sha256Hex, SIGNATURE_HEADERS, signCanonical } from "@/server/signing/canonical";
import { BODY_LIMITS, readBodyLimited } from "./body";
import { rateClasses, type RateClass, type Scope } from "./contract";
import { rateLimitOutcome, type RateLimitState } from "./rate-limit";
import { clientIp } from "./client-ip";
import { ipAllowed } from "./cidr";
import { diagnoseSignature } from "./signature-debug";
import { cachedCredential, peekCredential } from "@/server/auth/credential-cache";
import type { SignatureDebug } from "@/server/services/request-log";

// The signed-request gate of SPEC "Authentication", in the order DECISIONS fixes:
// missing key id -> other headers -> unknown/revoked key -> timestamp ->
// signature -> nonce -> scope -> rate limit. One database round trip when the
// credential is cached (credential-cache.ts): the call that records the nonce and
// takes a token; two when the credential has to be read. A route may send its one
// read in that same round trip (GateOptions.read): GET /availability answers after
// one statement.

export const TIMESTAMP_SKEW_SECONDS = 300;
export const NONCE_TTL_MS = 600_000;
export const MAX_BODY_BYTES = BODY_LIMITS.partner;
const KEY_ID = /^pk_(sandbox|live)_[A-Za-z0-9]{24}$/;
const NONCE = /^[\x21-\x7e]{1,128}$/;
const SIGNATURE = /^v1=[0-9a-f]{64}$/;

export interface PartnerAuth {
  credentialId: string;
  keyId: string;
  partnerId: string;
  environment: Environment;
  scopes: Scope[];
  paymentModel: "mor" | "non_mor";
  isAffiliate: boolean;
}

export interface Authenticated {
  auth: PartnerAuth;
  rawBody: Uint8Array;
  rateLimit: RateLimitState;
  /** GateOptions.read's first row (null: none), when the route gave one. */
  read?: unknown;
}

export interface GateOptions {
  scopes: readonly Scope[];
  rateClass: RateClass;
  /**
   * A read-only statement sent with the gate in one round trip, run only once the
   * request has passed it (nonce fresh, scope held, token taken): its first row comes
   * back as JSON in Authenticated.read. Given the credential's partner and environment,
   * once the signature has verified; undefined: no read for this request.
   */
  read?: (credential: { partnerId: string; environment: Environment }) => SQL | Query | undefined;
  /** request.url parsed, when the caller already has it. */
  url?: URL;
}

const EMPTY_BODY = new Uint8Array();

/** What the gate learnt about a request, for the request log, whether or not it passed. */
export interface GateTrace {
  credential?: { partnerId: string; environment: Environment; keyId: string };
  clientIp?: string;
  /** Sandbox keys only: why the signature gate refused the request. */
  debug?: SignatureDebug;
}

export async function authenticatePartner(
  db: Database,
  request: Request,
  options: GateOptions,
  trace: GateTrace = {},
): Promise<Authenticated> {
  // The body is read (and its size bounded) before any other work, so an
  // oversized upload costs neither a database round trip nor an HMAC.
  // A GET has no body stream: no read, no promise.
  const rawBody =
    request.body === null && request.headers.get("content-length") === null ? EMPTY_BODY : await readBodyLimited(request, MAX_BODY_BYTES);
  const header = (name: string) => request.headers.get(name);
  const keyId = header(SIGNATURE_HEADERS.keyId);
  if (!keyId) throw new AppError("missing_credentials", "X-Service-Key-Id header is required");
  const timestamp = header(SIGNATURE_HEADERS.timestamp);
  const nonce = header(SIGNATURE_HEADERS.nonce);
  const signature = header(SIGNATURE_HEADERS.signature);
  if (!timestamp || !nonce || !signature) {
    const missing = [
      [timestamp, "X-Service-Timestamp"],
      [nonce, "X-Service-Nonce"],
      [signature, "X-Service-Signature"],
    ].flatMap(([value, name]) => (value ? [] : [name]));
    throw new AppError("missing_signature_headers", `missing authentication header(s): ${missing.join(", ")}`);
  }

  const credential = KEY_ID.test(keyId) ? (peekCredential<GateCredential>(keyId) ?? (await findCredential(db, keyId))) : undefined;
  if (credential) trace.credential = { partnerId: credential.partnerId, environment: credential.environment, keyId: credential.keyId };
  if (!credential || credential.revokedAt) throw new AppError("invalid_signature", "unknown or revoked key id");
  const sandbox = credential.environment === "sandbox";
  const ip = clientIp(request);
  trace.clientIp = ip;

  if (!/^\d{1,11}$/.test(timestamp)) {
    if (sandbox) trace.debug = { failed: "timestamp_skew", explanation: "X-Service-Timestamp is not Unix time in whole seconds.", serverTime: clock.nowSeconds() };
    throw new AppError("invalid_timestamp", "X-Service-Timestamp must be Unix time in whole seconds");
  }
  const skew = Math.abs(clock.nowSeconds() - Number(timestamp));
  if (skew > TIMESTAMP_SKEW_SECONDS) {
    if (sandbox) {
      trace.debug = {
        failed: "timestamp_skew",
        explanation: `Your timestamp is ${skew} s away from the server's clock; the limit is ${TIMESTAMP_SKEW_SECONDS} s. Sync the clock (NTP) and sign with the current time.`,
        serverTime: clock.nowSeconds(),
        skewSeconds: clock.nowSeconds() - Number(timestamp),
      };
    }
    throw new AppError("invalid_timestamp", `X-Service-Timestamp is ${skew} s from server time (limit ${TIMESTAMP_SKEW_SECONDS} s)`);
  }

  if (!NONCE.test(nonce)) throw new AppError("invalid_signature", "X-Service-Nonce must be 1-128 visible ASCII characters");
  const url = options.url ?? new URL(request.url);
  const bodySha256 = rawBody.byteLength === 0 ? EMPTY_BODY_SHA256 : sha256Hex(rawBody);
  const canonical = canonicalString({ method: request.method, path: url.pathname, query: url.search, timestamp, nonce, bodySha256 });
  const secret = credential.secret;
  // Compare in constant time; a malformed header is compared too, so its timing says nothing.
  const matches = (key: string) => safeEqual(signCanonical(key, canonical), signature) && SIGNATURE.test(signature);
  const previous = previousSecret(credential);
  if (!matches(secret) && !(previous && matches(previous))) {
    if (sandbox) {
      trace.debug = diagnoseSignature({
        signature,
        secrets: [secret, previous, expiredSecret(credential)] as const,
        parts: { method: request.method, path: url.pathname, query: url.search, timestamp, nonce, bodySha256 },
        canonical,
      });
    }
    throw new AppError("invalid_signature", "signature does not match the canonical request");
  }
  if (credential.allowedCidrs && !ipAllowed(ip, credential.allowedCidrs)) {
    throw new AppError("ip_not_allowed", `this key may not be used from ${ip}; add the address to the key's IP allow-list`);
  }
  // Only a correctly signed request learns that the account is suspended.
  if (credential.suspendedAt) {
    throw new AppError("partner_suspended", "this partner account is suspended; no key verifies until staff reinstate it (contact support)");
  }

  const allowed = options.scopes.some((scope) => credential.scopes.includes(scope));
  const limit = rateClasses[options.rateClass];
  const nowMs = clock.nowMs();
  const touched = credential.touched;
  const touch = !touched || touched.ip !== ip || nowMs - touched.atMs >= LAST_USED_EVERY_MS || nowMs < touched.atMs;
  const gate = await recordRequest(db, {
    credentialId: credential.id,
    nonce,
    bucket: allowed ? `${credential.id}:${options.rateClass}` : null,
    limit,
    ip,
    touch,
    read: allowed ? options.read?.(credential) : undefined,
  });
  if (touch && !gate.replay) credential.touched = { atMs: nowMs, ip };
  if (gate.replay) {
    if (sandbox) {
      trace.debug = {
        failed: "nonce_reuse",
        explanation: "This nonce was already used by this key in the last 10 minutes. Generate a fresh random nonce for every request, including retries.",
        canonicalString: canonical,
        bodySha256,
      };
    }
    throw new AppError("replay_detected", "this nonce was already used; sign each request with a fresh nonce");
  }
  if (!allowed) {
    const needed = options.scopes.length === 1 ? `the ${options.scopes[0]} scope` : `one of the scopes ${options.scopes.join(", ")}`;
    throw new AppError("forbidden", `this credential lacks ${needed}`);
  }
  const rateLimit = rateLimitOutcome(limit, gate);

  return {
    auth: {
      credentialId: credential.id,
      keyId: credential.keyId,
      partnerId: credential.partnerId,
      environment: credential.environment,
      scopes: credential.scopes as Scope[],
      paymentModel: credential.paymentModel,
      isAffiliate: credential.isAffiliate,
    },
    rawBody,
    rateLimit,
    ...(options.read && { read: gate.read ?? null }),
  };
}


// The two queries below run on signed requests (the credential only when the cache
// cannot answer), so they go straight to the postgres.js client (prepared once per
// connection by query text) instead of building SQL through Drizzle each time.

/** A credential row as the gate keeps it: secrets opened once, when the row is read. */
type GateCredential = CredentialRow & {
  secret: string;
  previous?: { secret: string; expiresAtMs: number };
  /** When this process last had partner_request_gate record last_used_at/ip, and the address. */
  touched?: { atMs: number; ip: string };
};

/** partner_request_gate writes last_used_at at most this often per key (its own guard says the same). */
const LAST_USED_EVERY_MS = 60_000;

interface CredentialRow {
  id: string;
  keyId: string;
  partnerId: string;
  environment: Environment;
  secretSealed: string;
  previousSecretSealed: string | null;
  previousSecretExpiresAt: string | null;
  allowedCidrs: string[] | null;
  scopes: string[];
  revokedAt: string | null;
  paymentModel: "mor" | "non_mor";
  isAffiliate: boolean;
  suspendedAt: string | null;
}

/** The credential row with its secrets opened, from the cache when it is fresh (credential-cache.ts). */
function findCredential(db: Database, keyId: string): Promise<GateCredential | undefined> {
  return cachedCredential(keyId, async () => {
    const row = await selectCredential(db, keyId);
    return row && { ...row, secret: openSecret(row.secretSealed, row.keyId), previous: openPrevious(row) };
  });
}

async function selectCredential(db: Database, keyId: string): Promise<CredentialRow | undefined> {
  const rows = await db.$client<CredentialRow[]>`
    select c.id, c.key_id as "keyId", c.partner_id as "partnerId", c.environment,
           c.secret_sealed as "secretSealed", c.previous_secret_sealed as "previousSecretSealed",
           c.previous_secret_expires_at as "previousSecretExpiresAt", c.allowed_cidrs as "allowedCidrs",
           c.scopes, c.revoked_at as "revokedAt",
           p.payment_model as "paymentModel", p.is_affiliate as "isAffiliate",
           p.suspended_at as "suspendedAt"
    from credentials c join partners p on p.id = c.partner_id
    where c.key_id = ${keyId}`;
  return rows[0];
}

function openPrevious(row: CredentialRow): { secret: string; expiresAtMs: number } | undefined {
  if (!row.previousSecretSealed) return undefined;
  const expiresAtMs = row.previousSecretExpiresAt ? Date.parse(row.previousSecretExpiresAt) : 0;
  return { secret: openSecret(row.previousSecretSealed, row.keyId), expiresAtMs };
}

/** The secret replaced by the last roll, while its grace lasts (the clock moves; the cached row does not). */
function previousSecret(credential: GateCredential): string | undefined {
  return credential.previous && credential.previous.expiresAtMs > clock.nowMs() ? credential.previous.secret : undefined;
}

/** The rolled-out secret after its grace: only the sandbox debugger looks at it. */
function expiredSecret(credential: GateCredential): string | undefined {
  return credential.previous && !previousSecret(credential) ? credential.previous.secret : undefined;
}

interface GateResult {
  replay: boolean;
  allowed: boolean;
  remaining: number;
  resetMs: number;
  retryAfterMs: number;
  read?: unknown;
}

const dialect = new PgDialect({ casing: "snake_case" });
/**
 * The gate's statement: its columns, then (given a read's text, whose parameters come first)
 * the read's row as JSON when the request passed. Prepared once per connection by its text:
 * a route's read text is fixed, only its values vary.
 */
const gateStatement = (read?: { sql: string; params: unknown[] }) => {
  const p = (i: number) => `$${(read?.params.length ?? 0) + 1 + i}`;
  const readColumn = read ? `, case when g.allowed and not g.replay then (select row_to_json(r) from (${read.sql}) r limit 1) end as "read"` : "";
  return `select g.replay, g.allowed, g.remaining, g.reset_ms as "resetMs", g.retry_after_ms as "retryAfterMs"${readColumn}
    from partner_request_gate(${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, 60000, ${p(6)}, ${p(7)}) g`;
};
const GATE_ONLY = gateStatement();

/** One round trip to partner_request_gate (db/migrations/0024_gate_async_commit.sql). */
function recordRequest(
  db: Database,
  input: { credentialId: string; nonce: string; bucket: string | null; limit: number; ip: string; touch: boolean; read?: SQL | Query },
): Promise<GateResult> {
  // Drizzle sets this client to exchange timestamps as text.
  const now = clock.now().toISOString();
  // A read given as text and values (compiled once, discovery.ts listingRead) skips Drizzle's build.
  const read = input.read && (is(input.read, SQL) ? dialect.sqlToQuery(input.read) : input.read);
  const params = read ? read.params.slice() : [];
  params.push(input.credentialId, input.nonce, now, NONCE_TTL_MS, input.bucket, input.limit, input.ip, input.touch);
  return gateClient(db).unsafe<GateResult[]>(read ? gateStatementFor(read) : GATE_ONLY, params as never[], { prepare: true }).then(firstGateRow);
}

function firstGateRow(rows: GateResult[]): GateResult {
  const row = rows[0];
  if (!row) throw new Error("partner_request_gate returned no row");
  return row;
}

/** The gate's text per read text: a route's read has one or a few shapes, each built once. */
const gateTexts = new Map<string, string>();
function gateStatementFor(read: { sql: string; params: unknown[] }): string {
  let text = gateTexts.get(read.sql);
  if (text === undefined) {
    text = gateStatement(read);
    // Reads come from a few fixed shapes; a bound anyway, should one ever vary freely.
    if (gateTexts.size < 256) gateTexts.set(read.sql, text);
  }
  return text;
}
