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
