// CI helper: `create NAME` / `drop NAME` a database on the server at ADMIN_DATABASE_URL
// (default the local PostgreSQL); exits 3 when that server does not answer.
import postgres from "postgres";

const [action, name] = process.argv.slice(2);
if (!action || !name || !/^[a-z0-9_]+$/.test(name)) {
  console.error("usage: ci-database.ts create|drop NAME");
  process.exit(2);
}
const sql = postgres(process.env.ADMIN_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres", {
  max: 1,
  connect_timeout: 3,
  onnotice: () => {},
});
try {
  await sql`select 1`;
} catch {
  await sql.end({ timeout: 1 });
  process.exit(3);
}
await sql.unsafe(action === "create" ? `create database ${name}` : `drop database if exists ${name} with (force)`);
await sql.end();
