// The hot path of issue 16, side by side in one run: a bare Node http server (the
// ceiling), the static /api/ping route (the framework's floor), and the signed
// partner routes, each for BENCH_SECONDS with autocannon; then signed GET
// /availability at a fixed arrival rate. Every signed request carries a fresh
// nonce and passes the whole gate. Ratios are what to read: the machine is shared,
// so absolute figures drift between runs.
//
//   npm start  (or: node --import tsx scripts/serve.ts start -p 3200 on a built app)
//   BENCH_URL=http://localhost:3200 npm run bench:hot-path
//
// BENCH_RUNS (3), BENCH_SECONDS (10), BENCH_CONNECTIONS (16), BENCH_RATE (500 req/s),
// BENCH_RATE_SECONDS (60), BENCH_RATE_RUNS (3), BENCH_BARE_PORT (3299),
// BENCH_WARMUP_SECONDS (3, per route, before run 1) adjust it. BENCH_RATE_TRACE=<file> appends
// each fixed-rate request's scheduled send (ms from the start) and latency, to find when the
// slow ones came; BENCH_RATE_ROUTE=ping puts the static route through the fixed-rate phase
// instead (the framework's own tail at that rate). The header names the server's
// WEB_CONCURRENCY: BENCH_WEB_CONCURRENCY when given, else read from its /metrics
// (web_cluster_workers; BENCH_METRICS_TOKEN when it has a METRICS_TOKEN).
// Rate limits are per credential and per class, so each route gets a pool of keys
// and the bench partners' buckets are emptied between phases: what is measured is
// the accepted path, never 429s.
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync } from "node:fs";
import http from "node:http";
import { randomUUID } from "node:crypto";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { randomBase62 } from "@/server/ids";
import { createCredential, createPartner } from "@/server/services/partners";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";
import { runAutocannon } from "./setup";

const baseUrl = (process.env.BENCH_URL ?? "http://localhost:3200").replace(/\/$/, "");
const runs = Number(process.env.BENCH_RUNS ?? 3);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);
const rate = Number(process.env.BENCH_RATE ?? 500);
const rateSeconds = Number(process.env.BENCH_RATE_SECONDS ?? 60);
const rateRuns = Number(process.env.BENCH_RATE_RUNS ?? 3);
const barePort = Number(process.env.BENCH_BARE_PORT ?? 3299);
const warmUpSeconds = Number(process.env.BENCH_WARMUP_SECONDS ?? 3);
/** BENCH_RATE_TRACE=<file>: each fixed-rate request's scheduled send (ms from the run's start) and latency, one per line. */
const rateTrace = process.env.BENCH_RATE_TRACE;
const PRICE = 25_000;
const QUOTE_PARTNERS = 12;

// --- setup --------------------------------------------------------------------------

process.env.DATABASE_URL ??= await ensureDatabase();
await migrateDatabase(process.env.DATABASE_URL);
const db = getDb();
const suffix = randomBase62(8).toLowerCase();

/** `count` keys, 8 created at a time (each is a committed transaction: one at a time took minutes on a loaded machine). */
async function keys(partnerId: string, count: number, scopes: ("search" | "buy")[]): Promise<PartnerCredentials[]> {
  const pool: PartnerCredentials[] = [];
  while (pool.length < count) {
    const batch = Array.from({ length: Math.min(8, count - pool.length) }, () => createCredential(db, { partnerId, environment: "sandbox", scopes }));
    for (const created of await Promise.all(batch)) pool.push({ keyId: created.keyId, secret: created.secret });
  }
  return pool;
}

/** Listings in one statement (addDomain audits each one; the bench measures requests, not listing). */
async function insertListings(prefix: string, count: number): Promise<string[]> {
  await db.execute(sql`
    insert into domains (id, environment, name, label, tld, status, price_cents, currency, tokens)
    select 'dom_' || ${prefix} || lpad(i::text, 7, '0'), 'sandbox', ${prefix} || i || '.com', ${prefix} || i,
           'com', 'listed', ${PRICE}, 'USD', ${prefix}
    from generate_series(1, ${count}) as i`);
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}.com`);
}

const partnerIds: string[] = [];
async function benchPartner(name: string) {
  const partner = await createPartner(db, { name: `${name} ${suffix}`, email: `${name.toLowerCase()}-${suffix}@bench.example`, paymentModel: "mor" });
  partnerIds.push(partner.partnerId);
  return partner.partnerId;
}

const searchPartner = await benchPartner("Hotpath");
const searchPool = await keys(searchPartner, 400, ["search"]);
const [availabilityDomain] = await insertListings(`hp${suffix}a`, 1);
// POST /orders (write class) and GET /orders (reporting class) share keys: buckets are per class.
const ordersPartner = await benchPartner("Hotpath orders");
const ordersPool = await keys(ordersPartner, 400, ["buy"]);
// Headroom: a run orders at most ~100-300/s for BENCH_SECONDS; the warm-up orders too.
const orderListings = await insertListings(`hp${suffix}o`, 8000 * runs + 3000);
// A partner holds at most 1,000 open quotes, and a quote locks its listing: one listing per quote partner.
const quotePools: { pool: PartnerCredentials[]; domain: string }[] = [];
for (let i = 0; i < QUOTE_PARTNERS; i++) {
  const partnerId = await benchPartner(`Hotpath quotes ${i}`);
  const [domain] = await insertListings(`hp${suffix}q${i}x`, 1);
  quotePools.push({ pool: await keys(partnerId, 40, ["buy"]), domain: domain! });
}
// Interleaved, so consecutive requests hit different partners and listings.
const quoteJobs = quotePools[0]!.pool.flatMap((_, k) => quotePools.map(({ pool, domain }) => ({ credential: pool[k]!, domain })));

/**
 * A server with autovacuum off (this development machine's PostgreSQL) neither vacuums nor
 * refreshes the planner's statistics, and the bench's writes then mislead it: the orders it writes
 * stay an empty table to the planner, so GET /orders sorted every order of the partner (5 ms at 14k
 * orders) instead of reading 26 rows of its index (0.05 ms), and fell run after run. Production runs
 * autovacuum, which vacuums and analyzes a table changed by a fifth or a tenth within its one-minute
 * nap; with it off, the bench runs VACUUM ANALYZE before every phase instead, and says so
 * (bench/HOT-PATH.md section 17).
 */
const [{ autovacuum } = { autovacuum: "on" }] = await db.execute<{ autovacuum: string }>(sql`select current_setting('autovacuum') as autovacuum`);
const analyzeBetweenPhases = autovacuum !== "on";

/** Empties the bench keys' rate-limit buckets and ends their open quotes, so every phase starts alike. */
async function resetBuckets(): Promise<void> {
  const ours = sql`(${sql.join(partnerIds.map((id) => sql`${id}`), sql`, `)})`;
  await db.execute(sql`
    delete from rate_limits where key in (
      select c.id || ':' || k from credentials c, unnest(array['search', 'write', 'reporting']) k
      where c.partner_id in ${ours})`);
  // Expired, not deleted, as a quote ends in production (pruning deletes it much later): a table the
  // planner last saw empty is scanned whole by every hold check while it fills again.
  await db.execute(sql`update quotes set expires_at = now() - interval '1 second'
    where partner_id in ${ours} and order_id is null and expires_at > now()`);
  if (analyzeBetweenPhases) await db.execute(sql`vacuum analyze`);
}

// --- the routes -----------------------------------------------------------------------

interface Route {
  title: string;
  path: string;
  /** Undefined: an unsigned GET of `path`. */
  next?: () => { method: "GET" | "POST"; path: string; headers: Record<string, string>; body?: string };
  url?: string;
}

const availabilityPath = `/api/partner/v1/availability?domain=${availabilityDomain}`;
let cursor = 0;
const signedGet = (pool: PartnerCredentials[], path: string) => () => {
  const credential = pool[cursor++ % pool.length]!;
  return { method: "GET" as const, path, headers: signRequest(credential, { method: "GET", url: path }) };
};
const signedPost = (credential: PartnerCredentials, path: string, body: string, extra: Record<string, string> = {}) => ({
  method: "POST" as const,
  path,
  body,
  headers: { ...signRequest(credential, { method: "POST", url: path, body }), "content-type": "application/json", ...extra },
});
let nextListing = 0;
const routes: Route[] = [
  { title: "bare node http (ceiling)", path: "/", url: `http://127.0.0.1:${barePort}` },
  { title: "GET /api/ping (static)", path: "/api/ping" },
  { title: "GET /availability (signed)", path: availabilityPath, next: signedGet(searchPool, availabilityPath) },
  {
    title: "POST /quotes (signed)",
    path: "/api/partner/v1/quotes",
    next: () => {
      const job = quoteJobs[cursor++ % quoteJobs.length]!;
      return signedPost(job.credential, "/api/partner/v1/quotes", JSON.stringify({ domain: job.domain }));
    },
  },
  {
    title: "POST /orders (signed, idempotent)",
    path: "/api/partner/v1/orders",
    next: () => {
      const credential = ordersPool[cursor++ % ordersPool.length]!;
      const domain = orderListings[nextListing++ % orderListings.length]!;
      const body = JSON.stringify({ domain, expected_price: PRICE, currency: "USD", buyer: { email: "buyer@bench.example" } });
      return signedPost(credential, "/api/partner/v1/orders", body, { "idempotency-key": randomUUID() });
    },
  },
  { title: "GET /orders?limit=25 (signed)", path: "/api/partner/v1/orders?limit=25", next: signedGet(ordersPool, "/api/partner/v1/orders?limit=25") },
];

const only = process.env.BENCH_ONLY;
/** The fixed-rate phase's route: GET /availability unless BENCH_RATE_ROUTE names another (e.g. "ping", the framework's floor at the same rate). */
const rateRoute = routes.find((route) => route.title.includes(process.env.BENCH_RATE_ROUTE ?? "GET /availability"));
if (!rateRoute) throw new Error(`BENCH_RATE_ROUTE=${process.env.BENCH_RATE_ROUTE} names no route (${routes.map((route) => route.title).join(", ")})`);
const measured = routes.filter((route, i) => i < 2 || !only || route.title.includes(only));

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  resets: number;
}

async function measure(route: Route, duration = seconds): Promise<Figures> {
  const result = await runAutocannon({
    url: `${route.url ?? baseUrl}${route.path}`,
    connections,
    duration,
    requests: [{ method: "GET", path: route.path, ...(route.next ? { setupRequest: () => route.next!() } : {}) }],
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors, resets: result.resets };
}

// --- the ceiling: a bare Node server answering the signed route's JSON -------------------

async function startBareServer(body: string): Promise<ChildProcess> {
  const code = `require("node:http").createServer((q, s) => { s.writeHead(200, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" }); s.end(process.env.BODY); }).listen(${barePort}, "127.0.0.1", () => console.log("up"));`;
  const child = spawn(process.execPath, ["-e", code], { env: { ...process.env, BODY: body }, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (exit) => reject(new Error(`bare server exited (${exit}); is port ${barePort} free?`)));
  });
  return child;
}

// --- fixed arrival rate: open loop, latency from the scheduled send time -----------------

async function fixedRate(route: Route): Promise<{ sent: number; p50: number; p99: number; p999: number; max: number; failures: number; retries: number; clientStall: string }> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const target = new URL(baseUrl);
  const latencies: number[] = [];
  const trace: string[] = [];
  let failures = 0;
  let retries = 0;
  let sent = 0;
  const total = rate * rateSeconds;
  // The load generator's own event-loop delay: a stall here delays sends and reads, and counts as latency.
  const clientDelay = monitorEventLoopDelay({ resolution: 1 });
  clientDelay.enable();
  const started = performance.now();
  let unanswered = 0;
  await new Promise<void>((done) => {
    let finished = 0;
    // An overloaded server is not waited for: what has not answered 15 s after the last send is counted failed.
    const deadline = setTimeout(() => {
      unanswered = total - finished;
      done();
    }, (rateSeconds + 15) * 1000);
    const finish = () => {
      if (++finished === total) {
        clearTimeout(deadline);
        done();
      }
    };
    // `retried`: the request is sent a second time, freshly signed (a new nonce), so its latency still counts from `scheduled`.
    const fire = (scheduled: number, retried = false) => {
      const { method, path, headers, body } = route.next?.() ?? { method: "GET", path: route.path, headers: {}, body: undefined };
      const request = http.request({ host: target.hostname, port: target.port, method, path, headers, agent }, (response) => {
        response.resume();
        response.on("end", () => {
          latencies.push(performance.now() - scheduled);
          if (rateTrace) trace.push(`${(scheduled - started).toFixed(1)} ${(performance.now() - scheduled).toFixed(1)} ${response.statusCode}`);
          if (response.statusCode! < 200 || response.statusCode! >= 300) failures++;
          finish();
        });
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        // A kept-alive socket the server closed just as it was reused (its idle timeout):
        // the client's race, not the server's failure. Node's documentation advises one
        // retry on a fresh request; they are counted apart. Any other error, or a second
        // one, is a failure.
        if (request.reusedSocket && error.code === "ECONNRESET" && !retried) {
          retries++;
          fire(scheduled, true);
          return;
        }
        failures++;
        finish();
      });
      request.end(body);
    };
    const tick = setInterval(() => {
      const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate));
      while (sent < due) fire(started + (sent++ / rate) * 1000);
      if (sent >= total) clearInterval(tick);
    }, 1);
  });
  agent.destroy();
  clientDelay.disable();
  if (rateTrace) appendFileSync(rateTrace, `${trace.join("\n")}\n`);
  // Unanswered requests count at the deadline's latency, so the percentiles do not flatter an overload.
  for (let i = 0; i < unanswered; i++) latencies.push((rateSeconds + 15) * 1000);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? 0;
  return { sent, p50: pct(0.5), p99: pct(0.99), p999: pct(0.999), max: latencies.at(-1) ?? 0, failures: failures + unanswered, retries, clientStall: `${(clientDelay.percentile(99) / 1e6).toFixed(1)} / ${(clientDelay.max / 1e6).toFixed(1)}` };
}

// --- run ----------------------------------------------------------------------------------

const sample = route200(await fetch(`${baseUrl}${availabilityPath}`, { headers: routes[2]!.next!().headers }));
async function route200(response: Response): Promise<string> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`signed GET /availability answered ${response.status}: ${text}`);
  return text;
}
const bare = await startBareServer(await sample);
process.on("exit", () => bare.kill());

/** The server's web processes: as told, or its /metrics' web_cluster_workers (absent: one process). */
async function webConcurrency(): Promise<string> {
  if (process.env.BENCH_WEB_CONCURRENCY) return `${process.env.BENCH_WEB_CONCURRENCY} (as told)`;
  const token = process.env.BENCH_METRICS_TOKEN;
  const response = await fetch(`${baseUrl}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} }).catch(() => undefined);
  if (!response?.ok) return "unknown (set BENCH_WEB_CONCURRENCY, or BENCH_METRICS_TOKEN to read /metrics)";
  const workers = /^web_cluster_workers (\d+)$/m.exec(await response.text())?.[1];
  return `${workers ?? 1} (from /metrics)`;
}

console.log(
  `hot-path bench against ${baseUrl} (WEB_CONCURRENCY ${await webConcurrency()}): ${runs} run(s), ${connections} connections, ${seconds} s per route; ` +
    `then ${rateRuns} x ${rateSeconds} s at ${rate} req/s on ${rateRoute.title}` +
    (analyzeBetweenPhases ? "; the database's autovacuum is off, so the bench runs VACUUM ANALYZE before every phase" : ""),
);
// Warm-up: every measured route (JIT, the route bundles, each worker's caches) before run 1.
for (const route of measured) {
  await resetBuckets();
  await measure(route, warmUpSeconds);
}
const table: string[] = ["| run | route | req/s | p50 ms | p99 ms | non-2xx | errors | resets | / static | / bare |", "|---|---|---|---|---|---|---|---|---|---|"];
for (let run = 1; run <= runs; run++) {
  const figures: Figures[] = [];
  for (const route of measured) {
    await resetBuckets();
    figures.push(await measure(route));
  }
  const [bareFigures, staticFigures] = figures as [Figures, Figures];
  measured.forEach((route, i) => {
    const f = figures[i]!;
    const row = `| ${run} | ${route.title} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.non2xx} | ${f.errors} | ${f.resets} | ${(f.rps / staticFigures.rps).toFixed(2)} | ${(f.rps / bareFigures.rps).toFixed(2)} |`;
    table.push(row);
    console.log(row);
  });
}
console.log(`\n${table.join("\n")}\n`);

const rateTable = [
  "| run | route | rate req/s | s | sent | p50 ms | p99 ms | p99.9 ms | max ms | failures | retried resets | client loop delay p99 / max ms |",
  "|---|---|---|---|---|---|---|---|---|---|---|---|",
];
for (let run = 1; run <= rateRuns; run++) {
  await resetBuckets();
  const f = await fixedRate(rateRoute);
  const row = `| ${run} | ${rateRoute.title} | ${rate} | ${rateSeconds} | ${f.sent} | ${f.p50.toFixed(1)} | ${f.p99.toFixed(1)} | ${f.p999.toFixed(1)} | ${f.max.toFixed(1)} | ${f.failures} | ${f.retries} | ${f.clientStall} |`;
  rateTable.push(row);
  console.log(row);
}
if (rateRuns > 0) console.log(`\n${rateTable.join("\n")}`);
bare.kill();
await closeDb();
