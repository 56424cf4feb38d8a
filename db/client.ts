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

/** Defaults for request work; settlement runs raise theirs per transaction (SET LOCAL). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 15_000;
export const DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS = 30_000;

export function createPool(url: string, max = 10, options: PoolOptions = {}): Pool {
  if (!Number.isInteger(max) || max < 1 || max > 100) throw new Error(`pool size must be an integer from 1 to 100, not ${max}`);
  const sql = postgres(url, {
    max,
    idle_timeout: 30,
    connect_timeout: 10,
    onnotice: () => {},
    ...(options.maxPipeline ? { max_pipeline: options.maxPipeline } : {}),
    ...(options.onQuery ? { debug: (_connection: number, text: string) => options.onQuery!(text) } : {}),
    connection: {
      application_name: "partner-marketplace",
      // Sent with the startup message: no extra round trip, on every connection.
      statement_timeout: String(options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS),
      idle_in_transaction_session_timeout: String(options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS),
    } as Record<string, string>,
  });
  // Transactions reserve their connection before BEGIN (db/safe-begin.ts: a driver bug).
  const client = withSafeBegin(sql);
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
  await Promise.all([pool?.sql.end({ timeout: 5 }), pool?.listener?.end({ timeout: 1 })]);
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
    connection: { application_name: "partner-marketplace-listener" } as Record<string, string>,
  } as postgres.Options<Record<string, postgres.PostgresType>>);
  return pool.listener;
}
