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
import { dispatch } from "@/reliability/lib/routes";

const server = createServer((incoming, outgoing) => {
  if (incoming.url === "/stats") {
    outgoing.end(JSON.stringify(credentialCacheStats()));
    return;
  }
  tagClientIp(incoming, 0);
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
      const method = incoming.method ?? "GET";
      const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
      try {
        const response = await dispatch(new Request(`http://localhost${incoming.url}`, { method, headers, body }));
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        // Outside every route's own error mapping: a bug the harnesses count as a 5xx.
        console.error(error);
        outgoing.writeHead(500, { "content-type": "text/plain" }).end("unhandled");
      }
    })();
  });
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })));
