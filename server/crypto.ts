import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  scrypt,
  timingSafeEqual,
  type ScryptOptions,
} from "node:crypto";
import { promisify } from "node:util";
import { getEnv } from "./env";

const scryptAsync = promisify(scrypt) as (password: string, salt: Buffer, keylen: number, options?: ScryptOptions) => Promise<Buffer>;

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export function hmacSha256Hex(key: string | Uint8Array, data: string | Uint8Array): string {
  return createHmac("sha256", key).update(data).digest("hex");
}

/** Constant-time comparison of two strings (false on length mismatch). */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

const derived = new Map<string, Buffer>();

/** A purpose-bound 32-byte key derived from SECRET_KEY, so no two uses share a key. */
export function deriveKey(purpose: string): Buffer {
  const secret = getEnv().SECRET_KEY;
  const cacheKey = `${purpose}\u0000${secret}`;
  let key = derived.get(cacheKey);
  if (!key) {
    key = Buffer.from(hkdfSync("sha256", secret, "pdm", purpose, 32));
    derived.set(cacheKey, key);
  }
  return key;
}

// Secrets the server must read back (HMAC keys) are sealed with AES-256-GCM:
// "v1.<iv>.<ciphertext>.<tag>" in base64url. The context string binds a sealed
// value to its row, so a ciphertext copied to another row does not open.
export function sealSecret(plaintext: string, context: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", deriveKey("secrets"), iv);
  cipher.setAAD(Buffer.from(context));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

export function openSecret(sealed: string, context: string): string {
  const [version, iv, ciphertext, tag] = sealed.split(".");
  if (version !== "v1" || !iv || !ciphertext || !tag) throw new Error("unknown sealed secret format");
  const decipher = createDecipheriv("aes-256-gcm", deriveKey("secrets"), Buffer.from(iv, "base64url"));
  decipher.setAAD(Buffer.from(context));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

// Passwords: scrypt with a per-password salt and its cost parameters stored with
// the hash, "scrypt$N=131072,r=8,p=1$<salt>$<hash>", so the cost can be raised
// later and older hashes still verify (and are rehashed at the next sign-in).
// The first format, "scrypt.<salt>.<hash>", used Node's default N=16384.
export const PASSWORD_PARAMS = { N: 2 ** 17, r: 8, p: 1 } as const;
const LEGACY_PARAMS = { N: 2 ** 14, r: 8, p: 1 } as const;

interface ParsedHash {
  params: { N: number; r: number; p: number };
  salt: Buffer;
  hash: Buffer;
}

function scryptOptions(params: { N: number; r: number; p: number }): ScryptOptions {
  // scrypt needs 128 * N * r bytes; Node's default ceiling (32 MiB) is below N=2^17.
  return { ...params, maxmem: 256 * params.N * params.r };
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password.normalize("NFKC"), salt, 32, scryptOptions(PASSWORD_PARAMS));
  const { N, r, p } = PASSWORD_PARAMS;
  return `scrypt$N=${N},r=${r},p=${p}$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

function parsePasswordHash(stored: string): ParsedHash | undefined {
  const legacy = /^scrypt\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(stored);
  if (legacy) return { params: LEGACY_PARAMS, salt: Buffer.from(legacy[1]!, "base64url"), hash: Buffer.from(legacy[2]!, "base64url") };
  const current = /^scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!current) return undefined;
  const [N, r, p] = [Number(current[1]), Number(current[2]), Number(current[3])];
  // Refuse parameters no hash of ours has: a tampered row must not make sign-in burn memory.
  if (N < 2 ** 14 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return undefined;
  const hash = Buffer.from(current[5]!, "base64url");
  if (hash.length < 16 || hash.length > 64) return undefined;
  return { params: { N, r, p }, salt: Buffer.from(current[4]!, "base64url"), hash };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const actual = await scryptAsync(password.normalize("NFKC"), parsed.salt, parsed.hash.length, scryptOptions(parsed.params));
  return timingSafeEqual(actual, parsed.hash);
}

/** Whether a stored hash is weaker than today's parameters (rehash it after a successful sign-in). */
export function passwordNeedsRehash(stored: string): boolean {
  const parsed = parsePasswordHash(stored);
  return !parsed || parsed.params.N < PASSWORD_PARAMS.N || parsed.params.r < PASSWORD_PARAMS.r || parsed.params.p < PASSWORD_PARAMS.p;
}

/** Stored for accounts created without a password: matches no hash format, so no password signs in. */
export const NO_PASSWORD = "!no-password";
