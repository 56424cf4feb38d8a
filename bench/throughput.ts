// Throughput of a signed partner route against a static JSON route of the same build.
//
//   npm start                      # in one terminal (or any running build)
//   npm run bench                  # in another; BENCH_URL, BENCH_SECONDS, BENCH_CONNECTIONS adjust it
//
// Every signed request carries a fresh nonce and passes the full gate (credential
// lookup, signature, nonce record, rate limit). The search class allows 60
// requests a minute per credential, so the load is spread over a pool of bench
// credentials: what is measured is the accepted path, not 429s.
import { loadGet, prepareBenchData } from "./setup";

const baseUrl = (process.env.BENCH_URL ?? "http://localhost:3000").replace(/\/$/, "");
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 16);

// Headroom for 3k req/s: each key allows a burst of 60 and one more a second.
const { pool, domain } = await prepareBenchData(Math.ceil(((seconds + 5) * 3000) / 60));

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  resets: number;
}

async function measure(title: string, path: string, signed: boolean): Promise<Figures> {
  const result = await loadGet({ baseUrl, path, connections, seconds, signedBy: signed ? pool : undefined });
  const figures = {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    resets: result.resets,
  };
  console.log(
    `${title.padEnd(36)} ${figures.rps.toFixed(0).padStart(7)} req/s   p50 ${figures.p50} ms   p99 ${figures.p99} ms   non-2xx ${figures.non2xx}   errors ${figures.errors}   socket resets ${figures.resets}`,
  );
  return figures;
}

console.log(`bench against ${baseUrl}: ${connections} connections, ${seconds} s per route, ${pool.length} credentials`);
await measure("warm-up (static)", "/api/ping", false);
const staticRoute = await measure("GET /api/ping (static JSON)", "/api/ping", false);
const signedRoute = await measure("GET /availability (signed)", `/api/partner/v1/availability?domain=${domain}`, true);
console.log(`ratio signed/static: ${(signedRoute.rps / staticRoute.rps).toFixed(2)}`);
if (signedRoute.non2xx > 0) console.log("warning: the signed run had non-2xx answers; the figure is not the accepted path");
