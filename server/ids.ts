import { randomBytes, randomInt } from "node:crypto";

// Ids carry a type prefix and sort by creation time: 48 bits of milliseconds and
// 80 random bits, written as 22 base62 digits whose alphabet is in ASCII order.

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export const idPrefixes = {
  partner: "ptn",
  user: "usr",
  credential: "cred",
  domain: "dom",
  quote: "qt",
  order: "ord",
  refund: "rf",
  checkoutSession: "cs",
  payment: "pay",
  event: "evt",
  webhookEndpoint: "we",
  webhookDelivery: "whd",
  settlement: "stl",
  payout: "po",
  brokerageCase: "bc",
  link: "lnk",
  referralSale: "rs",
  commission: "cm",
  oauthClient: "oc",
  oauthToken: "otk",
  audit: "aud",
  request: "req",
  accessRequest: "par",
  invitation: "inv",
} as const;

export type IdKind = keyof typeof idPrefixes;

export function newId(kind: IdKind, nowMs: number = Date.now()): string {
  let value = (BigInt(nowMs) << 80n) | BigInt(`0x${randomBytes(10).toString("hex")}`);
  let digits = "";
  for (let i = 0; i < 22; i++) {
    digits = ALPHABET[Number(value % 62n)] + digits;
    value /= 62n;
  }
  return `${idPrefixes[kind]}_${digits}`;
}

/** Uniformly random base62 text (keys, secrets, link codes). */
export function randomBase62(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHABET[randomInt(62)];
  return out;
}
