// The signed GET /availability handler called in-process (no HTTP, no Next):
// what the route itself costs, to set against bench/throughput.ts.
//   npm run --silent bench:in-process       BENCH_REQUESTS, BENCH_CONCURRENCY adjust it
import { performance } from "node:perf_hooks";
import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { GET } from "@/app/api/partner/v1/availability/route";
import { createCredential, createPartner } from "@/server/services/partners";
import { addDomain } from "@/server/services/inventory";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";
import { randomBase62 } from "@/server/ids";

const total = Number(process.env.BENCH_REQUESTS ?? 20_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

process.env.DATABASE_URL ??= await ensureDatabase();
await migrateDatabase(process.env.DATABASE_URL);
const db = getDb();
const suffix = randomBase62(8).toLowerCase();
const partner = await createPartner(db, { name: `Bench ${suffix}`, email: `bench-${suffix}@bench.example`, paymentModel: "mor" });
const pool: PartnerCredentials[] = [];
for (let i = 0; i < Math.ceil(total / 50); i++) {
  const created = await createCredential(db, { partnerId: partner.partnerId, environment: "sandbox", scopes: ["search"] });
  pool.push({ keyId: created.keyId, secret: created.secret });
}
const domain = `bench${suffix}.com`;
await addDomain(db, { environment: "sandbox", name: domain, priceCents: 250_00 });
const url = `/api/partner/v1/availability?domain=${domain}`;

let next = 0;
let failures = 0;
const latencies: number[] = [];
async function worker() {
  while (next < total) {
    const credential = pool[next++ % pool.length]!;
    const request = new Request(`http://localhost${url}`, { headers: signRequest(credential, { method: "GET", url }) });
    const started = performance.now();
    const response = await GET(request, { params: Promise.resolve({}) });
    latencies.push(performance.now() - started);
    if (response.status !== 200) failures++;
    await response.arrayBuffer();
  }
}
const started = performance.now();
const cpuBefore = process.cpuUsage();
await Promise.all(Array.from({ length: concurrency }, worker));
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
latencies.sort((a, b) => a - b);
const pct = (p: number) => latencies[Math.floor((latencies.length - 1) * p)]!.toFixed(2);
console.log(
  `in-process signed GET /availability: ${(total / seconds).toFixed(0)} req/s, p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms, ` +
    `node CPU ${(((cpu.user + cpu.system) / 1000 / total) * 1000).toFixed(0)} us/request, failures ${failures}`,
);
await closeDb();
