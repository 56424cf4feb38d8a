import { and, desc, eq, gte, like, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb, type Database, type Db } from "@/db/client";
import { requestLog, type Environment } from "@/db/schema";
import { clock } from "@/server/clock";
import { notFound } from "@/server/errors";
import { getEnv } from "@/server/env";
import { logError } from "@/server/log";

// The request log: every signed partner request whose key id names a real
// credential, as the dashboard shows it (kept 30 days, see prune.ts).
//
// Writes never add a round trip to a request: entries go to an in-process
// buffer that one timer writes in a single multi-row insert every FLUSH_MS (or
// sooner when BATCH_MAX are waiting). A process that dies loses at most its last
// FLUSH_MS of entries; the log is a debugging aid, not the record (the audit log
// and the orders are).

export interface RequestLogEntry {
  requestId: string;
  partnerId: string;
  environment: Environment;
  keyId: string;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  clientIp: string | null;
  /** Sandbox only: what the signature debugger found. */
  debug?: SignatureDebug | null;
  createdAt: Date;
}

/** Why a sandbox request was refused at the signature gate, and what the server computed. */
export interface SignatureDebug {
  failed: "timestamp_skew" | "nonce_reuse" | "signature" | "body_hash" | "query" | "path" | "expired_secret";
  explanation: string;
  canonicalString?: string;
  bodySha256?: string;
  serverTime?: number;
  skewSeconds?: number;
}

const FLUSH_MS = 250;
const BATCH_MAX = 500;
/** Past this many waiting (the database is down), the oldest are dropped rather than growing memory. */
const BUFFER_MAX = 50_000;

interface Buffer {
  entries: RequestLogEntry[];
  timer?: NodeJS.Timeout;
  flushing?: Promise<void>;
  dropped: number;
}

// One buffer per process, shared by every route bundle Next loads.
const holder = globalThis as unknown as { __pdmRequestLog?: Buffer };
const buffer = (holder.__pdmRequestLog ??= { entries: [], dropped: 0 });

export function logRequest(entry: RequestLogEntry): void {
  if (!getEnv().REQUEST_LOG) return;
  buffer.entries.push(entry);
  if (buffer.entries.length > BUFFER_MAX) {
    buffer.dropped += buffer.entries.length - BUFFER_MAX;
    buffer.entries.splice(0, buffer.entries.length - BUFFER_MAX);
  }
  if (buffer.entries.length >= BATCH_MAX) void flushRequestLog();
  else if (!buffer.timer) {
    buffer.timer = setTimeout(() => void flushRequestLog(), FLUSH_MS);
    buffer.timer.unref();
  }
}

/**
 * One INSERT ... SELECT FROM json_populate_recordset: the batch travels as one JSON
 * parameter, each field read as its column's type, whatever the batch size, so
 * neither the query builder nor PostgreSQL's parser does per-row work (a 500-row
 * VALUES list has 6,000 parameters). Arrays would depend on the driver having
 * fetched the array types on the connection first, which a freshly opened one
 * may not have: then the array went as its comma-joined text (22P02).
 */
async function insertBatch(db: Database, batch: RequestLogEntry[]): Promise<void> {
  const rows = batch.map((e) => ({
    request_id: e.requestId,
    partner_id: e.partnerId,
    environment: e.environment,
    key_id: e.keyId,
    method: e.method,
    path: e.path,
    status: e.status,
    error_code: e.errorCode,
    latency_ms: e.latencyMs,
    client_ip: e.clientIp,
    debug: e.debug ?? null,
    created_at: e.createdAt.toISOString(),
  }));
  await db.$client`
    insert into request_log (request_id, partner_id, environment, key_id, method, path, status, error_code, latency_ms, client_ip, debug, created_at)
    select request_id, partner_id, environment, key_id, method, path, status, error_code, latency_ms, client_ip, debug, created_at
    from json_populate_recordset(null::request_log, ${JSON.stringify(rows)}::json)`;
}

/** Writes everything waiting (tests and shutdown call it; the timer does otherwise). */
export async function flushRequestLog(db: Database = getDb()): Promise<void> {
  if (buffer.timer) clearTimeout(buffer.timer);
  buffer.timer = undefined;
  // One flush at a time keeps batches in order.
  while (buffer.flushing) await buffer.flushing;
  if (buffer.entries.length === 0) return;
  const batch = buffer.entries.splice(0, BATCH_MAX);
  buffer.flushing = insertBatch(db, batch)
    .catch((error: unknown) => {
      // Put them back once; a database that stays down costs memory up to BUFFER_MAX, then the oldest.
      buffer.entries.unshift(...batch);
      logError("request log", error);
    })
    .finally(() => {
      buffer.flushing = undefined;
    });
  await buffer.flushing;
  if (buffer.entries.length > 0 && !buffer.timer) {
    buffer.timer = setTimeout(() => void flushRequestLog(), FLUSH_MS);
    buffer.timer.unref();
  }
}

// --- reading --------------------------------------------------------------------

export interface ListRequestsInput {
  partnerId: string;
  environment: Environment;
  /** "2xx" | "4xx" | "5xx" or an exact status. */
  status?: string;
  errorCode?: string;
  keyId?: string;
  /** Path prefix, e.g. /api/partner/v1/orders. */
  path?: string;
  from?: Date;
  to?: Date;
  /** Cursor: the last id of the previous page. */
  before?: number;
  limit: number;
}

export type RequestLogRow = typeof requestLog.$inferSelect;

function statusFilter(status: string | undefined): SQL | undefined {
  if (!status) return undefined;
  const family = /^([2-5])xx$/.exec(status);
  if (family) {
    const low = Number(family[1]) * 100;
    return and(gte(requestLog.status, low), lt(requestLog.status, low + 100));
  }
  return eq(requestLog.status, Number(status));
}

export async function listRequests(db: Db, input: ListRequestsInput) {
  const rows = await db
    .select()
    .from(requestLog)
    .where(
      and(
        eq(requestLog.partnerId, input.partnerId),
        eq(requestLog.environment, input.environment),
        statusFilter(input.status),
        input.errorCode ? eq(requestLog.errorCode, input.errorCode) : undefined,
        input.keyId ? eq(requestLog.keyId, input.keyId) : undefined,
        input.path ? like(requestLog.path, `${input.path.replace(/[\\%_]/g, "\\$&")}%`) : undefined,
        input.from ? gte(requestLog.createdAt, input.from) : undefined,
        input.to ? lte(requestLog.createdAt, input.to) : undefined,
        input.before ? lt(requestLog.id, input.before) : undefined,
      ),
    )
    .orderBy(desc(requestLog.id))
    .limit(input.limit + 1);
  const page = rows.slice(0, input.limit);
  return {
    requests: page.map(serializeRequest),
    nextCursor: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null,
  };
}

export async function getRequestOrThrow(db: Db, input: { partnerId: string; environment: Environment; id: number }) {
  const [row] = await db
    .select()
    .from(requestLog)
    .where(and(eq(requestLog.id, input.id), eq(requestLog.partnerId, input.partnerId), eq(requestLog.environment, input.environment)));
  if (!row) throw notFound("request");
  return { ...serializeRequest(row), debug: row.environment === "sandbox" ? row.debug : null };
}

/** Requests per key in the last 24 hours, for the keys list. */
export async function countRecentRequestsByKey(db: Db, input: { partnerId: string; environment: Environment }) {
  const since = new Date(clock.nowMs() - 86_400_000);
  const rows = await db
    .select({ keyId: requestLog.keyId, n: sql<number>`count(*)::int` })
    .from(requestLog)
    .where(and(eq(requestLog.partnerId, input.partnerId), eq(requestLog.environment, input.environment), gte(requestLog.createdAt, since)))
    .groupBy(requestLog.keyId);
  return new Map(rows.map((row) => [row.keyId, row.n]));
}

export function serializeRequest(row: RequestLogRow) {
  return {
    id: row.id,
    requestId: row.requestId,
    keyId: row.keyId,
    method: row.method,
    path: row.path,
    status: row.status,
    errorCode: row.errorCode,
    latencyMs: row.latencyMs,
    clientIp: row.clientIp,
    hasDebug: row.debug !== null,
    createdAt: row.createdAt.toISOString(),
  };
}
