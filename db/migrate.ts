import { advisoryLocks } from "@/db/locks";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

// Beside this file in the repository (db/migrations), and beside the bundled
// migrate.mjs in the standalone output (server/cli/standalone.ts copies it there).
const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

interface JournalEntry {
  tag: string;
  when: number;
}

/** The migrations this release ships, oldest first (drizzle's journal; a bundle may import the JSON and pass its entries). */
export function knownMigrations(folder = migrationsFolder): JournalEntry[] {
  const journal = JSON.parse(readFileSync(path.join(folder, "meta", "_journal.json"), "utf8")) as { entries: JournalEntry[] };
  return journal.entries.map(({ tag, when }) => ({ tag, when })).sort((a, b) => a.when - b.when);
}

export class SchemaMismatchError extends Error {
  override name = "SchemaMismatchError";
}

export interface SchemaStatus {
  /** Shipped migrations not yet applied, oldest first. */
  pending: string[];
  /** Applied migrations this release does not know (a newer release migrated the database). */
  newer: number;
}

/**
 * Compares the database's applied migrations with this release's journal. Drizzle
 * records each applied migration with its journal `when` as created_at and applies
 * those newer than the last one recorded, so both sides are compared by that time.
 */
export async function schemaStatus(
  sql: postgres.Sql,
  folder = migrationsFolder,
  known: readonly JournalEntry[] = knownMigrations(folder),
): Promise<SchemaStatus> {
  const [table] = await sql<{ exists: boolean }[]>`select to_regclass('drizzle.__drizzle_migrations') is not null as exists`;
  const applied = table?.exists
    ? (await sql<{ created_at: string }[]>`select created_at from drizzle.__drizzle_migrations`).map((row) => Number(row.created_at))
    : [];
  const last = Math.max(0, ...applied);
  const latestKnown = Math.max(0, ...known.map((m) => m.when));
  return {
    pending: known.filter((m) => m.when > last).map((m) => m.tag),
    newer: applied.filter((when) => when > latestKnown).length,
  };
}

function tooNew(status: SchemaStatus, folder: string): SchemaMismatchError {
  const latest = knownMigrations(folder).at(-1)?.tag ?? "none";
  return new SchemaMismatchError(
    `the database holds ${status.newer} migration(s) newer than this release knows (its latest is ${latest}); run the release that migrated it, or a newer one`,
  );
}

/**
 * Apply committed migrations; an advisory lock keeps concurrent starters from
 * racing, so running it twice (or on several hosts at once) applies each once.
 * Refuses (SchemaMismatchError, nothing changed) on a database a newer release migrated.
 * Returns the tags it applied.
 */
export async function migrateDatabase(url: string, folder = migrationsFolder): Promise<string[]> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${advisoryLocks.migrate})`;
    const status = await schemaStatus(sql, folder);
    if (status.newer > 0) throw tooNew(status, folder);
    if (status.pending.length > 0) await migrate(drizzle(sql), { migrationsFolder: folder });
    return status.pending;
  } finally {
    await sql`select pg_advisory_unlock(${advisoryLocks.migrate})`.catch(() => {});
    await sql.end();
  }
}

/**
 * For processes that must not migrate (a production worker or web server): the
 * database must hold exactly this release's schema. Throws one sentence otherwise.
 */
export async function assertSchemaCurrent(url: string, folder = migrationsFolder): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const status = await schemaStatus(sql, folder);
    if (status.newer > 0) throw tooNew(status, folder);
    if (status.pending.length > 0) {
      throw new SchemaMismatchError(`the database lacks ${status.pending.length} migration(s) of this release (first: ${status.pending[0]}); run npm run migrate first`);
    }
  } finally {
    await sql.end();
  }
}
