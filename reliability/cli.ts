// npm run reliability:<harness>: one harness against the database DATABASE_URL
// names (else the embedded one), its figures as a table; exit 1 when a target is missed.
//   npm run reliability:concurrency        REL_KEYS, REL_PER_KEY, REL_PARALLEL_KEYS
//   npm run reliability:limits             REL_NONCES, REL_SKEWS, REL_BURST, REL_BURSTS, REL_PROCESSES
//   npm run reliability:fuzz               REL_FUZZ_RUNS, REL_FORM_RUNS, REL_SEED, REL_FUZZ_BATCH
//   npm run reliability:fuzz-forms         REL_FORM_RUNS, REL_SEED (the page forms alone; with REL_URLS over HTTP)
//   npm run reliability:webhook-faults     REL_EVENTS, REL_WORKERS, REL_WORKER_MODE, REL_SCHEDULE_MS, REL_TIMEOUT_MS
//   npm run reliability:scale-out          REL_EVENTS, REL_PARTNERS, REL_REVOCATIONS
//   npm run reliability:crash              REL_ORDERS, REL_CHECKOUTS, REL_CLIENTS, REL_CYCLES, REL_KILL_EVERY_MS,
//                                          REL_DB_CUT_EVERY, REL_DB_STOP_EVERY, REL_DB_PORT (its own PostgreSQL)
// REL_URLS=http://host:port,... sends to running servers instead of gate-server
// processes / the in-process handlers (see reliability/README.md).
import { performance } from "node:perf_hooks";
import { closeDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { flushRequestLog } from "@/server/services/request-log";
import { envNumber, formatReport, missed, type Report } from "./lib/figures";
import { inProcess, startGateServers, targetsFromEnv, type ServerProcesses } from "./lib/transport";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const harness = process.argv[2];
// The crash harness makes a cluster of its own (it crashes it): no database of yours is touched.
if (harness !== "crash") {
  process.env.DATABASE_URL ??= await ensureDatabase();
  await migrateDatabase(process.env.DATABASE_URL);
}

let servers: ServerProcesses | undefined;
/** Running servers from REL_URLS, else `count` gate-server processes (0: this process). */
async function targets(count: number) {
  if (process.env.REL_URLS) return targetsFromEnv([]);
  if (count === 0) return [inProcess];
  servers = await startGateServers(count);
  return servers.targets;
}

/** Page forms: over HTTP to the first of REL_URLS (a served build), else through their schemas and services here. */
async function formFuzz(): Promise<Report> {
  const options = { runs: envNumber("REL_FORM_RUNS", 500), seed: envNumber("REL_SEED", 1) };
  const served = process.env.REL_URLS?.split(",").find(Boolean);
  return served
    ? (await import("./fuzz-forms-http")).runHttpFormFuzz({ baseUrl: served, ...options })
    : (await import("./fuzz-forms")).runFormFuzz(options);
}

const started = performance.now();
let report: Report;
switch (harness) {
  case "concurrency": {
    const { runConcurrency } = await import("./concurrency");
    report = await runConcurrency({
      targets: await targets(envNumber("REL_PROCESSES", 0)),
      keys: envNumber("REL_KEYS", 100),
      perKey: envNumber("REL_PER_KEY", 100),
      parallelKeys: envNumber("REL_PARALLEL_KEYS", 5),
    });
    break;
  }
  case "limits": {
    const { runLimits } = await import("./limits");
    report = await runLimits({
      targets: await targets(envNumber("REL_PROCESSES", 2)),
      nonces: envNumber("REL_NONCES", 2000),
      skews: envNumber("REL_SKEWS", 1000),
      burst: envNumber("REL_BURST", 200),
      bursts: envNumber("REL_BURSTS", 5),
    });
    break;
  }
  case "fuzz": {
    const { runFuzz } = await import("./fuzz");
    const [target] = await targets(0);
    report = await runFuzz({
      target: target!,
      runs: envNumber("REL_FUZZ_RUNS", 100_000),
      seed: envNumber("REL_SEED", Date.now() % 1_000_000),
      batch: envNumber("REL_FUZZ_BATCH", 100),
      advanceClock: !process.env.REL_URLS,
    });
    const forms = await formFuzz();
    report = { harness: `${report.harness}; ${forms.harness}`, figures: [...report.figures, ...forms.figures.map((f) => ({ ...f, name: `forms: ${f.name}` }))], samples: [...report.samples, ...forms.samples] };
    break;
  }
  case "fuzz-forms":
    report = await formFuzz();
    break;
  case "webhook-faults": {
    const { runWebhookFaults } = await import("./webhook-faults");
    report = await runWebhookFaults({
      events: envNumber("REL_EVENTS", 20),
      workers: envNumber("REL_WORKERS", 2),
      mode: process.env.REL_WORKER_MODE === "processes" ? "processes" : "in-process",
      schedule: (process.env.REL_SCHEDULE_MS ?? "300,600,1200").split(",").map(Number),
      timeoutMs: envNumber("REL_TIMEOUT_MS", 1000),
    });
    break;
  }
  case "scale-out": {
    const { runScaleOut } = await import("./scale-out");
    report = await runScaleOut({ events: envNumber("REL_EVENTS", 2000), partners: envNumber("REL_PARTNERS", 8), revocations: envNumber("REL_REVOCATIONS", 10) });
    break;
  }
  case "crash": {
    const { runCrash } = await import("./crash");
    report = await runCrash({
      orders: envNumber("REL_ORDERS", 2000),
      checkouts: envNumber("REL_CHECKOUTS", 500),
      clients: envNumber("REL_CLIENTS", 16),
      cycles: envNumber("REL_CYCLES", 60),
      killEveryMs: envNumber("REL_KILL_EVERY_MS", 2000),
      dbCutEvery: envNumber("REL_DB_CUT_EVERY", 20),
      dbStopEvery: envNumber("REL_DB_STOP_EVERY", 25),
      dbPort: process.env.REL_DB_PORT ? Number(process.env.REL_DB_PORT) : undefined,
    });
    break;
  }
  default:
    console.error(`unknown harness "${harness}"`);
    process.exit(2);
}
await servers?.stop();
if (harness !== "crash") await flushRequestLog(); // the crash harness's cluster is gone by now
await closeDb();
console.log(formatReport(report));
console.log(`took ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(missed(report).length ? 1 : 0);
