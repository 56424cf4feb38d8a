import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local webhook receiver that answers 200 and counts each event id it is sent
 * (the crash and scale-out harnesses check at-least-once and exactly-once with it).
 */
export async function startCountingReceiver(): Promise<{ url: string; received: Map<string, number>; close(): Promise<void> }> {
  const received = new Map<string, number>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const id = String(req.headers["x-service-event-id"]);
      received.set(id, (received.get(id) ?? 0) + 1);
      res.writeHead(200).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}
