// Load for a CPU profile of the web server: one route, BENCH_SECONDS of autocannon
// (BENCH_CONNECTIONS connections), every signed request freshly signed with a new nonce.
// Read the profile with bench/profile-read.mjs.
//
//   npx tsx bench/profile-load.ts prepare       # keys and a listing, saved to BENCH_KEYS_FILE (same DATABASE_URL, SECRET_KEY)
//   node --cpu-prof --cpu-prof-dir=/tmp/prof .next/standalone/web.mjs     # PORT, DATABASE_URL, keys as for npm run web
//   BENCH_URL=http://localhost:3000 npx tsx bench/profile-load.ts availability   # or: ping
//   kill -INT <web pid>; node bench/profile-read.mjs /tmp/prof/*.cpuprofile
//
// Preparing first keeps the profile to start-up and load: the server sits idle while
// hundreds of keys are made. Each run starts with the pool's rate-limit buckets
// emptied, and uses few enough keys that the credential cache serves them (as it does
// a partner's steady traffic): what is profiled is the accepted, cached path.
//
// BENCH_SERVER_PID (Linux): also print the CPU time per request of that process and of
// the database's backends (/proc), which the wall-clock profile cannot separate from
// waiting on a loaded machine.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import postgres from "postgres";
import { loadGet, prepareBenchData } from "./setup";

const baseUrl = (process.env.BENCH_URL ?? "http://localhost:3000").replace(/\/$/, "");
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const route = process.argv[2] ?? "availability";
if (!["availability", "ping", "prepare"].includes(route)) throw new Error("route: prepare, availability or ping");
const keysFile = process.env.BENCH_KEYS_FILE ?? "/tmp/pdm-profile-keys.json";

// The search class allows a burst of 60 and one more a second per key: keys for 3k req/s over 60 s.
type Prepared = Awaited<ReturnType<typeof prepareBenchData>>;
const prepare = async () => prepareBenchData(Number(process.env.BENCH_KEYS ?? 400));
if (route === "prepare") {
  writeFileSync(keysFile, JSON.stringify(await prepare()));
  console.log(`keys and listing saved to ${keysFile}`);
  process.exit(0);
}
const { pool, domain }: Prepared =
  route === "ping" ? { pool: [], domain: "" } : existsSync(keysFile) ? (JSON.parse(readFileSync(keysFile, "utf8")) as Prepared) : await prepare();
// Buckets refill at one a second per key: a run starts with them all full.
const admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => {} });
if (pool.length > 0) {
  await admin`delete from rate_limits where key in (select id || ':search' from credentials where key_id in ${admin(pool.map((c) => c.keyId))})`;
}

/** Clock ticks (1/100 s) of user + system time of a process, from /proc. */
function ticks(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
const serverPid = Number(process.env.BENCH_SERVER_PID ?? 0);
async function backendTicks(): Promise<Map<number, number>> {
  const rows = await admin<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  return new Map(rows.map(({ pid }) => [pid, ticks(pid)]));
}
const before = serverPid ? { server: ticks(serverPid), backends: await backendTicks(), bench: process.cpuUsage() } : undefined;

const path = route === "ping" ? "/api/ping" : `/api/partner/v1/availability?domain=${domain}`;
const result = await loadGet({ baseUrl, path, connections, seconds, signedBy: route === "ping" ? undefined : pool });
if (before) {
  const after = await backendTicks();
  let database = 0;
  for (const [pid, t] of after) database += t - (before.backends.get(pid) ?? 0);
  const usPer = (t: number) => ((t * 10_000) / result.requests.total).toFixed(0);
  const bench = process.cpuUsage(before.bench);
  console.log(
    `${route}: CPU per request: web server ${usPer(ticks(serverPid) - before.server)} us, database ${usPer(database)} us ` +
      `(${after.size} backends), this client ${(((bench.user + bench.system) / result.requests.total)).toFixed(0)} us`,
  );
}
await admin.end();
console.log(`${route}: ${result.requests.average.toFixed(0)} req/s, ${result.requests.total} requests, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}`);
