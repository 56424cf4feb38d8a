import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { resolveDatabaseUrl } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";

/**
 * A new database on the test server, named after the test database (so a run
 * keeps to its own name prefix), migrated by `migrate` (default: every
 * migration), handed to `fn` by URL and dropped afterwards.
 */
export async function withFreshDatabase(
  fn: (url: string) => Promise<void>,
  migrate: (url: string) => Promise<unknown> = migrateDatabase,
): Promise<void> {
  const base = new URL(resolveDatabaseUrl());
  const name = `${base.pathname.slice(1)}_fresh_${randomBytes(4).toString("hex")}`;
  const admin = postgres(base.href, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
    const url = new URL(base.href);
    url.pathname = `/${name}`;
    await migrate(url.href);
    await fn(url.href);
  } finally {
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    await admin.end();
  }
}
