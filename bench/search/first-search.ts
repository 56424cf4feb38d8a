// A web server's first searches after it starts, on each route that searches: signed partner
// search, public search and the MCP tool, each with a query no earlier search used, then a
// second new query, with the server's RSS before and after when BENCH_SERVER_PID is given.
// Start the server on a database with names in both environments (public search and the MCP
// tool read live), wait for /api/health/ready, then:
//   BENCH_URL=http://localhost:3000 DATABASE_URL=... BENCH_SERVER_PID=<pid of node web.mjs> npx tsx bench/search/first-search.ts
// What it measures: what the first searches still load after the start-up load (warm.ts).
import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { closeDb, getDb } from "@/db/client";
import { createCredential, createPartner } from "@/server/services/partners";
import { signRequest } from "@/server/signing/client";

const base = (process.env.BENCH_URL ?? "http://localhost:3000").replace(/\/$/, "");
const pid = process.env.BENCH_SERVER_PID;
const rssMb = () => (pid ? `${(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1]) / 1024).toFixed(0)} MB` : "n/a (set BENCH_SERVER_PID)");

const db = getDb();
const suffix = `${Date.now()}`;
const { partnerId } = await createPartner(db, { name: `First search ${suffix}`, email: `first-search-${suffix}@bench.example`, paymentModel: "mor" });
const credentials = await createCredential(db, { partnerId, environment: "sandbox", scopes: ["search"] });
await closeDb();

const routes: [string, (q: string) => Promise<Response>][] = [
  ["partner GET /api/partner/v1/domains/search (signed)", (q) => {
    const url = `/api/partner/v1/domains/search?q=${encodeURIComponent(q)}&limit=5`;
    return fetch(base + url, { headers: signRequest({ keyId: credentials.keyId, secret: credentials.secret }, { method: "GET", url }) });
  }],
  ["public POST /api/domain/search", (q) => fetch(`${base}/api/domain/search`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query: q }) })],
  ["MCP search_domain", (q) => fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "search_domain", arguments: { query: q } } }),
  })],
];
// Each route gets queries of its own, so none is answered from a cache another route filled.
const queries = [["quiet mountain cabin rentals", "organic dog treats"], ["vintage bicycle repair", "fresh bread bakery"], ["yoga retreat by the sea", "cheap family lawyer"]];

console.log(`server RSS before: ${rssMb()}`);
console.log("| route | first search ms | second (new query) ms | status |\n|---|---|---|---|");
for (const [i, [name, search]] of routes.entries()) {
  const times: number[] = [];
  const statuses: number[] = [];
  for (const q of queries[i]!) {
    const t = performance.now();
    const response = await search(q);
    await response.text();
    times.push(performance.now() - t);
    statuses.push(response.status);
  }
  console.log(`| ${name} | ${times[0]!.toFixed(0)} | ${times[1]!.toFixed(0)} | ${statuses.join(", ")} |`);
}
console.log(`server RSS after: ${rssMb()}`);
