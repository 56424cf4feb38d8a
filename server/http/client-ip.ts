import type { IncomingMessage } from "node:http";
import { isIP } from "node:net";

// One answer to "who is calling", for every per-IP limit. The web server
// (scripts/serve.ts) decides it from the socket, trusting X-Forwarded-For only as
// far as TRUST_PROXY_HOPS says, and hands it to the app in CLIENT_IP_HEADER after
// deleting any copy the client sent. App code reads only that header: a client
// that rotates X-Forwarded-For no longer gets a fresh bucket per request.

export const CLIENT_IP_HEADER = "x-client-ip";
const UNKNOWN = "unknown";

/**
 * The client address: the socket's by default; with `hops` trusted proxies in
 * front, the hops-th address from the right of X-Forwarded-For (each proxy
 * appends the address it saw), or the leftmost when the list is shorter. An
 * entry that is not an IP address falls back to the socket.
 */
export function resolveClientIp(socketAddress: string | undefined, forwardedFor: string | string[] | undefined, hops: number): string {
  const socket = normalise(socketAddress) ?? UNKNOWN;
  if (hops <= 0 || !forwardedFor) return socket;
  const list = (Array.isArray(forwardedFor) ? forwardedFor.join(",") : forwardedFor)
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (list.length === 0) return socket;
  const candidate = list[Math.max(0, list.length - hops)];
  return normalise(candidate) ?? socket;
}

function normalise(address: string | undefined): string | undefined {
  if (!address) return undefined;
  const bare = address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return isIP(bare) ? bare : undefined;
}

/** What the web server does to every request before the app sees it. */
export function tagClientIp(request: IncomingMessage, hops: number): string {
  const ip = resolveClientIp(request.socket.remoteAddress, request.headers["x-forwarded-for"], hops);
  request.headers[CLIENT_IP_HEADER] = ip; // replaces whatever the client sent under this name
  return ip;
}

/** The caller's address as the web server decided it; "unknown" outside it (one shared bucket). */
export function clientIp(source: Request | Headers | { get(name: string): string | null }): string {
  const headers = source instanceof Request ? source.headers : source;
  const value = headers.get(CLIENT_IP_HEADER)?.trim();
  return value && isIP(value) ? value : UNKNOWN;
}
