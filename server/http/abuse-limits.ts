import type { Db } from "@/db/client";
import { sha256Hex } from "@/server/crypto";
import { takeBuckets, type RateLimitResult } from "@/server/oauth/rate-limit";

// Limits of the pages anyone can reach without a key, all on the one limiter
// (rate_limit_take) and the one client address (server/http/client-ip.ts).
// Each is checked in the transport before the work it protects.

const MINUTE = 60_000;

export const abuseLimits = {
  /** Card testing: a stolen-card list tried on one checkout, or across many from one address. */
  pay: { perSession: { limit: 5, periodMs: 10 * MINUTE }, perIp: { limit: 20, periodMs: 60 * MINUTE } },
  /** Each "Buy now" reserves nothing but writes a checkout session. */
  buyNow: { perIp: { limit: 30, periodMs: 10 * MINUTE } },
  /** The storefront's search runs the full search engine. */
  storefrontSearch: { perIp: { limit: 60, periodMs: MINUTE } },
  /** Clicks counted per address and link; beyond, the visitor is still redirected but not counted. */
  referralClick: { perIpPerLink: { limit: 10, periodMs: 60 * MINUTE } },
} as const;

export function takePayAttempt(db: Db, checkoutToken: string, ip: string): Promise<RateLimitResult> {
  const { perSession, perIp } = abuseLimits.pay;
  return takeBuckets(db, [
    { key: `pay:session:${sha256Hex(checkoutToken)}`, ...perSession },
    { key: `pay:ip:${ip}`, ...perIp },
  ]);
}

export function takeBuyNow(db: Db, ip: string): Promise<RateLimitResult> {
  return takeBuckets(db, [{ key: `buy-now:ip:${ip}`, ...abuseLimits.buyNow.perIp }]);
}

export function takeStorefrontSearch(db: Db, ip: string): Promise<RateLimitResult> {
  return takeBuckets(db, [{ key: `storefront-search:ip:${ip}`, ...abuseLimits.storefrontSearch.perIp }]);
}

export function takeReferralClick(db: Db, code: string, ip: string): Promise<RateLimitResult> {
  return takeBuckets(db, [{ key: `referral-click:${code}:${ip}`, ...abuseLimits.referralClick.perIpPerLink }]);
}

/** "Try again in 4 minutes." */
export function retryInWords(seconds: number): string {
  if (seconds < 60) return `Try again in ${seconds} second${seconds === 1 ? "" : "s"}.`;
  const minutes = Math.ceil(seconds / 60);
  return `Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
}
