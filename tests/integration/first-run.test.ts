import assert from "node:assert/strict";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir, userInfo } from "node:os";
import path from "node:path";
import { describe, it } from "node:test";
import { runScript } from "../helpers/script";

// A newcomer's first run: the embedded database starts from a clone in a private
// folder (0700, a space in its path) as root or not, a lock left by a killed
// start is taken over at once, and every failure to start is one sentence and a
// non-zero exit, never a stack trace.

const run = runScript;

/** The environment of a fresh shell: no DATABASE_URL, no test settings. */
function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const { DATABASE_URL: _url, NODE_ENV: _mode, ...env } = process.env;
  return { ...env, ...extra };
}

function privateFolder(): string {
  const root = mkdtempSync(path.join(tmpdir(), "pdm first run "));
  chmodSync(root, 0o700);
  return root;
}

/** A pid that is not running. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid--) {
    try {
      process.kill(pid, 0);
    } catch {
      return pid;
    }
  }
}

function assertOneSentence(stderr: string, pattern: RegExp) {
  const lines = stderr.split("\n").filter((line) => line.trim() && !line.startsWith("npm warn"));
  assert.equal(lines.length, 1, `expected one line, got:\n${stderr}`);
  assert.match(lines[0]!, pattern);
  assert.doesNotMatch(stderr, /^\s+at /m);
  assert.doesNotMatch(stderr, /Unhandled|ERR_UNHANDLED_REJECTION/);
}

describe("first run anywhere", () => {
  it(`the embedded database starts from a private folder with a space in its path, past a stale lock (as ${userInfo().username})`, async () => {
    const root = privateFolder();
    const dataDir = path.join(root, "my clone", ".data");
    mkdirSync(path.join(dataDir, "pg.lock"), { recursive: true });
    writeFileSync(path.join(dataDir, "pg.lock", "pid"), String(deadPid())); // left by a killed start
    let cluster: string | undefined;
    try {
      const ran = await run(["tests/helpers/embedded-probe.ts"], cleanEnv({ DATA_DIR: dataDir }), 90_000);
      assert.equal(ran.code, 0, ran.stderr);
      const result = JSON.parse(ran.stdout.trim().split("\n").pop()!) as { user: string; cluster: string; stopped: boolean; ms: number };
      cluster = result.cluster;
      assert.equal(result.user, "postgres");
      assert.equal(result.stopped, true);
      assert.ok(result.ms < 60_000, `took ${result.ms} ms (a stale lock once cost 120 s)`);
      if (userInfo().uid === 0) assert.ok(result.cluster.startsWith("/var/lib/partner-marketplace/"), result.cluster);
      else assert.ok(result.cluster.startsWith(dataDir), result.cluster);
      assert.ok(!existsSync(path.join(dataDir, "pg.lock")));
    } finally {
      rmSync(root, { recursive: true, force: true });
      if (cluster?.startsWith("/var/lib/partner-marketplace/")) rmSync(path.dirname(cluster), { recursive: true, force: true });
    }
  });

  describe("a failure to start is one sentence and exit 1", () => {
    it("port taken", async () => {
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const port = (server.address() as { port: number }).port;
      const root = privateFolder();
      try {
        const ran = await run(["scripts/start.ts"], cleanEnv({ PORT: String(port), DATA_DIR: path.join(root, "data") }));
        assert.equal(ran.code, 1);
        assertOneSentence(ran.stderr, new RegExp(`^npm start: port ${port} is already in use`));
      } finally {
        server.close();
        rmSync(root, { recursive: true, force: true });
      }
    });

    it("the web server of a production build, without SECRET_KEY, refuses to start rather than answer 500s", async () => {
      const root = privateFolder();
      try {
        const { SECRET_KEY: _key, APP_ENV: _app, ...rest } = cleanEnv({ DATA_DIR: path.join(root, "data") });
        const ran = await run(["scripts/serve.ts", "start", "-p", "3998"], rest);
        assert.equal(ran.code, 1);
        assert.match(ran.stderr, /^Invalid settings:\n {2}SECRET_KEY: required in production/);
        assert.doesNotMatch(ran.stderr, /^\s+at /m);
        assert.doesNotMatch(ran.stdout, /listening/);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });

    it("data folder cannot be written", async () => {
      const root = privateFolder();
      const file = path.join(root, "a-file");
      writeFileSync(file, "");
      try {
        const ran = await run(["scripts/start.ts"], cleanEnv({ PORT: "3999", DATA_DIR: path.join(file, "data") }));
        assert.equal(ran.code, 1);
        assertOneSentence(ran.stderr, /^npm start: .*(cannot be|could not be).*(ENOTDIR|not a directory)/i);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });

    it("a second npm start on the same data", async () => {
      const root = privateFolder();
      const dataDir = path.join(root, "data");
      mkdirSync(dataDir);
      writeFileSync(path.join(dataDir, "start.pid"), String(process.pid)); // alive: this test process stands in
      try {
        const ran = await run(["scripts/start.ts"], cleanEnv({ PORT: "3998", DATA_DIR: dataDir }));
        assert.equal(ran.code, 1);
        assertOneSentence(ran.stderr, new RegExp(`^npm start: another npm start \\(pid ${process.pid}\\) is already serving the data folder`));
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });

    it("a stale pid file is taken over (then an unreachable database is one sentence too)", async () => {
      const root = privateFolder();
      const dataDir = path.join(root, "data");
      mkdirSync(dataDir);
      writeFileSync(path.join(dataDir, "start.pid"), String(deadPid()));
      try {
        const env = cleanEnv({ PORT: "3997", DATA_DIR: dataDir, DATABASE_URL: "postgres://nobody@127.0.0.1:1/none" });
        const ran = await run(["scripts/start.ts"], env);
        assert.equal(ran.code, 1);
        assertOneSentence(ran.stderr, /^npm start: database setup failed: /);
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });
  });
});
