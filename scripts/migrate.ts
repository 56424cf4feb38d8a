// npm run migrate: applies this release's migrations to DATABASE_URL (else the
// embedded database), once per release before the new web and worker processes
// start. Safe to run twice or on several hosts at once (advisory lock); refuses,
// changing nothing, a database that a newer release already migrated.
// The standalone output runs the same file bundled: node migrate.mjs
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase, SchemaMismatchError } from "@/db/migrate";
import { loadSettingsOrExit } from "@/server/cli/settings";

loadSettingsOrExit("migrate");
try {
  const applied = await migrateDatabase(await ensureDatabase());
  console.log(applied.length ? `migrate: applied ${applied.length} migration(s): ${applied.join(", ")}` : "migrate: the database is up to date");
} catch (error) {
  console.error(`migrate: ${error instanceof SchemaMismatchError ? error.message : `failed: ${(error as Error).message}`}`);
  process.exit(1);
}
