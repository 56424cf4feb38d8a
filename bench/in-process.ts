// The signed GET /availability handler called in-process (no HTTP, no Next):
// what the route itself costs, to set against bench/throughput.ts.
//   npm run --silent bench:in-process       BENCH_REQUESTS, BENCH_CONCURRENCY adjust it
import { performance } from "node:perf_hooks";
import { closeDb } from "@/db/client";
import { GET } from "@/app/api/partner/v1/availability/route";
import { signRequest } from "@/server/signing/client";
import { prepareBenchData } from "./setup";

const total = Number(process.env.BENCH_REQUESTS ?? 20_000);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const { pool, domain } = await prepareBenchData(Math.ceil(total / 50), { keepOpen: true });
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
