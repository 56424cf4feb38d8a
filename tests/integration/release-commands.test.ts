import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { after, describe, it } from "node:test";
import postgres from "postgres";
import { resolveDatabaseUrl } from "@/db/embedded";
import { assertSchemaCurrent, knownMigrations, migrateDatabase, SchemaMismatchError, schemaStatus } from "@/db/migrate";
import { closeDb } from "@/db/client";

// npm run migrate's work on databases of its own: once per release, safe twice or
// concurrently, refusing a newer schema. The commands themselves, as processes, are
// run from the standalone output by tests/deploy/two-instances.test.ts.

const base = new URL(resolveDatabaseUrl());
const admin = postgres(base.href, { max: 1, onnotice: () => {} });
const made: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `${base.pathname.slice(1)}_release_${randomBytes(4).toString("hex")}`; // the test database's prefix
  await admin.unsafe(`create database ${name}`);
  made.push(name);
  const url = new URL(base.href);
  url.pathname = `/${name}`;
  return url.href;
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

  it("refuses, changing nothing, a database a newer release migrated, and tells a database that lacks migrations", async () => {
    const url = await freshDatabase();
    await assert.rejects(assertSchemaCurrent(url), (error: Error) =>
      error instanceof SchemaMismatchError && error.message === `the database lacks ${knownMigrations().length} migration(s) of this release (first: ${knownMigrations()[0]!.tag}); run npm run migrate first`,
    );
    await migrateDatabase(url);
    await assertSchemaCurrent(url);
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    try {
      const latest = knownMigrations().at(-1)!;
      await sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-newer-release', ${latest.when + 60_000})`;
      const newer = `the database holds 1 migration(s) newer than this release knows (its latest is ${latest.tag}); run the release that migrated it, or a newer one`;
      await assert.rejects(migrateDatabase(url), (error: Error) => error instanceof SchemaMismatchError && error.message === newer);
      await assert.rejects(assertSchemaCurrent(url), (error: Error) => error instanceof SchemaMismatchError && error.message === newer);
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
      assert.equal(row?.n, knownMigrations().length + 1);
    } finally {
      await sql.end();
    }
  });
});
