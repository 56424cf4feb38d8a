// A second server process for tests: signed GET /availability over HTTP, through
// the same route handler and gate as the app, with its own pool and credential
// cache on the same database. Prints {"port": n} once listening; GET /stats
// answers the cache's counters.
//   node --import tsx tests/helpers/gate-server.ts
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { GET } from "@/app/api/partner/v1/availability/route";
import { credentialCacheStats } from "@/server/auth/credential-cache";

const server = createServer((incoming, outgoing) => {
  void (async () => {
    if (incoming.url === "/stats") {
      outgoing.end(JSON.stringify(credentialCacheStats()));
      return;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
    const response = await GET(new Request(`http://localhost${incoming.url}`, { headers }), { params: Promise.resolve({}) });
    outgoing.writeHead(response.status, { "content-type": "application/json" });
    outgoing.end(await response.text());
  })();
});
server.listen(0, "127.0.0.1", () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })));
