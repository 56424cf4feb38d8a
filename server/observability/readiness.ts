import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import journal from "@/db/migrations/meta/_journal.json";
import { schemaStatus } from "@/db/migrate";
import { describeError } from "@/server/log";
import { searchLoadingReason } from "@/server/search/warm";

// Readiness (GET /api/health/ready): may this process take traffic? Not while
// the database is unreachable, nor while migrations this build ships are not
// applied (a release whose migrate step has not run yet, or failed): the same
// comparison `npm run migrate` makes (db/migrate.ts schemaStatus), with the journal
// bundled into this build rather than read from a folder beside it. Once a process has seen its migrations applied it stops asking
// (they are never unapplied); each check is then one `select 1`.
//
// A web process is not ready either while it loads its search index, for at
// most a minute (server/search/warm.ts says why it waits, and why not longer).
//
// A database ahead of this build (a newer release migrated it first) is ready:
// during a rolling deploy the old instances keep serving.

export interface Readiness {
  ready: boolean;
  database: "ok" | "unreachable";
  /** Migrations this build ships that the database lacks, by tag; null when the database did not answer. */
  pendingMigrations: string[] | null;
  /** Why not ready, in one sentence. */
  reason?: string;
}

/** A probe gives up on the database after this long. */
export const READY_TIMEOUT_MS = 2000;
const entries: readonly { when: number; tag: string }[] = journal.entries;

// Pools whose database was seen fully migrated (globalThis: shared with every route bundle).
const holder = globalThis as unknown as { __pdmMigrated?: WeakSet<object> };
const migrated = (holder.__pdmMigrated ??= new WeakSet());

export async function checkReadiness(db: Database, timeoutMs = READY_TIMEOUT_MS): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const pending = migrated.has(db) ? [] : await Promise.race([pendingMigrations(db), timeout]);
    if (pending.length > 0) {
      const reason = `${pending.length} migration(s) not applied yet (${pending.join(", ")}); run the migrate step`;
      return { ready: false, database: "ok", pendingMigrations: pending, reason };
    }
    if (migrated.has(db)) await Promise.race([db.execute(sql`select 1`), timeout]);
    else migrated.add(db);
    const loading = searchLoadingReason();
    if (loading) return { ready: false, database: "ok", pendingMigrations: [], reason: loading };
    return { ready: true, database: "ok", pendingMigrations: [] };
  } catch (error) {
    return { ready: false, database: "unreachable", pendingMigrations: null, reason: `the database is not answering: ${describeError(error).split("\n", 1)[0]}` };
  } finally {
    clearTimeout(timer);
  }
}

async function pendingMigrations(db: Database): Promise<string[]> {
  return (await schemaStatus(db.$client, undefined, entries)).pending;
}
