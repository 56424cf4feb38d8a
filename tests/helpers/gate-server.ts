// A server process for tests and the reliability harnesses: every API route
// file (reliability/lib/routes.ts) over HTTP, with its own pool, credential
// cache and request log on the same database, and no Next build. The client
// address is decided as scripts/serve.ts does. Prints {"port": n} once
// listening; GET /stats answers the credential cache's counters.
//   node --import tsx tests/helpers/gate-server.ts [port]
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { credentialCacheStats } from "@/server/auth/credential-cache";
import { tagClientIp } from "@/server/http/client-ip";
import { answerWithRoutes } from "./route-bridge";

const server = createServer((incoming, outgoing) => {
  if (incoming.url === "/stats") {
    outgoing.end(JSON.stringify(credentialCacheStats()));
    return;
  }
  tagClientIp(incoming, 0);
  answerWithRoutes(incoming, outgoing);
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })));
