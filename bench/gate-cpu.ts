// PostgreSQL CPU per statement of the signed request's database work, on one
// connection: the backend's user + system time from /proc (Linux, database on this
// machine), and the wall time per call. Shows what the gate's commit costs when it waits
// for the WAL flush (synchronous_commit on) and when it does not (0024 turns it off
// inside partner_request_gate).
//   npx tsx bench/gate-cpu.ts          (DATABASE_URL; N calls per statement, default 3000)
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import postgres from "postgres";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";

process.env.DATABASE_URL ??= await ensureDatabase();
await migrateDatabase(process.env.DATABASE_URL);
const sql = postgres(process.env.DATABASE_URL, { max: 1, onnotice: () => {} });
const N = Number(process.env.N ?? 3000);
const pid = (await sql<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
const ticks = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
};
const [credential] = await sql<{ id: string }[]>`select id from credentials order by created_at desc limit 1`;
if (!credential) throw new Error("no credential in this database: run a bench's setup first");
const run = Math.random().toString(36).slice(2);

async function time(title: string, call: (i: number) => Promise<unknown>) {
  for (let i = 0; i < 200; i++) await call(1e6 + i); // warm: plans cached
  const t0 = ticks();
  const w0 = performance.now();
  for (let i = 0; i < N; i++) await call(i);
  const cpu = ((ticks() - t0) * 10_000) / N;
  console.log(`| ${title} | ${cpu.toFixed(0)} | ${(((performance.now() - w0) * 1000) / N).toFixed(0)} |`);
}
const gate = (tag: string) => (i: number) =>
  sql`select * from partner_request_gate(${credential.id}, ${`${run}${tag}${i}`}, ${new Date().toISOString()}, ${600_000},
                                         ${`bench-gate-${i % 400}-${run}`}, ${1_000_000}, 60000, ${"127.0.0.1"}, ${false})`;

console.log(`PostgreSQL backend CPU per call, ${N} calls each, one connection\n| statement | CPU us | wall us |\n|---|---|---|`);
await time("select 1", () => sql`select 1`);
await time("partner_request_gate (as migrated: commit without flush wait)", gate("a"));
await time("nonce insert, own transaction, synchronous commit", (i) => sql`insert into nonces (credential_id, nonce, expires_at) values (${credential.id}, ${`${run}n${i}`}, now() + interval '10 minutes')`);
await sql`set synchronous_commit = off`;
await time("nonce insert, own transaction, asynchronous commit", (i) => sql`insert into nonces (credential_id, nonce, expires_at) values (${credential.id}, ${`${run}m${i}`}, now() + interval '10 minutes')`);
await sql`delete from rate_limits where key like ${`bench-gate-%-${run}`}`;
await sql.end();
