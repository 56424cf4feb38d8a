// npm start (npm run dev passes --dev): settings -> database (embedded unless
// DATABASE_URL) -> migrations -> demo seed -> Next build if stale -> web server
// as a child -> background workers -> banner once /api/health answers.
import type { ChildProcess } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { closeDb, getDb } from "@/db/client";
import { embeddedClusterDir, ensureDatabase, isAlive } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { registerInventoryPhrases } from "@/server/search/phrases";
import { registerInventoryVocabulary } from "@/server/search/vocabulary";
import { wordnetStats } from "@/server/search/wordnet";
import { getDemoCredential, getExampleDomain, seedDemoData } from "@/db/seed";
import { paymentsLine, startBanner } from "@/server/cli/banner";
import { spawnNext, spawnWebServer, staleBuildReason, waitForExit, waitForHealth } from "@/server/cli/next-build";
import { deriveKey } from "@/server/crypto";
import { EnvError, getEnv, type Env } from "@/server/env";
import { serveProcessMetrics } from "@/server/observability/metrics-server";

const dev = process.argv.includes("--dev");
process.env.NEXT_TELEMETRY_DISABLED = "1";
const timings: [string, number][] = [];

async function timed<T>(step: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const result = await fn();
  timings.push([step, performance.now() - t0]);
  return result;
}

function loadSettings(): Env {
  try {
    return getEnv();
  } catch (error) {
    if (error instanceof EnvError) {
      console.error(error.message);
      process.exit(1);
    }
    fail(`settings could not be loaded: ${(error as Error).message}`);
  }
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

function fail(message: string): never {
  console.error(`npm start: ${message}`);
  process.exit(1);
}

// Whatever goes wrong ends in one sentence and exit 1, never a stack trace.
process.on("uncaughtException", (error) => fail(error.message));
process.on("unhandledRejection", (reason) => fail(reason instanceof Error ? reason.message : String(reason)));

/**
 * One `npm start` per data folder: a second one (another PORT, same DATA_DIR)
 * would run a second set of workers against the same demo. A pid file whose
 * process is gone is taken over.
 */
function claimDataDir(dataDir: string): void {
  const file = path.join(dataDir, "start.pid");
  let holder: number | undefined;
  try {
    holder = Number(readFileSync(file, "utf8").trim()) || undefined;
  } catch {
    holder = undefined;
  }
  if (holder && holder !== process.pid && isAlive(holder)) {
    fail(`another npm start (pid ${holder}) is already serving the data folder ${dataDir}; stop it first or set DATA_DIR`);
  }
  try {
    writeFileSync(file, String(process.pid));
  } catch (error) {
    fail(`the data folder ${dataDir} cannot be written (${(error as NodeJS.ErrnoException).code}); set DATA_DIR to a folder you can write`);
  }
  process.on("exit", () => {
    try {
      if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file);
    } catch {
      // already gone
    }
  });
}

// Background work that runs beside the web server in this process. Each entry
// returns its stop function: webhook delivery, and the chores (payment intents, pruning).
async function startWorkers(): Promise<Array<() => Promise<void>>> {
  const { startWebhookWorker } = await import("@/server/webhooks/worker");
  const { startChores } = await import("@/server/services/chores");
  const webhooks = await startWebhookWorker({ db: getDb() });
  const chores = startChores(getDb());
  await serveProcessMetrics(); // the workers' GET /metrics on METRICS_PORT, when set
  return [() => webhooks.stop(), () => chores.stop()];
}

// Signals go to whichever child runs now (the build, then the server); the
// server's exit then ends this process with its code.
let child: ChildProcess | undefined;
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    if (child && child.exitCode === null) child.kill(signal);
    else process.exit(signal === "SIGINT" ? 130 : 143);
  });
}

const env = loadSettings();
if (await portInUse(env.PORT)) fail(`port ${env.PORT} is already in use; stop that server or set PORT`);
if (!env.DATABASE_URL) {
  try {
    mkdirSync(env.dataDir, { recursive: true });
  } catch (error) {
    fail(`the data folder ${env.dataDir} cannot be created (${(error as NodeJS.ErrnoException).code}); set DATA_DIR to a folder you can write`);
  }
}
claimDataDir(env.dataDir);

async function prepareDatabase(): Promise<string> {
  const url = await timed("database", ensureDatabase);
  await timed("migrations", () => migrateDatabase(url));
  if (env.SEED_DEMO) {
    const seed = await timed("seed", () => seedDemoData(getDb()));
    if (seed.seeded) console.log(`Seeded demo data: ${seed.sandboxDomains} sandbox and ${seed.liveDomains} live domains.`);
  }
  // Words listed while the encoder was down, or stored by another model or phrasing, are embedded now.
  const embedded = await timed("search vocabulary", () => registerInventoryVocabulary(getDb()));
  if (embedded > 0) console.log(`Embedded ${embedded} search vocabulary words.`);
  // WordNet parsed once here writes its derived file, so the server's first search reads it (0.2 s) instead of parsing (1.3 s).
  await timed("search dictionary", async () => wordnetStats());
  return url;
}

const databaseUrl = await prepareDatabase().catch((error: Error) => fail(`database setup failed: ${error.message}`));

const serverEnv: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: dev ? "development" : "production",
  // Next needs NODE_ENV=production to serve a build; the operator's mode travels separately.
  APP_ENV: env.APP_ENV,
  NEXT_TELEMETRY_DISABLED: "1",
  PORT: String(env.PORT),
  DATA_DIR: env.dataDir,
  DATABASE_URL: databaseUrl,
  SECRET_KEY: env.SECRET_KEY,
  NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET || deriveKey("nextauth").toString("hex"),
  NEXTAUTH_URL: env.APP_URL,
  APP_URL: env.APP_URL,
  MCP_URL: env.MCP_URL,
};

if (!dev) {
  const reason = staleBuildReason();
  if (reason) {
    console.log(`Building the web app (${reason})...`);
    child = spawnNext(["build"], serverEnv);
    const build = child;
    const code = await timed("build", () => waitForExit(build));
    if (code !== 0) fail(`next build failed (exit ${code}); see its output above`);
  }
}

const server = spawnWebServer(dev ? "dev" : "start", env.PORT, serverEnv);
child = server;
const stopWorkers = await startWorkers();
let failed = false;

// Labels not yet embedded as phrases (server/search/phrases.ts: a demo seed's 13k take about a minute on
// two cores) are embedded in the background: search answers meanwhile, the phrase leg from the labels done so far.
void registerInventoryPhrases(getDb()).then(
  (count) => count > 0 && console.log(`Embedded ${count} labels as search phrases.`),
  (error: unknown) => console.error(`search phrases not embedded: ${(error as Error).message}`),
);

// Whatever ends the web server ends this process, with its exit code.
void waitForExit(server).then(async (code) => {
  await Promise.allSettled(stopWorkers.map((stop) => stop()));
  await closeDb();
  process.exit(failed ? 1 : code);
});

try {
  // A dev server compiles each route on first request, so give it longer.
  await timed("web server", () => waitForHealth(`http://127.0.0.1:${env.PORT}/api/health`, server, dev ? 180_000 : 60_000));
  console.log(await banner());
} catch (error) {
  console.error(`npm start: ${(error as Error).message}`);
  failed = true;
  server.kill("SIGTERM");
}

async function banner(): Promise<string> {
  // Known demo passwords and keys are printed only in development.
  const demo = env.SEED_DEMO && env.APP_ENV === "development"
    ? await getDemoCredential(getDb()).then(
        async (credential) => ({ ...credential, exampleDomain: await getExampleDomain(getDb()) }),
        () => undefined,
      )
    : undefined;
  // Another terminal needs the same settings to find this database and server.
  const examplePrefix = [
    process.env.DATA_DIR ? `DATA_DIR=${process.env.DATA_DIR} ` : "",
    process.env.PORT || process.env.APP_URL ? `PARTNER_BASE_URL=${env.APP_URL} ` : "",
  ].join("");
  return startBanner({
    appUrl: env.APP_URL,
    mcpUrl: env.MCP_URL,
    startedInMs: performance.now(), // since this process started, imports included
    timings,
    demo,
    demoHidden: env.SEED_DEMO && env.APP_ENV !== "development",
    database: env.DATABASE_URL ? "DATABASE_URL" : `embedded PostgreSQL, cluster ${embeddedClusterDir()}`,
    examplePrefix,
    payments: paymentsLine(env.stripe),
  });
}
