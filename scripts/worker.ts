// npm run worker: the webhook delivery worker on its own (npm start runs one beside
// the web server; any number may run against one database).
//   npm run worker                     every partner
//   npm run worker -- --partner ID     only these partners' endpoints (repeatable)
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { EnvError, getEnv } from "@/server/env";
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

try {
  getEnv();
} catch (error) {
  if (!(error instanceof EnvError)) throw error;
  console.error(error.message);
  process.exit(1);
}

// The same database as the server: DATABASE_URL, else the embedded one (started if down).
await migrateDatabase(await ensureDatabase());
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
