// Database round trips per signed request, per route: each route handler is called
// in-process (the same gate and services as the server) with a pool that counts the
// statements it sends, and the writes to the database's sockets: a write is a round
// trip, since each is answered before the next goes (postgres.js sends a statement
// with parameters that is not prepared on its connection in two: Parse and Describe
// first, to learn the parameters' types, then Bind and Execute). Prints the counts per
// request and one request's statements.
//   npx tsx bench/round-trips.ts        BENCH_REQUESTS (default 40) per route
// CREDENTIAL_CACHE=false shows the figures without the credential cache.
import { randomUUID } from "node:crypto";
import net from "node:net";
import { sql } from "drizzle-orm";
import { closeDb, createPool, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { randomBase62 } from "@/server/ids";
import { flushRequestLog } from "@/server/services/request-log";
import { createCredential, createPartner } from "@/server/services/partners";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";
import type { RouteHandler } from "@/server/http/partner-route";

const perRoute = Number(process.env.BENCH_REQUESTS ?? 40);
process.env.DATABASE_URL ??= await ensureDatabase();
await migrateDatabase(process.env.DATABASE_URL);

// Writes to the database's sockets while a request runs (the request log's flush runs between requests).
const databasePort = Number(new URL(process.env.DATABASE_URL).port || 5432);
let writes = 0;
let counting = false;
const write = net.Socket.prototype.write;
net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]) {
  if (counting && this.remotePort === databasePort) writes++;
  return (write as (...a: unknown[]) => boolean).apply(this, args);
} as typeof write;

// The process's pool (db/client.ts keeps it on globalThis), replaced by one that counts.
let statements: string[] = [];
(globalThis as unknown as { __pdmPool?: ReturnType<typeof createPool> }).__pdmPool = createPool(process.env.DATABASE_URL, 10, {
  onQuery: (text) => statements.push(text.replace(/\s+/g, " ").trim()),
});
const db = getDb();
const suffix = randomBase62(8).toLowerCase();
const partner = await createPartner(db, { name: `Round trips ${suffix}`, email: `rt-${suffix}@bench.example`, paymentModel: "mor" });
const keys: PartnerCredentials[] = [];
for (let i = 0; i < Math.ceil((perRoute * 2) / 15) + 1; i++) {
  const created = await createCredential(db, { partnerId: partner.partnerId, environment: "sandbox", scopes: ["search", "buy"] });
  keys.push({ keyId: created.keyId, secret: created.secret });
}
await db.execute(sql`
  insert into domains (id, environment, name, label, tld, status, price_cents, currency, tokens)
  select 'dom_rt' || ${suffix} || lpad(i::text, 5, '0'), 'sandbox', 'rt' || ${suffix} || i || '.com', 'rt' || ${suffix} || i, 'com', 'listed', 25000, 'USD', 'rt'
  from generate_series(1, ${perRoute + 3}) as i`);

const { GET: availability } = await import("@/app/api/partner/v1/availability/route");
const { POST: quotes } = await import("@/app/api/partner/v1/quotes/route");
const orders = await import("@/app/api/partner/v1/orders/route");

let k = 0;
async function call(handler: RouteHandler, method: "GET" | "POST", url: string, body?: string, extra: Record<string, string> = {}) {
  const credential = keys[k++ % keys.length]!;
  const headers = { ...signRequest(credential, { method, url, body }), ...(body ? { "content-type": "application/json" } : {}), ...extra };
  const response = await handler(new Request(`http://localhost${url}`, { method, headers, body }), { params: Promise.resolve({}) });
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
}

let n = 0;
const routes: [string, () => Promise<void>][] = [
  ["GET /availability", () => call(availability, "GET", `/api/partner/v1/availability?domain=rt${suffix}1.com`)],
  ["POST /quotes", () => call(quotes, "POST", "/api/partner/v1/quotes", JSON.stringify({ domain: `rt${suffix}${perRoute + 3}.com` }))],
  [
    "POST /orders (idempotent)",
    () => {
      const body = JSON.stringify({ domain: `rt${suffix}${n++ + 2}.com`, expected_price: 25000, currency: "USD", buyer: { email: "b@bench.example" } });
      return call(orders.POST, "POST", "/api/partner/v1/orders", body, { "idempotency-key": randomUUID() });
    },
  ],
  ["GET /orders?limit=25", () => call(orders.GET, "GET", "/api/partner/v1/orders?limit=25")],
];

console.log(`round trips per signed request (${perRoute} requests per route, credential cache ${process.env.CREDENTIAL_CACHE ?? "on"})`);
console.log("| route | statements per request | of which transaction control | round trips (socket writes) |\n|---|---|---|---|");
const samples: [string, string[]][] = [];
for (const [title, run] of routes) {
  await run(); // warm: route bundles, prepared statements, the credential cache
  await flushRequestLog();
  await new Promise((resolve) => setTimeout(resolve, 300)); // the cache's listener confirms itself
  let total = 0;
  let txControl = 0;
  writes = 0;
  for (let i = 0; i < perRoute; i++) {
    statements = [];
    counting = true;
    await run();
    counting = false;
    await flushRequestLog();
    const counted = statements.filter((s) => !s.startsWith("insert into request_log"));
    total += counted.length;
    txControl += counted.filter((s) => /^(begin|commit|rollback|savepoint|release)/i.test(s)).length;
    if (i === perRoute - 1) samples.push([title, counted]);
  }
  console.log(`| ${title} | ${(total / perRoute).toFixed(2)} | ${(txControl / perRoute).toFixed(2)} | ${(writes / perRoute).toFixed(2)} |`);
}
for (const [title, list] of samples) {
  console.log(`\n${title}:`);
  for (const s of list) console.log(`  ${s.slice(0, 150)}`);
}
await flushRequestLog();
await closeDb();
