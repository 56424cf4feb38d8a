import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import http from "node:http";
import { after, before, describe, it } from "node:test";
import { packageStandalone } from "@/server/cli/standalone";
import { waitForHealth } from "@/server/cli/next-build";
import { stopChildren } from "@/reliability/lib/processes";
import { standaloneStage } from "../helpers/standalone-stage";

// `node web.mjs` with WEB_CONCURRENCY=2, from the standalone build, as a 2-core host runs
// it: a node:cluster primary and two workers on one port. Which worker answered is read
// from the JSON log lines (pid, worker), never from a response header.

const PORT = Number(process.env.DEPLOY_PORT ?? 3300) + 3; // two-instances.test.ts uses the three before
const base = `http://127.0.0.1:${PORT}`;
const { admin, dbName, shared } = standaloneStage("cluster");
const token = randomBytes(16).toString("hex");
const env = {
  ...shared,
  APP_ENV: "production",
  NODE_ENV: "production",
  APP_URL: base,
  PORT: String(PORT),
  METRICS_TOKEN: token,
  WEB_CONCURRENCY: "2",
};
let standalone = "";
let web: ChildProcess | undefined;
let output = "";

function start(file: string, extra: Record<string, string> = {}): ChildProcess {
  const child = spawn(process.execPath, [file], { cwd: standalone, env: { ...env, ...extra } as NodeJS.ProcessEnv, stdio: ["ignore", "pipe", "pipe"] });
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk));
  return child;
}

/** One request on a connection of its own, so the primary hands each to the next worker. */
function get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${base}${path}`, { agent: false, headers }, (response) => {
        let body = "";
        response.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ status: response.statusCode!, body }));
      })
      .on("error", reject);
  });
}

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 15_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The workers that logged a line for `route`, by pid, with their worker ids. */
function answeredBy(route: string): Map<number, number> {
  const workers = new Map<number, number>();
  for (const line of output.split("\n")) {
    if (!line.startsWith("{")) continue;
    const entry = JSON.parse(line) as { route?: string; pid: number; worker?: number };
    if (entry.route === route) workers.set(entry.pid, entry.worker ?? -1);
  }
  return workers;
}

const listening = () => [...output.matchAll(/web server listening on port \d+ \(worker (\d+), pid (\d+)\)/g)].map((m) => ({ id: Number(m[1]), pid: Number(m[2]) }));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const counted = (text: string, route: string) => Number(new RegExp(`^http_requests_total\\{route="${route.replace(/\//g, "\\/")}",method="GET",status="200"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);

describe("the standalone web server with WEB_CONCURRENCY=2", () => {
  before(async () => {
    standalone = await packageStandalone();
    await admin.unsafe(`create database ${dbName}`);
    const migrate = start("migrate.mjs");
    assert.equal(await new Promise((resolve) => migrate.on("exit", resolve)), 0, output);
    web = start("web.mjs");
    await waitForHealth(`${base}/api/health`, web, 60_000).catch((error: Error) => {
      console.log(output);
      throw error;
    });
    await until("two workers listening", () => (listening().length === 2 ? true : undefined));
  });

  after(async () => {
    if (web && web.exitCode === null) await stopChildren([web], "SIGKILL");
    for (const { pid } of listening()) if (alive(pid)) process.kill(pid, "SIGKILL");
    await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
    await admin.end();
    if (process.env.DEPLOY_VERBOSE) console.log(output);
  });

  it("one primary and two workers share the port: connections reach both, and each worker's log lines name it", async () => {
    assert.match(output, /web server: primary pid \d+ starting 2 workers on port \d+/);
    for (let i = 0; i < 8; i++) assert.equal((await get("/api/ping")).status, 200);
    const workers = await until("lines from both workers", () => {
      const seen = answeredBy("/api/ping");
      return seen.size === 2 ? seen : undefined;
    });
    assert.deepEqual([...workers.keys()].sort(), listening().map((w) => w.pid).sort());
    assert.deepEqual([...workers.values()].sort(), [1, 2]);
  });

  it("/metrics answers for the host: every worker's requests added up, whichever worker is scraped", async () => {
    const pings = 8; // the first test's
    const scrapes: string[] = [];
    for (let i = 0; i < 4; i++) {
      const scrape = await get("/metrics", { authorization: `Bearer ${token}` });
      assert.equal(scrape.status, 200, scrape.body);
      scrapes.push(scrape.body);
    }
    // Four connections in turn: both workers answered scrapes, and each gave the host's count.
    for (const text of scrapes) {
      assert.equal(counted(text, "/api/ping"), pings);
      assert.match(text, /^web_cluster_workers 2$/m);
      assert.match(text, /^web_cluster_worker_exits_total 0$/m);
      assert.match(text, /^database_up 1$/m);
      assert.match(text, /^db_pool_max_connections 20$/m, "two workers' pools of DB_POOL_MAX 10");
    }
  });

  it("a worker killed is replaced after its back-off, and the replacement serves", async () => {
    const [victim] = listening();
    process.kill(victim!.pid, "SIGKILL");
    await until("the primary's error line", () => (output.includes(`web worker ${victim!.id} (pid ${victim!.pid}) exited unexpectedly (SIGKILL); replacing it in 250 ms`) ? true : undefined));
    const replacement = await until("a third worker listening", () => listening().find((w) => w.id === 3));
    assert.ok(alive(replacement.pid));
    await until("the replacement's health", async () => ((await get("/api/health").catch(() => ({ status: 0 }))).status === 200 ? true : undefined));
    await until("a ping answered by the replacement", async () => {
      await get("/api/ping");
      return answeredBy("/api/ping").get(replacement.pid) === 3 ? true : undefined;
    });
    const text = (await get("/metrics", { authorization: `Bearer ${token}` })).body;
    assert.match(text, /^web_cluster_workers 2$/m);
    assert.match(text, /^web_cluster_worker_exits_total 1$/m);
  });

  it("SIGTERM stops every worker (each flushes its request log) and the primary exits 0", async () => {
    const workers = listening().filter((w) => alive(w.pid));
    assert.equal(workers.length, 2);
    const exited = new Promise<number | null>((resolve) => web!.on("exit", (code) => resolve(code)));
    const t0 = Date.now();
    web!.kill("SIGTERM");
    assert.equal(await exited, 0);
    assert.ok(Date.now() - t0 < 8_000, `stopped in ${Date.now() - t0} ms`);
    for (const { id, pid } of workers) {
      assert.ok(!alive(pid), `worker ${id} (pid ${pid}) still runs`);
      assert.match(output, new RegExp(`web server stopped on SIGTERM, request log flushed \\(worker ${id}, pid ${pid}\\)`));
    }
  });
});
