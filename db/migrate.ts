import { advisoryLocks } from "@/db/locks";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** Apply committed migrations; an advisory lock keeps concurrent starters from racing. */
export async function migrateDatabase(url: string): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${advisoryLocks.migrate})`;
    await migrate(drizzle(sql), { migrationsFolder });
  } finally {
    await sql`select pg_advisory_unlock(${advisoryLocks.migrate})`.catch(() => {});
    await sql.end();
  }
}
