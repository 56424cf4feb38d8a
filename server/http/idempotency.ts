import { sql } from "drizzle-orm";
import type { Db, Transaction } from "@/db/client";
import { executePrepared } from "@/db/compiled";
import { endingWith } from "@/db/safe-begin";
import { together } from "@/db/together";
import type { Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_TTL_HOURS } from "@/server/contracts/orders";
import { sha256Hex } from "@/server/crypto";
import { AppError, errorBody, type ErrorDetail } from "@/server/errors";

// The idempotency step of a signed write (DECISIONS "Idempotency"), used by
// POST /orders after authentication and body validation.
//
// The key row is inserted in the same transaction as the work it guards, so a
// concurrent request with the same key blocks on that row's unique-index entry
// until the first one commits or rolls back; then it replays what committed
// (or, after a rollback, runs afresh). Exactly one request executes. The work
// runs in a savepoint: a business error (404, 409, 422) rolls the work back
// but the key row keeps the answer; anything else (400, 5xx) rolls the key row
// back too, so a retry runs afresh.

export const IDEMPOTENCY_TTL_MS = IDEMPOTENCY_TTL_HOURS * 3_600_000;
/** How long a request waits for an in-flight one with its key before 409 (tests shorten it). */
export const idempotencyWait = { ms: 10_000 };
/** Answers of the guarded work that are stored and replayed. */
const STORED_STATUSES = new Set([404, 409, 422]);

export interface IdempotencyScope {
  partnerId: string;
  environment: Environment;
}

/** The Idempotency-Key header: 400 missing_idempotency_key when absent, validation_error when malformed. */
export function idempotencyKeyFrom(request: Request): string {
  const key = request.headers.get("idempotency-key");
  if (key === null || key === "") {
    throw new AppError("missing_idempotency_key", "the Idempotency-Key header is required on this request (a UUID v4 is a good choice)");
  }
  if (!IDEMPOTENCY_KEY_PATTERN.test(key)) {
    throw new AppError("validation_error", "Idempotency-Key must be 1-255 visible ASCII characters", [
      { path: "Idempotency-Key", message: "must be 1-255 visible ASCII characters (0x21-0x7E)" },
    ]);
  }
  return key;
}

interface StoredError {
  code: AppError["code"];
  message: string;
  details?: ErrorDetail[];
}

interface KeyRow extends Record<string, unknown> {
  fingerprint: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
}

export interface IdempotentInput extends IdempotencyScope {
  key: string;
  /** The body bytes as signed; their SHA-256 is the fingerprint. */
  rawBody: Uint8Array;
  requestId: string;
  /** Status of a successful execution, stored with its body. */
  successStatus: number;
}

/**
 * Runs `execute` at most once per key: returns its result (fresh or replayed)
 * or throws its stored AppError (fresh or replayed). Replayed success bodies
 * are byte-identical to the first answer (stored as JSON text, not as jsonb,
 * which would reorder keys).
 */
export async function runIdempotent<T>(db: Db, input: IdempotentInput, execute: (tx: Transaction) => Promise<T>): Promise<T> {
  await purgeExpiredKeys(db);
  const fingerprint = sha256Hex(input.rawBody);
  const now = clock.now();
  const where = sql`partner_id = ${input.partnerId} and environment = ${input.environment} and key = ${input.key}`;

  // The claim sets its transaction's lock_timeout itself (one round trip fewer than a
  // `set local`): `waiting` is read before the insert can wait on another request's key.
  const claim = sql`
    insert into idempotency_keys (partner_id, environment, key, fingerprint, state, created_at, expires_at)
    select ${input.partnerId}, ${input.environment}::environment, ${input.key}, ${fingerprint}, 'in_progress',
           ${now.toISOString()}::timestamptz, ${new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString()}::timestamptz
    from (select set_config('lock_timeout', ${String(Math.max(1, Math.trunc(idempotencyWait.ms)))}, true)) as waiting
    where true
    on conflict (partner_id, environment, key) do update
      set fingerprint = excluded.fingerprint, state = 'in_progress', response_status = null, response_body = null,
          created_at = excluded.created_at, expires_at = excluded.expires_at
      where idempotency_keys.expires_at <= excluded.created_at
    returning 1 as claimed`;

  const outcome = await db.transaction(async (tx) => {
    // The work's savepoint goes with the claim (one round trip, with the BEGIN before
    // them: db/safe-begin.ts). A replay never uses it; the commit releases it.
    const [claimed] = await together(executePrepared(tx, claim), tx.execute(sql`savepoint idempotent_work`)).catch(
      (error: unknown) => {
        throw isLockTimeout(error) ? inProgress() : error;
      },
    );

    if (claimed.length === 0) {
      // Someone committed this key first (we waited for them if they were still running).
      const [row] = await executePrepared<KeyRow>(tx, sql`
        select fingerprint, state, response_status, response_body #>> '{}' as response_body
        from idempotency_keys where ${where}`);
      if (!row || row.state !== "completed" || row.response_status === null || row.response_body === null) throw inProgress();
      if (row.fingerprint !== fingerprint) {
        throw new AppError(
          "conflict",
          "this Idempotency-Key was already used with a different request body; use a new key for a new operation",
        );
      }
      return { status: row.response_status, text: row.response_body, replayed: true };
    }

    let status = input.successStatus;
    let text: string;
    // The savepoint is released by the commit (a nested transaction would spend a round trip releasing it).
    try {
      text = JSON.stringify(await execute(tx));
    } catch (error) {
      if (!(error instanceof AppError) || !STORED_STATUSES.has(error.status)) throw error;
      await tx.execute(sql`rollback to savepoint idempotent_work`);
      status = error.status;
      text = JSON.stringify(errorBody(error, input.requestId));
    }
    // Sent with the COMMIT (db/safe-begin.ts endingWith): one round trip for both.
    const completion = executePrepared(tx, sql`
      update idempotency_keys set state = 'completed', response_status = ${status}, response_body = to_jsonb(${text}::text)
      where ${where}`);
    return endingWith(completion, () => ({ status, text, replayed: false }));
  });

  if (outcome.status < 400) return JSON.parse(outcome.text) as T;
  const stored = (JSON.parse(outcome.text) as { error: StoredError }).error;
  // The error body carries this request's request_id (it always equals X-Request-Id); the rest is as stored.
  throw new AppError(stored.code, stored.message, stored.details);
}

function inProgress(): AppError {
  return new AppError("conflict", "a request with this Idempotency-Key is in progress; retry once it has finished");
}

function isLockTimeout(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "55P03") return true;
  }
  return false;
}

const PURGE_EVERY_MS = 60_000;
let lastPurgeMs = -Infinity;

/**
 * Deletes keys older than their 24 h, at most once a minute per process.
 * Correctness does not depend on it: an expired key is overwritten on reuse.
 */
export async function purgeExpiredKeys(db: Db, force = false): Promise<number> {
  const nowMs = clock.nowMs();
  if (!force && nowMs - lastPurgeMs < PURGE_EVERY_MS) return 0;
  lastPurgeMs = nowMs;
  const rows = await db.execute(
    sql`delete from idempotency_keys where expires_at <= ${new Date(nowMs).toISOString()}::timestamptz returning 1`,
  );
  return rows.length;
}
