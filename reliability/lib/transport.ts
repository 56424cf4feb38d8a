import { spawn, type ChildProcess } from "node:child_process";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";
import { dispatch } from "./routes";
import { stopChildren } from "./processes";

// Where a harness sends its requests: the route handlers in this process, HTTP
// servers already running (REL_URLS, e.g. `npm start` builds on two ports), or
// gate servers it starts itself (tests/helpers/gate-server.ts, one process each,
// same database). Requests are spread over the targets round-robin.

export interface Target {
  name: string;
  send(request: Request): Promise<Response>;
}

export interface Answer {
  status: number;
  text: string;
  headers: Headers;
  target: string;
}

export const inProcess: Target = { name: "in-process", send: dispatch };

export function httpTarget(baseUrl: string): Target {
  const base = baseUrl.replace(/\/$/, "");
  return {
    name: base,
    send: (request) => {
      const url = new URL(request.url);
      return fetch(`${base}${url.pathname}${url.search}`, {
        method: request.method,
        headers: request.headers,
        body: request.body,
        redirect: "manual",
        // @ts-expect-error Node's fetch needs duplex for a streamed body
        duplex: "half",
      });
    },
  };
}

export interface ServerProcesses {
  /** `http://127.0.0.1:port`, one per process. */
  urls: string[];
  targets: Target[];
  children: ChildProcess[];
  stop(): Promise<void>;
}

/** `count` gate-server processes on DATABASE_URL, each on a free port. */
export async function startGateServers(count: number, env: Record<string, string> = {}): Promise<ServerProcesses> {
  const children: ChildProcess[] = [];
  const ports = await Promise.all(
    Array.from({ length: count }, () => {
      const child = spawn(process.execPath, ["--import", "tsx", "tests/helpers/gate-server.ts"], {
        env: { ...process.env, ...env },
        stdio: ["ignore", "pipe", "inherit"],
      });
      children.push(child);
      return new Promise<number>((resolve, reject) => {
        child.stdout!.once("data", (chunk: Buffer) => resolve((JSON.parse(chunk.toString()) as { port: number }).port));
        child.once("exit", (code) => reject(new Error(`gate server exited (${code})`)));
      });
    }),
  );
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  return {
    children,
    urls,
    targets: urls.map(httpTarget),
    stop: async () => {
      await stopChildren(children, "SIGKILL");
    },
  };
}

/** REL_URLS when set, else `fallback`. */
export function targetsFromEnv(fallback: Target[]): Target[] {
  const urls = process.env.REL_URLS?.split(",").filter(Boolean);
  return urls?.length ? urls.map(httpTarget) : fallback;
}

export interface SignedCall {
  method: string;
  /** Path with query. */
  url: string;
  body?: string;
  headers?: Record<string, string>;
  timestamp?: number;
  nonce?: string;
}

/** Signs with the project's client and sends exact bytes; the answer's text is kept exact too. */
export async function sendSigned(target: Target, credential: PartnerCredentials | undefined, call: SignedCall): Promise<Answer> {
  const signed = credential ? signRequest(credential, { method: call.method, url: call.url, body: call.body, timestamp: call.timestamp, nonce: call.nonce }) : {};
  const headers = new Headers({ ...(call.body === undefined ? {} : { "content-type": "application/json" }), ...signed, ...call.headers });
  const response = await target.send(new Request(`http://localhost${call.url}`, { method: call.method, headers, body: call.body }));
  return { status: response.status, text: await response.text(), headers: response.headers, target: target.name };
}
