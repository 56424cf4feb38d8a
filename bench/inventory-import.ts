// A bulk import through the operations CLI, timed, and the imported names found
// by the very next search from another process, without a restart:
//   npx tsx bench/inventory-import.ts                 100,000 names
//   IMPORT_SIZE=20000 npx tsx bench/inventory-import.ts
// Needs a PostgreSQL server (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres);
// creates the scratch database import_bench and drops it at the end (BENCH_KEEP=1 keeps it).
// The names are the search benchmark's corpus (bench/search/corpus.ts): words the
// database has never seen, so the vocabulary grows as a real catalogue's would.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { createPool } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import { getVocabulary } from "@/server/search/vocabulary";
import { searchDomains } from "@/server/services/discovery";
import { generateCorpus } from "./search/corpus";

const size = Number(process.env.IMPORT_SIZE ?? 100_000);
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const dbName = "import_bench";
const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
const run = promisify(execFile);

const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
await admin.unsafe(`drop database if exists ${dbName}`);
await admin.unsafe(`create database ${dbName}`);
await migrateDatabase(dbUrl);
const { db, sql: client } = createPool(dbUrl, 2);

// The search process is up before the import, with its vocabulary mirror loaded:
// what it finds afterwards comes from catch-up, not from a fresh start.
await searchDomains(db, { environment: "sandbox", partnerId: "ptn_bench", q: "warm up", limit: 5 });
const mirrorBefore = (await getVocabulary(db)).words.size;

const corpus = generateCorpus(size);
const dir = await mkdtemp(join(tmpdir(), "import-bench-"));
const file = join(dir, "names.csv");
await writeFile(file, `name,price_cents\n${corpus.map((d) => `${d.name},${d.priceCents}`).join("\n")}\n`);
const cli = (args: string[]) =>
  run("npx", ["tsx", "scripts/admin.ts", ...args, "--json"], { env: { ...process.env, DATABASE_URL: dbUrl }, maxBuffer: 64 * 1024 * 1024 });

const t0 = performance.now();
const dry = JSON.parse((await cli(["domain:import", "--env", "sandbox", "--file", file, "--reason", "import benchmark", "--dry-run"])).stdout);
const t1 = performance.now();
const report = JSON.parse((await cli(["domain:import", "--env", "sandbox", "--file", file, "--reason", "import benchmark"])).stdout);
const t2 = performance.now();

const [counts] = await db.execute<{ listed: string; words: string; postings: string }>(sql`select
  (select count(*) from domains where environment = 'sandbox' and status = 'listed') as listed,
  (select count(*) from search_vocabulary) as words,
  (select count(*) from domain_terms) as postings`);

// Found by this (already running) process's next search: keyword legs at once, meaning from the caught-up mirror.
const probes = [corpus[0]!, corpus[Math.floor(size / 2)]!, corpus[size - 1]!];
let found = 0;
const t3 = performance.now();
for (const probe of probes) {
  const { hits } = await searchDomains(db, { environment: "sandbox", partnerId: "ptn_bench", q: probe.name, limit: 5 });
  if (hits.some((h) => h.name === probe.name)) found++;
}
const searchMs = (performance.now() - t3) / probes.length;
const mirrorAfter = (await getVocabulary(db)).words.size;

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
console.log(`\n# inventory import: ${size.toLocaleString("en")} names through \`npm run admin -- domain:import\``);
console.log(`dry run (parse, check every row against the inventory): ${s(t1 - t0)}, ${dry.added} would be added`);
console.log(`import (check, write in one transaction, postings by trigger, then embed new words): ${s(t2 - t1)}, ${report.added} added`);
console.log(`after: ${Number(counts!.listed).toLocaleString("en")} listed, ${Number(counts!.words).toLocaleString("en")} vocabulary words, ${Number(counts!.postings).toLocaleString("en")} postings`);
console.log(`the running search process's vocabulary mirror: ${mirrorBefore.toLocaleString("en")} words before, ${mirrorAfter.toLocaleString("en")} after catch-up (no restart)`);
console.log(`the running search process found ${found}/${probes.length} imported names by exact name on its next query (${searchMs.toFixed(1)} ms each, first includes catch-up)`);

await client.end();
await rm(dir, { recursive: true, force: true });
if (!process.env.BENCH_KEEP) await admin.unsafe(`drop database ${dbName}`);
await admin.end();
