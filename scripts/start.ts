// npm start (npm run dev passes --dev): settings -> database (embedded unless
// DATABASE_URL) -> migrations -> demo seed -> Next build if stale -> web server
// as a child -> background workers -> banner once /api/health answers.
import type { ChildProcess } from "node:child_process";
import net from "node:net";
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { registerInventoryVocabulary } from "@/server/search/vocabulary";
import { getDemoCredential, getExampleDomain, seedDemoData } from "@/db/seed";
import { startBanner } from "@/server/cli/banner";
import { spawnNext, staleBuildReason, waitForExit, waitForHealth } from "@/server/cli/next-build";
import { deriveKey } from "@/server/crypto";
import { EnvError, getEnv, type Env } from "@/server/env";

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
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
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

// Background work that runs beside the web server in this process. Each entry
// returns its stop function. The webhook delivery worker starts here.
async function startWorkers(): Promise<Array<() => Promise<void>>> {
  const { startWebhookWorker } = await import("@/server/webhooks/worker");
  const webhooks = await startWebhookWorker({ db: getDb() });
  return [() => webhooks.stop()];
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
  return url;
}

const databaseUrl = await prepareDatabase().catch((error: Error) => fail(`database setup failed: ${error.message}`));

const serverEnv: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: dev ? "development" : "production",
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

const server = spawnNext([dev ? "dev" : "start", "-p", String(env.PORT)], serverEnv);
child = server;
const stopWorkers = await startWorkers();
let failed = false;

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
  const demo = env.SEED_DEMO
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
    examplePrefix,
  });
}
