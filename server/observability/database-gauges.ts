import { sql } from "drizzle-orm";
import { APPLICATION_NAMES, type Database } from "@/db/client";
import { clock } from "@/server/clock";
import { describeError } from "@/server/log";
import { queueFigures } from "@/server/services/admin-health";
import { getLogger } from "./logger";
import { getMetrics } from "./metrics";

// The gauges a scrape reads from the database, never a request: the webhook
// queue (shared by every worker, so any web instance can report it) and the
// connections the server holds for the service. Two queries, sent at once.

/** A scrape gives up on the database after this long and reports database_up 0. */
const SCRAPE_DB_TIMEOUT_MS = 2000;

export async function refreshDatabaseGauges(db: Database, poolMax: number): Promise<void> {
  const metrics = getMetrics();
  metrics.poolMax.set(poolMax);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${SCRAPE_DB_TIMEOUT_MS} ms`)), SCRAPE_DB_TIMEOUT_MS);
  });
  try {
    const [queue, connections] = await Promise.race([Promise.all([queueFigures(db, clock.now()), serverConnections(db)]), timeout]);
    metrics.webhookQueue.set({ state: "pending" }, queue.pending);
    metrics.webhookQueue.set({ state: "in_flight" }, queue.inFlight);
    metrics.webhookQueue.set({ state: "due" }, queue.due);
    metrics.webhookQueueLag.set(queue.lagSeconds);
    metrics.serverConnections.reset();
    for (const row of connections) metrics.serverConnections.set({ state: row.state }, row.n);
    metrics.databaseUp.set(1);
  } catch (error) {
    metrics.databaseUp.set(0);
    getLogger().warn({ error: describeError(error) }, "metrics scrape: database gauges not refreshed");
  } finally {
    clearTimeout(timer);
  }
}

async function serverConnections(db: Database) {
  // application_name is the pool's or the gate's (db/client.ts); this query's own connection counts as active.
  return db.execute<{ state: string; n: number }>(sql`
    select coalesce(state, 'unknown') as state, count(*)::int as n
    from pg_stat_activity
    where datname = current_database() and application_name in (${APPLICATION_NAMES.pool}, ${APPLICATION_NAMES.gate})
    group by 1`);
}
