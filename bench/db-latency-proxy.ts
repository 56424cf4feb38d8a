// A TCP proxy in front of PostgreSQL that delays every chunk by a fixed time in each
// direction, as a database in another zone would: on loopback a round trip costs
// about 0.05 ms, so counting round trips (bench/round-trips.ts) shows nothing in a
// local bench; with the proxy each one costs what it costs in a deployment.
//   BENCH_PROXY_PORT=5491 BENCH_ONE_WAY_MS=1 npx tsx bench/db-latency-proxy.ts
// then point a server's DATABASE_URL at port 5491 (the bench's own setup may use 5432).
import net from "node:net";

const port = Number(process.env.BENCH_PROXY_PORT ?? 5491);
const oneWayMs = Number(process.env.BENCH_ONE_WAY_MS ?? 1);
const target = { host: process.env.BENCH_PG_HOST ?? "127.0.0.1", port: Number(process.env.BENCH_PG_PORT ?? 5432) };

/** Sends each chunk `oneWayMs` after it arrived, in order (a timer per chunk keeps the order: same delay). */
function delayed(from: net.Socket, to: net.Socket): void {
  from.on("data", (chunk) => setTimeout(() => to.write(chunk), oneWayMs));
  from.on("end", () => setTimeout(() => to.end(), oneWayMs));
  from.on("error", () => to.destroy());
}

net
  .createServer((client) => {
    client.setNoDelay(true);
    const server = net.connect(target, () => server.setNoDelay(true));
    delayed(client, server);
    delayed(server, client);
    client.on("close", () => server.destroy());
    server.on("close", () => client.destroy());
  })
  .listen(port, "127.0.0.1", () => console.log(`db latency proxy :${port} -> ${target.host}:${target.port}, ${oneWayMs} ms each way`));
