// npm run --silent admin -- <command> [flags] [--json]: the operations CLI of
// DECISIONS "Operations CLI". One JSON document on stdout and exit 0, or
// {"error":{code,message}} on stderr and exit 1.
import { closeDb, getDb, type Database } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { runAdminCommand } from "@/server/cli/admin-commands";
import { commands } from "@/server/cli/admin-table";
import { printError, printResult } from "@/server/cli/args";
import { createLogger, installLogger } from "@/server/observability/logger";

// Stdout is the answer: a failure a service logs on the way goes to stderr.
installLogger(createLogger({ fd: 2 }));

const argv = process.argv.slice(2);
let database: Database | undefined;

// The same database as the server: DATABASE_URL, else the embedded one (started if down).
async function db(): Promise<Database> {
  if (!database) {
    await migrateDatabase(await ensureDatabase());
    database = getDb();
  }
  return database;
}

let exitCode = 0;
try {
  const result = await runAdminCommand(commands, argv, { db, actor: { type: "cli" } });
  printResult(result, argv.includes("--json"));
} catch (error) {
  printError(error);
  exitCode = 1;
} finally {
  await closeDb();
}
process.exit(exitCode);
