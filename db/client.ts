import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgTransaction } from "drizzle-orm/pg-core";
import type { PostgresJsQueryResultHKT } from "drizzle-orm/postgres-js";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import postgres from "postgres";
import * as schema from "./schema";
import { getEnv } from "@/server/env";
import { resolveDatabaseUrl } from "./embedded";
import { withSafeBegin } from "./safe-begin";

export type Schema = typeof schema;
export type Database = PostgresJsDatabase<Schema> & { $client: postgres.Sql };
export type Transaction = PgTransaction<PostgresJsQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What services take: the pool or a caller's transaction. */
export type Db = Database | Transaction;

interface Pool {
  db: Database;
  sql: postgres.Sql;
  /** The LISTEN connection beside the pool (server/http/credential-cache.ts), ended with it. */
  listener?: postgres.Sql;
  /** The signed-request gate's own few connections (gateClient), ended with the pool. */
  gate?: postgres.Sql;
}

// One pool per process; kept on globalThis so Next's dev reloads don't leak pools.
const holder = globalThis as unknown as { __pdmPool?: Pool };

// Search sets its trigram thresholds per statement (server/search/engine.ts,
// trigramThresholds), not in the startup message. The two timeouts below are
// startup parameters: behind a transaction-pooling PgBouncer, list them in its
// ignore_startup_parameters and set them on the role instead
// (ALTER ROLE app SET statement_timeout = '15s'), which every session then gets.
export interface PoolOptions {
  /** A statement running longer is cancelled (57014); 0 turns it off (bulk loads, benchmarks). */
  statementTimeoutMs?: number;
  /** A transaction left idle this long (a stuck request holding locks) is ended by the server. */
  idleInTransactionTimeoutMs?: number;
  /** Called with each statement's text as it is sent (bench/round-trips.ts counts them). */
  onQuery?: (text: string) => void;
  /** Queries pipelined on one busy connection (postgres.js default 100; tests lower it). */
  maxPipeline?: number;
}

/** The application_name of each kind of connection this service opens (pg_stat_activity tells them apart). */
export const APPLICATION_NAMES = { pool: "partner-marketplace", gate: "partner-marketplace-gate", listener: "partner-marketplace-listener" } as const;

/** Defaults for request work; settlement runs raise theirs per transaction (SET LOCAL). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

function connect(url: string, max: number, options: PoolOptions, applicationName: string): postgres.Sql {
  if (!Number.isInteger(max) || max < 1 || max > 100) throw new Error(`pool size must be an integer from 1 to 100, not ${max}`);
  return postgres(url, {
    max,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    ...(options.maxPipeline ? { max_pipeline: options.maxPipeline } : {}),
    ...(options.onQuery ? { debug: (_connection: number, text: string) => options.onQuery!(text) } : {}),
    connection: {
      application_name: applicationName,
      // Sent with the startup message: no extra round trip, on every connection.
      statement_timeout: String(options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS),
      idle_in_transaction_session_timeout: String(options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS),
    } as Record<string, string>,
  });
}

export function createPool(url: string, max = 10, options: PoolOptions = {}): Pool {
  // Transactions reserve their connection before BEGIN (db/safe-begin.ts: a driver bug).
  const client = withSafeBegin(connect(url, max, options, APPLICATION_NAMES.pool));
  return { sql: client, db: drizzle(client, { schema, casing: "snake_case" }) };
}

export function getPool(): Pool {
  if (!holder.__pdmPool) {
    const env = getEnv();
    holder.__pdmPool = createPool(resolveDatabaseUrl(), env.DB_POOL_MAX, { statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS });
  }
  return holder.__pdmPool;
}

export function getDb(): Database {
  return getPool().db;
}

/**
 * The client for the signed-request gate's one statement (server/http/authenticate.ts):
 * for the process's pool, a few connections of its own (DB_GATE_POOL_MAX, default 2)
 * beside the DB_POOL_MAX of everything else; for any other database handle (tests,
 * scripts), that handle's own client.
 *
 * Few connections on purpose: postgres.js puts a query on an idle connection while
 * it has one, and pipelines onto busy ones only when all are taken. With the main
 * pool's ten, sixteen concurrent signed requests each woke a backend of their own and
 * wrote their own packet; on two, the statements of one event-loop turn go out in one
 * write, a backend answers several in one read, and one socket read resolves them
 * (bench/HOT-PATH.md section 14: signed GET /availability about +25 % req/s). The gate's
 * statement is short (a nonce insert, a bucket update, an indexed read), so nothing
 * long waits in front of it, as a search or an order transaction would on a shared
 * pipelined pool.
 */
export function gateClient(db: Database): postgres.Sql {
  const pool = holder.__pdmPool;
  if (!pool || pool.db !== db) return db.$client;
  if (!pool.gate) {
    const env = getEnv();
    pool.gate = connect(resolveDatabaseUrl(), env.DB_GATE_POOL_MAX, { statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS }, APPLICATION_NAMES.gate);
  }
  return pool.gate;
}

// Work tied to the pool (the credential cache's heartbeat) stops before it ends,
// so nothing reopens a pool behind closeDb.
const closeHooks = ((globalThis as unknown as { __pdmCloseHooks?: Set<() => void> }).__pdmCloseHooks ??= new Set());

export function onCloseDb(hook: () => void): void {
  closeHooks.add(hook);
}

export async function closeDb(): Promise<void> {
  for (const hook of closeHooks) hook();
  const pool = holder.__pdmPool;
  holder.__pdmPool = undefined;
  await Promise.all([pool?.sql.end({ timeout: 5 }), pool?.gate?.end({ timeout: 5 }), pool?.listener?.end({ timeout: 1 })]);
}

export interface ListenerHooks {
  onnotify: (channel: string, payload: string) => void;
  /** The connection dropped: whatever was announced meanwhile is lost until LISTEN runs again. */
  onclose: () => void;
}

/**
 * One connection per process for LISTEN, beside the pool (a pooled connection
 * would be handed to other queries). It reconnects on its next query, without
 * its LISTENs: the caller re-issues them after onclose. Ended by closeDb.
 */
export function getListenerConnection(hooks: ListenerHooks): postgres.Sql {
  const pool = getPool();
  // onnotify and onclose are options postgres.js reads (its own listen() uses them) but does not type.
  pool.listener ??= postgres(resolveDatabaseUrl(), {
    max: 1,
    idle_timeout: 0,
    max_lifetime: 0,
    connect_timeout: 5,
    fetch_types: false,
    onnotice: () => {},
    onnotify: hooks.onnotify,
    onclose: hooks.onclose,
    connection: { application_name: APPLICATION_NAMES.listener } as Record<string, string>,
  } as postgres.Options<Record<string, postgres.PostgresType>>);
  return pool.listener;
}
