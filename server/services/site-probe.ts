import http from "node:http";
import https from "node:https";
import net from "node:net";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { siteProbes } from "@/db/schema";
import { clock } from "@/server/clock";
import { findBlockedAddress, resolveHost } from "@/server/webhooks/ssrf";

// "Does this domain run an active site?" for brokerage eligibility: a DNS lookup
// (A/AAAA via the system resolver) and, when it answers with public addresses,
// HEAD requests to http:// and https:// on the first address. Any HTTP answer
// below 500 from either counts as an active site (parked pages count too: the
// probe cannot tell them apart, and staff research the case anyway).
//
// Invariants:
// - No answer is not an error: a lookup failure (NXDOMAIN, no network, timeout)
//   means "no active site". On a machine without DNS this is fast (the resolver
//   fails at once) and bounded by DNS_TIMEOUT_MS otherwise.
// - Never connects to a private, loopback or otherwise non-public address (the
//   webhook SSRF classifier) unless the probe was built with allowPrivate (tests).
//   The socket connects to the address that was checked, so a changing DNS
//   answer cannot redirect it.
// - Names under the RFC 2606/6761 reserved TLDs (.test, .example, .invalid,
//   .localhost) never resolve publicly: they are answered without any lookup.
// - Results are cached in site_probes: CACHE_TTL_MS for answers, a shorter
//   FAILURE_TTL_MS when the lookup itself failed (it may be transient).

export const DNS_TIMEOUT_MS = 1500;
export const HTTP_TIMEOUT_MS = 2000;
export const CACHE_TTL_MS = 24 * 3600_000;
export const FAILURE_TTL_MS = 3600_000;

export interface ProbeResult {
  active: boolean;
  /** Why, in a few words (stored; shown to staff, never to buyers). */
  detail: string;
  /** The DNS lookup failed: cached for FAILURE_TTL_MS only. */
  lookupFailed?: boolean;
}

export type SiteProbe = (domain: string) => Promise<ProbeResult>;

export interface SiteProbeOptions {
  /** Resolves a name to addresses (default: system resolver with DNS_TIMEOUT_MS). */
  resolve?: (host: string) => Promise<string[]>;
  /** Allow non-public addresses (tests pointing a name at 127.0.0.1 only). */
  allowPrivate?: boolean;
  ports?: { http: number; https: number };
  httpTimeoutMs?: number;
}

const RESERVED_TLDS = new Set(["test", "example", "invalid", "localhost"]);

export function createSiteProbe(options: SiteProbeOptions = {}): SiteProbe {
  const resolve = options.resolve ?? ((host: string) => resolveHost(host, DNS_TIMEOUT_MS));
  const ports = options.ports ?? { http: 80, https: 443 };
  const timeout = options.httpTimeoutMs ?? HTTP_TIMEOUT_MS;
  return async (domain) => {
    if (RESERVED_TLDS.has(domain.split(".").at(-1) ?? "")) return { active: false, detail: "reserved TLD; never resolves" };
    let addresses: string[];
    try {
      addresses = await resolve(domain);
    } catch (error) {
      const code = (error as { code?: string }).code ?? "error";
      return { active: false, detail: `no DNS answer (${code})`, lookupFailed: true };
    }
    if (addresses.length === 0) return { active: false, detail: "no A/AAAA records", lookupFailed: true };
    const blocked = options.allowPrivate ? undefined : findBlockedAddress(addresses);
    if (blocked) return { active: false, detail: `resolves to non-public ${blocked.address}; not probed` };
    const address = addresses[0]!;
    const answers = await Promise.all([
      headStatus(http, { address, port: ports.http, domain, timeout }),
      headStatus(https, { address, port: ports.https, domain, timeout }),
    ]);
    const hit = answers.find((a) => a.status !== undefined && a.status < 500);
    if (hit) return { active: true, detail: `${hit.scheme} answered ${hit.status}` };
    return { active: false, detail: `no HTTP answer from ${address}` };
  };
}

interface Target {
  address: string;
  port: number;
  domain: string;
  timeout: number;
}

/** HEAD / on the checked address with the domain as Host (and TLS server name); never follows redirects. */
function headStatus(lib: typeof http | typeof https, target: Target): Promise<{ scheme: string; status?: number }> {
  const scheme = lib === https ? "https" : "http";
  return new Promise((resolve) => {
    const done = (status?: number) => resolve({ scheme, status });
    const request = lib.request({
      host: target.address,
      family: net.isIP(target.address),
      port: target.port,
      method: "HEAD",
      path: "/",
      headers: { host: target.domain, "user-agent": "domain-marketplace-brokerage-probe" },
      timeout: target.timeout,
      agent: false,
      // Only "does anything answer": a self-signed or expired certificate is still a site.
      ...(lib === https ? { servername: target.domain, rejectUnauthorized: false } : {}),
    });
    const timer = setTimeout(() => request.destroy(), target.timeout);
    request.on("response", (response) => {
      clearTimeout(timer);
      response.resume();
      request.destroy();
      done(response.statusCode);
    });
    request.on("timeout", () => request.destroy());
    request.on("error", () => {
      clearTimeout(timer);
      done(undefined);
    });
    request.on("close", () => {
      clearTimeout(timer);
      done(undefined);
    });
    request.end();
  });
}

// The probe the service uses; tests swap it (like the clock) for a local one.
let current: SiteProbe = createSiteProbe();

export function getSiteProbe(): SiteProbe {
  return current;
}

/** Test hook: replace the probe (pass nothing to restore the real one). */
export function setSiteProbe(probe?: SiteProbe): void {
  current = probe ?? createSiteProbe();
}

/** The cached answer when fresh, else a new probe (stored). */
export async function checkActiveSite(db: Db, domain: string, probe: SiteProbe = current): Promise<ProbeResult> {
  const now = clock.now();
  const [cached] = await db.select().from(siteProbes).where(eq(siteProbes.domain, domain));
  if (cached) {
    const ttl = cached.detail?.startsWith("no DNS answer") || cached.detail === "no A/AAAA records" ? FAILURE_TTL_MS : CACHE_TTL_MS;
    if (now.getTime() - cached.checkedAt.getTime() < ttl) return { active: cached.active, detail: cached.detail ?? "" };
  }
  const result = await probe(domain);
  const row = { domain, active: result.active, detail: result.detail, checkedAt: now };
  await db.insert(siteProbes).values(row).onConflictDoUpdate({ target: siteProbes.domain, set: row });
  return result;
}
