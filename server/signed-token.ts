import type { Environment } from "@/db/schema";
import { deriveKey, hmacSha256Hex, safeEqual } from "./crypto";

// Tamper-evident tokens handed to partners and buyers (quote ids, checkout `pt`):
// `<id>.<base64url JSON claims>.<base64url HMAC-SHA256 of the first two parts>`,
// keyed per purpose, so a token of one kind never verifies as another.

function sign(purpose: string, body: string): string {
  return Buffer.from(hmacSha256Hex(deriveKey(purpose), body), "hex").toString("base64url");
}

export function encodeSignedToken(purpose: string, id: string, claims: Record<string, unknown>): string {
  const body = `${id}.${Buffer.from(JSON.stringify(claims)).toString("base64url")}`;
  return `${body}.${sign(purpose, body)}`;
}

export type OpenedToken =
  | { ok: true; id: string; claims: Record<string, unknown> }
  | { ok: false; reason: "malformed" | "altered" };

/** Checks shape and signature; the caller checks what the claims say. */
export function openSignedToken(purpose: string, token: string, idPattern: RegExp): OpenedToken {
  if (token.length > 4000) return { ok: false, reason: "malformed" };
  const parts = token.split(".");
  const [id, payload, signature] = parts;
  if (parts.length !== 3 || !id || !payload || !signature || !idPattern.test(id)) return { ok: false, reason: "malformed" };
  if (!safeEqual(sign(purpose, `${id}.${payload}`), signature)) return { ok: false, reason: "altered" };
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    if (typeof claims !== "object" || claims === null || Array.isArray(claims)) return { ok: false, reason: "malformed" };
    return { ok: true, id, claims: claims as Record<string, unknown> };
  } catch {
    return { ok: false, reason: "malformed" };
  }
}

/** What quote and checkout tokens both bind: who, where, which name, at what price, until when. */
export interface OfferClaims {
  /** Null only for a storefront checkout session. */
  partnerId: string | null;
  environment: Environment;
  domain: string;
  priceCents: number;
  currency: string;
  expiresAt: Date;
}

/** The compact claims of an offer, as signed into the token. */
export function offerClaims(offer: OfferClaims): Record<string, unknown> {
  return {
    p: offer.partnerId,
    e: offer.environment,
    d: offer.domain,
    a: offer.priceCents,
    c: offer.currency,
    x: offer.expiresAt.getTime(),
  };
}

/** The offer an opened token's claims describe, or null when they are not one. */
export function readOfferClaims(v: Record<string, unknown>): OfferClaims | null {
  const ok =
    (v.p === null || typeof v.p === "string") &&
    (v.e === "sandbox" || v.e === "live") &&
    typeof v.d === "string" &&
    Number.isSafeInteger(v.a) &&
    typeof v.c === "string" &&
    Number.isSafeInteger(v.x);
  if (!ok) return null;
  return {
    partnerId: v.p as string | null,
    environment: v.e as Environment,
    domain: v.d as string,
    priceCents: v.a as number,
    currency: v.c as string,
    expiresAt: new Date(v.x as number),
  };
}
