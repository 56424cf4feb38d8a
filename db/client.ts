import { drizzle, type PostgresJsDatabase } from "drizzle-orm/postgres-js";
import type { PgTransaction } from "drizzle-orm/pg-core";
import type { PostgresJsQueryResultHKT } from "drizzle-orm/postgres-js";
import type { ExtractTablesWithRelations } from "drizzle-orm";
import postgres from "postgres";
import * as schema from "./schema";
import { getEnv } from "@/server/env";
import { resolveDatabaseUrl } from "./embedded";

export type Schema = typeof schema;
export type Database = PostgresJsDatabase<Schema> & { $client: postgres.Sql };
export type Transaction = PgTransaction<PostgresJsQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** What services take: the pool or a caller's transaction. */
export type Db = Database | Transaction;

interface Pool {
  db: Database;
  sql: postgres.Sql;
}

// One pool per process; kept on globalThis so Next's dev reloads don't leak pools.
const holder = globalThis as unknown as { __pdmPool?: Pool };

/**
 * Trigram similarity a label needs for the search's `%` operator (pg_trgm's default
 * is 0.3): at 0.3 a nine-letter query hands 21,000 of a million labels to the
 * recheck for a few hundred matches (72 ms); at 0.5 the typo and partial-name
 * matches the label leg is for still pass ("piza" ~ pizza 0.57, "bestpizza" ~
 * bestpizzashop 0.71) and the leg stays within a few milliseconds.
 */
export const TRIGRAM_THRESHOLD = 0.5;

export interface PoolOptions {
  trigramThreshold?: number;
  /** A statement running longer is cancelled (57014); 0 turns it off (bulk loads, benchmarks). */
  statementTimeoutMs?: number;
  /** A transaction left idle this long (a stuck request holding locks) is ended by the server. */
  idleInTransactionTimeoutMs?: number;
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
    connection: {
      application_name: "partner-marketplace",
      // Sent with the startup message: no extra round trip, on every connection.
      "pg_trgm.similarity_threshold": String(options.trigramThreshold ?? TRIGRAM_THRESHOLD),
      statement_timeout: String(options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS),
      idle_in_transaction_session_timeout: String(options.idleInTransactionTimeoutMs ?? DEFAULT_IDLE_IN_TRANSACTION_TIMEOUT_MS),
    } as Record<string, string>,
  });
  return { sql, db: drizzle(sql, { schema, casing: "snake_case" }) };
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

export async function closeDb(): Promise<void> {
  const pool = holder.__pdmPool;
  holder.__pdmPool = undefined;
  await pool?.sql.end({ timeout: 5 });
}
