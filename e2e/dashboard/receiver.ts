import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";

// A webhook receiver for the dashboard's browser tests, on 127.0.0.1.

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  event: { id: string; type: string };
  answered: number;
}

/** A webhook receiver on 127.0.0.1 that records every request and answers 200, or 500 while `failing`. */
export class Receiver {
  readonly requests: Received[] = [];
  failing = false;
  private server: Server | undefined;

  async start(): Promise<number> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        const answered = this.failing ? 500 : 200;
        let event = { id: "", type: "" };
        try {
          event = JSON.parse(body) as typeof event;
        } catch {
          // recorded as is; the assertions will say what arrived
        }
        this.requests.push({ headers: req.headers, body, event, answered });
        res.writeHead(answered, { "content-type": "text/plain" });
        res.end(answered === 200 ? "ok" : "receiver is down for the test");
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    return (this.server!.address() as AddressInfo).port;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The first request (after `from`) for an event of `type`, once it has arrived. */
  async next(type: string, from = 0): Promise<Received> {
    let found: Received | undefined;
    await expect
      .poll(() => (found = this.requests.slice(from).find((r) => r.event.type === type)), { timeout: 15_000, message: `a ${type} delivery` })
      .toBeTruthy();
    return found!;
  }
}

