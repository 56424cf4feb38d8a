// npm run worker: webhook delivery and the scheduled chores on their own (npm start
// runs them beside the web server; any number may run against one database). In
// production it does not migrate (npm run migrate does, once per release): it
// refuses a database whose schema is not this release's.
// The standalone output runs the same file bundled: node worker.mjs
//   npm run worker                     every partner
//   npm run worker -- --partner ID     only these partners' endpoints (repeatable)
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { assertSchemaCurrent, migrateDatabase, SchemaMismatchError } from "@/db/migrate";
import { loadSettingsOrExit } from "@/server/cli/settings";
import { startChores } from "@/server/services/chores";
import { startWebhookWorker } from "@/server/webhooks/worker";
import { serveProcessMetrics } from "@/server/observability/metrics-server";

const argv = process.argv.slice(2);
const partnerIds: string[] = [];
for (let i = 0; i < argv.length; i++) {
  const flag = argv[i];
  const value = argv[i + 1];
  if (flag === "--partner" && value) {
    partnerIds.push(value);
    i++;
  } else {
    console.error(`npm run worker: unknown argument ${flag}; usage: npm run worker -- [--partner ID]...`);
    process.exit(2);
  }
}

const env = loadSettingsOrExit("worker");

// The same database as the server: DATABASE_URL, else the embedded one (started if down).
try {
  const url = await ensureDatabase();
  await (env.APP_ENV === "production" ? assertSchemaCurrent(url) : migrateDatabase(url));
} catch (error) {
  console.error(`worker: ${error instanceof SchemaMismatchError ? error.message : `database setup failed: ${(error as Error).message}`}`);
  process.exit(1);
}
const worker = await startWebhookWorker({ db: getDb(), partnerIds: partnerIds.length ? partnerIds : undefined });
// Chores (payment intents, pruning) belong to every partner: not run by a partner-scoped worker.
const chores = partnerIds.length ? undefined : startChores(getDb());
await serveProcessMetrics(); // GET /metrics on METRICS_PORT, when set
console.log(`webhook worker started (pid ${process.pid}${partnerIds.length ? `, partners ${partnerIds.join(", ")}` : ""})`);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void Promise.all([worker.stop(), chores?.stop()])
      .then(closeDb)
      .then(() => process.exit(0));
  });
}
