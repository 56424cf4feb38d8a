import { getEnv } from "@/server/env";

/**
 * Where to go after signing in: only paths on this site, never another origin
 * (an open redirect would let a phishing link bounce through our sign-in).
 * Absolute URLs on APP_URL are accepted because next-auth builds those.
 */
export function safeCallbackPath(value: unknown, fallback = "/dashboard"): string {
  if (typeof value !== "string" || value === "") return fallback;
  const base = new URL(getEnv().APP_URL);
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    return fallback;
  }
  if (url.origin !== base.origin) return fallback;
  // "//evil.example" and "/\evil.example" parse as other origins above; this
  // also rejects a path that would send the user straight back to sign-in.
  if (url.pathname.startsWith("/sign-in") || url.pathname.startsWith("/api/auth")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

export function signInPath(callbackPath?: string): string {
  return callbackPath ? `/sign-in?callbackUrl=${encodeURIComponent(callbackPath)}` : "/sign-in";
}
