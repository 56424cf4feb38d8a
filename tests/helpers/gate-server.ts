// A server process for tests and the reliability harnesses: every API route
// file (reliability/lib/routes.ts) over HTTP, with its own pool, credential
// cache and request log on the same database, and no Next build. The client
// address is decided as scripts/serve.ts does (TRUST_PROXY_HOPS). Prints
// {"port": n} once listening; GET /stats answers the credential cache's
// counters; POST /checkout/pay is the hosted checkout's pay form as its server
// action runs it (app/checkout/pay-form.ts): 303 to where the action redirects,
// else 200 with the state the form would show.
//   node --import tsx tests/helpers/gate-server.ts [port]
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { credentialCacheStats } from "@/server/auth/credential-cache";
import { clientIp, tagClientIp } from "@/server/http/client-ip";
import { submitPayForm } from "@/app/checkout/pay-form";
import { getDb } from "@/db/client";
import { getEnv } from "@/server/env";
import { answerWithRoutes } from "./route-bridge";

/** The hosted checkout's pay form, posted as a browser without JavaScript would (the crash harness's buyers). */
async function payForm(request: Request): Promise<Response> {
  const result = await submitPayForm(getDb(), {}, await request.formData(), clientIp(request));
  return result.kind === "redirect"
    ? new Response(null, { status: 303, headers: { location: result.location } })
    : Response.json(result.state);
}

const hops = getEnv().TRUST_PROXY_HOPS;

const server = createServer((incoming, outgoing) => {
  if (incoming.url === "/stats") {
    outgoing.end(JSON.stringify(credentialCacheStats()));
    return;
  }
  tagClientIp(incoming, hops);
  answerWithRoutes(incoming, outgoing, (request) =>
    request.method === "POST" && new URL(request.url).pathname === "/checkout/pay" ? payForm(request) : undefined,
  );
});
server.keepAliveTimeout = 60_000;
server.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => console.log(JSON.stringify({ port: (server.address() as AddressInfo).port })));
