import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, describe, it } from "node:test";
import postgres from "postgres";
import { resolveDatabaseUrl } from "@/db/embedded";
import { knownMigrations, migrateDatabase, schemaStatus } from "@/db/migrate";
import { closeDb } from "@/db/client";
import { runScript } from "../helpers/script";

// The release commands of README "Operate it" on databases of their own: migrate
// (once per release, safe twice or concurrently, refusing a newer schema) and the
// production worker and web server, which refuse to start on a mistake.

const base = new URL(resolveDatabaseUrl());
const admin = postgres(base.href, { max: 1, onnotice: () => {} });
const made: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `release_test_${randomBytes(4).toString("hex")}`;
  await admin.unsafe(`create database ${name}`);
  made.push(name);
  const url = new URL(base.href);
  url.pathname = `/${name}`;
  return url.href;
}

/** A production process's environment: no test settings, the database and a master key. */
function productionEnv(databaseUrl: string): Record<string, string | undefined> {
  const { NODE_ENV: _mode, ...env } = process.env;
  return { ...env, APP_ENV: "production", DATABASE_URL: databaseUrl, SECRET_KEY: "k".repeat(40) };
}

function oneSentence(stderr: string): string {
  const lines = stderr.split("\n").filter((line) => line.trim() && !line.startsWith("npm warn"));
  assert.doesNotMatch(stderr, /^\s+at /m);
  return lines.join("\n");
}

after(async () => {
  for (const name of made) await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
  await admin.end();
  await closeDb();
});

describe("release commands", () => {
  it("migrate applies every migration once, concurrently or twice, and then has nothing to do", async () => {
    const url = await freshDatabase();
    const all = knownMigrations().map((m) => m.tag);
    const [first, second] = await Promise.all([migrateDatabase(url), migrateDatabase(url)]);
    assert.deepEqual([first, second].sort((x, y) => y.length - x.length), [all, []]);
    assert.deepEqual(await migrateDatabase(url), []);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
      assert.equal(row?.n, all.length);
      assert.deepEqual(await schemaStatus(sql), { pending: [], newer: 0 });
    } finally {
      await sql.end();
    }
  });

  it("migrate refuses, changing nothing, a database a newer release migrated; a production worker refuses it too", async () => {
    const url = await freshDatabase();
    await migrateDatabase(url);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const latest = knownMigrations().at(-1)!;
      await sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', ${latest.when + 60_000})`;
      const ran = await runScript(["scripts/migrate.ts"], productionEnv(url));
      assert.equal(ran.code, 1);
      assert.equal(
        oneSentence(ran.stderr),
        `migrate: the database holds 1 migration(s) newer than this release knows (its latest is ${latest.tag}); run the release that migrated it, or a newer one`,
      );
      const worker = await runScript(["scripts/worker.ts"], productionEnv(url));
      assert.equal(worker.code, 1);
      assert.match(oneSentence(worker.stderr), /^worker: the database holds 1 migration\(s\) newer than this release knows/);
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
      assert.equal(row?.n, knownMigrations().length + 1);
    } finally {
      await sql.end();
    }
  });

  it("in production the worker does not migrate: it refuses a database that lacks this release's migrations", async () => {
    const url = await freshDatabase();
    const ran = await runScript(["scripts/worker.ts"], productionEnv(url));
    assert.equal(ran.code, 1);
    assert.equal(
      oneSentence(ran.stderr),
      `worker: the database lacks ${knownMigrations().length} migration(s) of this release (first: ${knownMigrations()[0]!.tag}); run npm run migrate first`,
    );
  });

  it("a production web server refuses to start without the shared Server Actions key", async () => {
    const web = await runScript(["scripts/serve.ts", "start", "-p", "4299"], productionEnv(base.href));
    assert.equal(web.code, 1);
    assert.match(oneSentence(web.stderr), /^Invalid settings:\n {2}NEXT_SERVER_ACTIONS_ENCRYPTION_KEY: required in production, the same on every web instance/);
    assert.doesNotMatch(web.stdout, /listening/);
  });
});
