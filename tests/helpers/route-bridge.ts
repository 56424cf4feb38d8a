import type { IncomingMessage, ServerResponse } from "node:http";
import { dispatch } from "@/reliability/lib/routes";

/**
 * Answers a node:http request with the app's API route files (no Next build), as Next would route it;
 * `handle` may answer some requests itself first (undefined: the routes answer).
 */
export function answerWithRoutes(
  incoming: IncomingMessage,
  outgoing: ServerResponse,
  handle: (request: Request) => Promise<Response> | undefined = () => undefined,
): void {
  const chunks: Buffer[] = [];
  incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
  incoming.on("end", () => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value);
      const method = incoming.method ?? "GET";
      const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
      try {
        const request = new Request(`http://localhost${incoming.url}`, { method, headers, body });
        const response = await (handle(request) ?? dispatch(request));
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      } catch (error) {
        // Outside every route's own error mapping: a bug the harnesses count as a 5xx.
        console.error(error);
        outgoing.writeHead(500, { "content-type": "text/plain" }).end("unhandled");
      }
    })();
  });
}
