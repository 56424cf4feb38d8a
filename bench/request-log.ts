// What the dashboard's request log costs a signed request: the in-process signed
// GET /availability handler with REQUEST_LOG on and off, in alternating rounds of
// one run (absolute rates drift on a shared machine; the ratio is the figure).
//   npx tsx bench/request-log.ts     BENCH_REQUESTS (per round), BENCH_ROUNDS, BENCH_CONCURRENCY adjust it
import { performance } from "node:perf_hooks";
import { closeDb, getDb } from "@/db/client";
import { GET } from "@/app/api/partner/v1/availability/route";
import { resetEnv } from "@/server/env";
import { flushRequestLog } from "@/server/services/request-log";
import { signRequest } from "@/server/signing/client";
import { prepareBenchData } from "./setup";

const perRound = Number(process.env.BENCH_REQUESTS ?? 4000);
const rounds = Number(process.env.BENCH_ROUNDS ?? 6);
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 16);

const { pool, domain } = await prepareBenchData(Math.ceil((perRound * rounds) / 50), { keepOpen: true });
const url = `/api/partner/v1/availability?domain=${domain}`;
let cursor = 0;

async function round(): Promise<{ rps: number; p50: number; p99: number; failures: number }> {
  let done = 0;
  let failures = 0;
  const latencies: number[] = [];
  async function worker() {
    while (done < perRound) {
      done++;
      const credential = pool[cursor++ % pool.length]!;
      const request = new Request(`http://localhost${url}`, {
        headers: { ...signRequest(credential, { method: "GET", url }), "x-client-ip": "198.51.100.1" },
      });
      const started = performance.now();
      const response = await GET(request, { params: Promise.resolve({}) });
      latencies.push(performance.now() - started);
      if (response.status !== 200) failures++;
      await response.arrayBuffer();
    }
  }
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  // The buffered writes belong to the round that made them.
  await flushRequestLog(getDb());
  const total = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.floor((latencies.length - 1) * p)]!;
  return { rps: perRound / total, p50: pct(0.5), p99: pct(0.99), failures };
}

const results: Record<"on" | "off", { rps: number[]; p50: number[]; p99: number[]; failures: number }> = {
  on: { rps: [], p50: [], p99: [], failures: 0 },
  off: { rps: [], p50: [], p99: [], failures: 0 },
};
process.env.REQUEST_LOG = "true";
resetEnv();
await round(); // warm-up: JIT, connections, prepared statements
for (let i = 0; i < rounds; i++) {
  for (const mode of i % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const)) {
    process.env.REQUEST_LOG = mode === "on" ? "true" : "false";
    resetEnv();
    const r = await round();
    results[mode].rps.push(r.rps);
    results[mode].p50.push(r.p50);
    results[mode].p99.push(r.p99);
    results[mode].failures += r.failures;
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const mode of ["off", "on"] as const) {
  const r = results[mode];
  console.log(
    `request log ${mode.padEnd(3)}: ${median(r.rps).toFixed(0)} req/s (median of ${rounds} rounds of ${perRound}), ` +
      `p50 ${median(r.p50).toFixed(2)} ms, p99 ${median(r.p99).toFixed(2)} ms, failures ${r.failures}`,
  );
}
console.log(`with / without: ${(median(results.on.rps) / median(results.off.rps)).toFixed(3)} of the throughput`);
await closeDb();
