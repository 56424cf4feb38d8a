// npx tsx bench/webhooks.ts [--events N] [--endpoints 1,8] [--port P] [--modes in-process,processes]
//                           [--scenarios backlog,live,steady] [--rate R] [--seconds S] [--tick-ms T]
// Webhook delivery throughput against a local receiver (node:http on 127.0.0.1,
// port P or any free one, answering 200 at once).
//   backlog: N events are recorded first, then 1 or 2 workers (in this process, or
//            as separate processes) drain them; deliveries/s = N / time to the last one.
//   live:    workers already running, events recorded one by one; commit-to-receipt latency.
//   steady:  one worker already running (per mode), events committed at R/s (a transaction
//            every T ms, default 50, up to 4 at once) for S s, spread over the largest endpoint count;
//            commit-to-receipt latency under that load, and the rate delivered.
// Uses the same database as the server (DATABASE_URL, else the embedded one).
import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { inArray, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { webhookDeliveries } from "@/db/schema";
import { resetEnv } from "@/server/env";
import { recordEvent, recordEvents, sequenceEvents } from "@/server/services/events";
import { createPartner } from "@/server/services/partners";
import { disableWebhookEndpoint, saveWebhookEndpoint } from "@/server/services/webhooks";
import { randomBase62 } from "@/server/ids";
import { startWorkers as startSharedWorkers, type WorkerMode } from "@/reliability/lib/workers";

process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true"; // the receiver is on loopback
resetEnv();

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
};
const EVENTS = Number(arg("events", "2000"));
const ENDPOINT_COUNTS = arg("endpoints", "1,8").split(",").map(Number);
const PORT = Number(arg("port", "0"));
const MODES = arg("modes", "in-process,processes").split(",") as WorkerMode[];
const SCENARIOS = arg("scenarios", "backlog,live,steady").split(",");
const RATE = Number(arg("rate", "500"));
const SECONDS = Number(arg("seconds", "5"));
const TICK_MS = Number(arg("tick-ms", "50"));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted: number[], p: number) => (sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number).toFixed(1);

process.env.DATABASE_URL ??= await ensureDatabase();
await migrateDatabase(process.env.DATABASE_URL);
const db = getDb();

// --- receiver -------------------------------------------------------------------------
const arrivals = new Map<string, number>(); // event id -> first arrival (performance.now())
let requests = 0;
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    requests++;
    const id = String(req.headers["x-service-event-id"]);
    if (!arrivals.has(id)) arrivals.set(id, performance.now());
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  });
});
server.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => server.listen(PORT, "127.0.0.1", resolve));
const receiverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;

// --- fixtures ---------------------------------------------------------------------------
const owners: { partnerId: string; environment: "sandbox" }[] = [];

async function partners(count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const suffix = randomBase62(8).toLowerCase();
    const { partnerId } = await createPartner(db, { name: `Bench hooks ${suffix}`, email: `bench-hooks-${suffix}@bench.example`, paymentModel: "mor" });
    await saveWebhookEndpoint(db, { partnerId, environment: "sandbox", url: receiverUrl, secret: `bench-secret-${suffix}-0123456789` }, { type: "system" });
    owners.push({ partnerId, environment: "sandbox" });
    ids.push(partnerId);
  }
  return ids;
}

async function recordBacklog(partnerIds: string[], count: number): Promise<string[]> {
  const ids: string[] = [];
  // Batches of 200 per transaction, as a busy service would commit them.
  for (let start = 0; start < count; start += 200) {
    await db.transaction(async (tx) => {
      for (let i = start; i < Math.min(count, start + 200); i++) {
        const partnerId = partnerIds[i % partnerIds.length] as string;
        const data = { order: { public_id: `ord_bench${i}`, domain: `bench${i}.com`, status: "EXTERNALLY_PAID", sale_price_cents: 100_00 + i, currency: "USD" } };
        ids.push((await recordEvent(tx, { partnerId, environment: "sandbox", type: "order.recorded", data })).id);
      }
    });
  }
  return ids;
}

async function waitForAll(ids: string[], timeoutMs = 300_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (ids.some((id) => !arrivals.has(id))) {
    if (Date.now() > deadline) throw new Error(`only ${ids.filter((id) => arrivals.has(id)).length} of ${ids.length} delivered`);
    await sleep(5);
  }
  return Math.max(...ids.map((id) => arrivals.get(id) as number));
}

async function assertSucceeded(ids: string[]) {
  for (let i = 0; i < 100; i++) {
    const [row] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(webhookDeliveries)
      .where(sql`${inArray(webhookDeliveries.eventId, ids)} and ${webhookDeliveries.status} = 'succeeded'`);
    if (row?.n === ids.length) return;
    await sleep(20);
  }
  throw new Error("not every delivery was recorded as succeeded");
}

type Mode = WorkerMode;

async function startWorkers(count: number, mode: Mode, partnerIds: string[]): Promise<() => Promise<void>> {
  const running = await startSharedWorkers({ count, mode, partnerIds, db: () => db });
  return () => running.stop();
}

interface Row {
  scenario: string;
  workers: string;
  events: number;
  seconds: string;
  "deliveries/s": string;
}
const results: Row[] = [];

async function backlog(endpoints: number, workers: number, mode: Mode) {
  const partnerIds = await partners(endpoints);
  const t0 = performance.now();
  const ids = await recordBacklog(partnerIds, EVENTS);
  const recordMs = performance.now() - t0;
  const before = requests;
  // Hold the backlog back until every worker is up (child processes take a
  // moment to start), then time from the moment it falls due.
  const holdMs = mode === "processes" ? 5000 : 500;
  while ((await sequenceEvents(db)) > 0); // creates the deliveries
  await db
    .update(webhookDeliveries)
    .set({ nextAttemptAt: new Date(Date.now() + holdMs) })
    .where(inArray(webhookDeliveries.eventId, ids));
  const start = performance.now() + holdMs;
  const stop = await startWorkers(workers, mode, partnerIds);
  if (performance.now() > start) console.warn("  workers started after the backlog fell due; the figure includes start-up");
  const last = await waitForAll(ids);
  await assertSucceeded(ids);
  await stop();
  const seconds = (last - start) / 1000;
  results.push({
    scenario: `backlog, ${endpoints} endpoint${endpoints > 1 ? "s" : ""}`,
    workers: `${workers} ${mode}`,
    events: ids.length,
    seconds: seconds.toFixed(2),
    "deliveries/s": (ids.length / seconds).toFixed(0),
  });
  if (requests - before !== ids.length) console.warn(`  ${requests - before - ids.length} duplicate requests`);
  console.log(`  backlog ${endpoints}x${workers} ${mode}: recorded ${ids.length} events in ${(recordMs / 1000).toFixed(2)} s, drained in ${seconds.toFixed(2)} s`);
}

async function live(workers: number) {
  const partnerIds = await partners(4);
  const stop = await startWorkers(workers, "in-process", partnerIds);
  const latencies: number[] = [];
  const n = Math.min(400, EVENTS);
  const start = performance.now();
  for (let i = 0; i < n; i++) {
    const partnerId = partnerIds[i % partnerIds.length] as string;
    const committedAt = performance.now();
    const event = await recordEvent(db, { partnerId, environment: "sandbox", type: "order.recorded", data: { order: { public_id: `ord_live${i}` } } });
    await waitForAll([event.id]);
    latencies.push((arrivals.get(event.id) as number) - committedAt);
  }
  const seconds = (performance.now() - start) / 1000;
  await stop();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => percentile(latencies, p);
  results.push({ scenario: "live, one event at a time", workers: `${workers} in-process`, events: n, seconds: seconds.toFixed(2), "deliveries/s": (n / seconds).toFixed(0) });
  console.log(`  live ${workers} worker(s): commit-to-receipt latency p50 ${pct(0.5)} ms, p95 ${pct(0.95)} ms, p99 ${pct(0.99)} ms, max ${pct(1)} ms`);
}

async function steady(endpoints: number, mode: Mode) {
  const partnerIds = await partners(endpoints);
  const stop = await startWorkers(1, mode, partnerIds);
  const committed = new Map<string, number>(); // event id -> commit acknowledged (performance.now())
  const perTick = (RATE * TICK_MS) / 1000;
  const ticks = Math.round((SECONDS * 1000) / TICK_MS);
  let recorded = 0;
  // Open loop: a transaction every TICK_MS with the events due by then, without waiting
  // for the previous ones (at most 4 in flight), its events in one statement. Commits that
  // NOTIFY queue behind one another's WAL flush, so one event per transaction or per
  // statement would measure the recording, not the delivery.
  const inFlight = new Set<Promise<void>>();
  const commit = async (count: number) => {
    const inputs = Array.from({ length: count }, () => {
      const n = recorded++;
      const partnerId = partnerIds[n % partnerIds.length] as string;
      return { partnerId, environment: "sandbox" as const, type: "order.recorded" as const, data: { order: { public_id: `ord_steady${n}` } } };
    });
    const rows = await recordEvents(db, inputs); // one statement, its own transaction
    const at = performance.now();
    for (const row of rows) committed.set(row.id, at);
  };
  const start = performance.now();
  let owed = 0;
  for (let tick = 0; tick < ticks; tick++) {
    await sleep(Math.max(0, start + tick * TICK_MS - performance.now()));
    owed += perTick;
    const count = Math.floor(owed);
    owed -= count;
    while (inFlight.size >= 4) await Promise.race(inFlight);
    const task: Promise<void> = commit(count).finally(() => inFlight.delete(task));
    inFlight.add(task);
  }
  await Promise.all(inFlight);
  const recordSeconds = (performance.now() - start) / 1000;
  const ids = [...committed.keys()];
  const last = await waitForAll(ids);
  await assertSucceeded(ids);
  await stop();
  const seconds = (last - start) / 1000;
  const lags = ids.map((id) => (arrivals.get(id) as number) - (committed.get(id) as number)).sort((a, b) => a - b);
  results.push({ scenario: `steady ${RATE}/s, ${endpoints} endpoints`, workers: `1 ${mode}`, events: ids.length, seconds: seconds.toFixed(2), "deliveries/s": (ids.length / seconds).toFixed(0) });
  console.log(
    `  steady ${RATE}/s over ${endpoints} endpoints, 1 worker ${mode}: committed ${ids.length} events in ${recordSeconds.toFixed(2)} s (${(ids.length / recordSeconds).toFixed(0)}/s), ` +
      `last received at ${seconds.toFixed(2)} s; commit-to-receipt latency p50 ${percentile(lags, 0.5)} ms, p95 ${percentile(lags, 0.95)} ms, p99 ${percentile(lags, 0.99)} ms, max ${percentile(lags, 1)} ms`,
  );
}

console.log(`webhook delivery bench: ${EVENTS} events per run, receiver ${receiverUrl}`);
try {
  if (SCENARIOS.includes("backlog")) {
    for (const endpoints of ENDPOINT_COUNTS) {
      for (const mode of MODES) for (const workers of [1, 2]) await backlog(endpoints, workers, mode);
    }
  }
  if (SCENARIOS.includes("live")) {
    await live(1);
    await live(2);
  }
  if (SCENARIOS.includes("steady")) for (const mode of MODES) await steady(Math.max(...ENDPOINT_COUNTS), mode);
  console.table(results);
} finally {
  for (const owner of owners) await disableWebhookEndpoint(db, owner, { type: "system" }).catch(() => {});
  server.closeAllConnections();
  server.close();
  await closeDb();
}
