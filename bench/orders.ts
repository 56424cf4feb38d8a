// Idempotent POST /orders: orders/s for fresh keys, then replays/s for keys
// already used (same key and body).
//
//   npm start                                         # in one terminal (any running build), then:
//   BENCH_URL=http://localhost:3000 npx tsx bench/orders.ts
//   npx tsx bench/orders.ts                           # without BENCH_URL: the route handler in-process
//
// BENCH_ORDERS (default 2000), BENCH_REPLAYS (default 2000), BENCH_CONCURRENCY
// (default 16) adjust it. Every request passes the full gate with a fresh nonce.
// The write class allows 20 requests a minute per credential, so the bench
// partner gets one credential per 18 requests and every order its own listing:
// what is measured is the accepted path, not 429s or conflicts.
import { performance } from "node:perf_hooks";
import { randomUUID } from "node:crypto";
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { randomBase62 } from "@/server/ids";
import { createCredential, createPartner } from "@/server/services/partners";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";
import { listBenchDomains } from "./setup";

const baseUrl = process.env.BENCH_URL?.replace(/\/$/, "");
const totalOrders = Number(process.env.BENCH_ORDERS ?? 2000);
const totalReplays = Number(process.env.BENCH_REPLAYS ?? 2000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);
const PATH = "/api/partner/v1/orders";
const PRICE = 25_000;
const PER_CREDENTIAL = 18;

process.env.DATABASE_URL ??= await ensureDatabase();
await migrateDatabase(process.env.DATABASE_URL);
const db = getDb();

// --- setup: one MoR partner, a pool of buy credentials, one sandbox listing per order ---
const suffix = randomBase62(8).toLowerCase();
const partner = await createPartner(db, { name: `Orders bench ${suffix}`, email: `bench-orders-${suffix}@bench.example`, paymentModel: "mor" });
const credentialCount = Math.ceil((totalOrders + totalReplays) / PER_CREDENTIAL) + 1;
const pool: PartnerCredentials[] = [];
for (let i = 0; i < credentialCount; i++) {
  const created = await createCredential(db, { partnerId: partner.partnerId, environment: "sandbox", scopes: ["buy"] });
  pool.push({ keyId: created.keyId, secret: created.secret });
}
const names = await listBenchDomains(db, { prefix: `ob${suffix}`, count: totalOrders, priceCents: PRICE });
const jobs = Array.from({ length: totalOrders }, (_, i) => ({
  key: randomUUID(),
  body: JSON.stringify({ domain: names[i], expected_price: PRICE, currency: "USD", buyer: { email: "buyer@bench.example" } }),
}));

// --- transport: HTTP against a running server, or the route handler in-process ---
type Send = (headers: Record<string, string>, body: string) => Promise<{ status: number; text: string }>;
let send: Send;
if (baseUrl) {
  send = async (headers, body) => {
    const response = await fetch(`${baseUrl}${PATH}`, { method: "POST", headers, body });
    return { status: response.status, text: await response.text() };
  };
} else {
  const { POST } = await import("@/app/api/partner/v1/orders/route");
  send = async (headers, body) => {
    const response = await POST(new Request(`http://localhost${PATH}`, { method: "POST", headers, body }), { params: Promise.resolve({}) });
    return { status: response.status, text: await response.text() };
  };
}

let nextCredential = 0;
async function post(job: { key: string; body: string }) {
  const credential = pool[nextCredential++ % pool.length]!;
  const headers = {
    ...signRequest(credential, { method: "POST", url: PATH, body: job.body }),
    "content-type": "application/json",
    "idempotency-key": job.key,
  };
  return send(headers, job.body);
}

interface Figures {
  perSecond: number;
  p50: number;
  p99: number;
  failures: number;
  firstFailure?: string;
}

async function run(title: string, work: { key: string; body: string }[], expected: number): Promise<Figures> {
  let next = 0;
  let failures = 0;
  let firstFailure: string | undefined;
  const latencies: number[] = [];
  async function worker() {
    while (next < work.length) {
      const job = work[next++]!;
      const started = performance.now();
      const result = await post(job);
      latencies.push(performance.now() - started);
      if (result.status !== expected) {
        failures++;
        firstFailure ??= `${result.status} ${result.text.slice(0, 200)}`;
      }
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((x, y) => x - y);
  const pct = (p: number) => latencies[Math.floor((latencies.length - 1) * p)] ?? 0;
  const figures = { perSecond: work.length / seconds, p50: pct(0.5), p99: pct(0.99), failures, firstFailure };
  console.log(
    `${title.padEnd(28)} ${figures.perSecond.toFixed(0).padStart(6)}/s   p50 ${figures.p50.toFixed(1)} ms   p99 ${figures.p99.toFixed(1)} ms   ` +
      `failures ${failures}${firstFailure ? ` (first: ${firstFailure})` : ""}`,
  );
  return figures;
}

console.log(
  `POST /orders bench, ${baseUrl ? `HTTP against ${baseUrl}` : "in-process route handler"}: ${totalOrders} orders, ` +
    `${totalReplays} replays, concurrency ${concurrency}, ${pool.length} credentials`,
);
await run("orders (fresh keys)", jobs, 201);
const replays = Array.from({ length: totalReplays }, (_, i) => jobs[i % jobs.length]!);
await run("replays (same key and body)", replays, 201);
await closeDb();
