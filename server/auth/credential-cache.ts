import { getListenerConnection, onCloseDb } from "@/db/client";
import { getEnv } from "@/server/env";
import { logError } from "@/server/log";

// The signing gate's credentials in process memory, the sealed secret already
// opened, so a signed request spends no round trip and no AES on its key.
//
// Invariant: a change the gate reads (revoke, roll, allow-list, scopes, suspend,
// payment model, affiliate) stops being served from any process's cache within
// FRESH_MS of its commit. Triggers (db/migrations/0017_credential_cache.sql) announce
// every such change on channel credential_changes at commit, whatever wrote it;
// each process LISTENs on one connection beside its pool and drops the entries
// named. A heartbeat on that connection every HEARTBEAT_MS proves it is alive:
// PostgreSQL delivers notifications committed before a query ahead of that
// query's answer, so once a heartbeat begun at time t has answered, nothing
// committed before t is missing. Entries are served only while the last
// answered heartbeat began within FRESH_MS; a silent or dropped listener turns
// the cache off (every request reads the row, as before) until LISTEN runs again,
// which also empties it. TTL_MS bounds any entry's age whatever happens.
//
// The services that make these changes also forget the entries themselves after
// commit, so this process sees its own writes at once (forgetCredentials).

const CHANNEL = "credential_changes";
const HEARTBEAT_MS = 200;
export const FRESH_MS = 800;
const TTL_MS = 30_000;
/** Beyond this, the oldest entries go (a Map iterates in insertion order). */
const MAX_ENTRIES = 50_000;

interface Entry<T> {
  value: T;
  partnerId: string;
  loadedAt: number;
}

interface Cache {
  entries: Map<string, Entry<unknown>>;
  /** Bumped by every notification and every (re)LISTEN: a load begun before may not be stored. */
  generation: number;
  listening: boolean;
  /** Date.now() when the last heartbeat that answered was sent; 0 while not listening. */
  confirmedAt: number;
  timer?: NodeJS.Timeout;
  beating: boolean;
  /** Bench/diagnostics: hits and loads since start. */
  hits: number;
  loads: number;
}

// One cache per process, shared by every route bundle Next loads (like the request log buffer).
const holder = globalThis as unknown as { __pdmCredentialCache?: Cache };
const cache: Cache = (holder.__pdmCredentialCache ??= {
  entries: new Map(),
  generation: 0,
  listening: false,
  confirmedAt: 0,
  beating: false,
  hits: 0,
  loads: 0,
});

function clear(): void {
  cache.entries.clear();
  cache.generation++;
}

function onNotify(channel: string, payload: string): void {
  if (channel !== CHANNEL) return;
  cache.generation++;
  if (payload.startsWith("k:")) cache.entries.delete(payload.slice(2));
  else if (payload.startsWith("p:")) forgetPartner(payload.slice(2));
  else clear();
}

function onClose(): void {
  cache.listening = false;
  cache.confirmedAt = 0;
  clear();
}

async function heartbeat(): Promise<void> {
  if (cache.beating) return;
  cache.beating = true;
  const sentAt = Date.now();
  try {
    const sql = getListenerConnection({ onnotify: onNotify, onclose: onClose });
    if (!cache.listening) {
      await sql`listen credential_changes`;
      // Whatever changed while nobody listened is unknown: start empty.
      clear();
      cache.listening = true;
    } else {
      await sql`select 1`;
    }
    cache.confirmedAt = sentAt;
  } catch (error) {
    if (cache.listening) logError("credential cache listener", error);
    onClose();
  } finally {
    cache.beating = false;
  }
}

function start(): void {
  if (cache.timer) return;
  onCloseDb(stopCredentialCache);
  cache.timer = setInterval(() => void heartbeat(), HEARTBEAT_MS);
  cache.timer.unref();
  void heartbeat();
}

/** Stops the heartbeat and empties the cache (closeDb calls it, then ends the connection). */
export function stopCredentialCache(): void {
  if (cache.timer) clearInterval(cache.timer);
  cache.timer = undefined;
  onClose();
}

function fresh(now: number): boolean {
  return cache.listening && now - cache.confirmedAt <= FRESH_MS;
}

/**
 * The cached value for `keyId` when it may be served now, without a promise (the
 * signing gate's common case); undefined: ask cachedCredential, which loads it.
 */
export function peekCredential<T>(keyId: string): T | undefined {
  if (!cache.timer || !getEnv().CREDENTIAL_CACHE) return undefined;
  const now = Date.now();
  if (!fresh(now)) return undefined;
  const entry = cache.entries.get(keyId);
  if (!entry || now - entry.loadedAt >= TTL_MS) return undefined;
  cache.hits++;
  return entry.value as T;
}

/**
 * The cached value for `keyId`, else `load()` (which returns undefined for an
 * unknown key: misses are never stored, so made-up key ids cost no memory).
 */
export async function cachedCredential<T extends { partnerId: string }>(
  keyId: string,
  load: () => Promise<T | undefined>,
): Promise<T | undefined> {
  if (!getEnv().CREDENTIAL_CACHE) return load();
  start();
  const now = Date.now();
  if (fresh(now)) {
    const entry = cache.entries.get(keyId);
    if (entry && now - entry.loadedAt < TTL_MS) {
      cache.hits++;
      return entry.value as T;
    }
  }
  const generation = cache.generation;
  const value = await load();
  cache.loads++;
  // A change announced while the row was being read may predate what was read.
  if (value && generation === cache.generation && fresh(Date.now())) {
    cache.entries.delete(keyId);
    cache.entries.set(keyId, { value, partnerId: value.partnerId, loadedAt: now });
    if (cache.entries.size > MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value!);
  }
  return value;
}

function forgetPartner(partnerId: string): void {
  for (const [keyId, entry] of cache.entries) if (entry.partnerId === partnerId) cache.entries.delete(keyId);
}

/**
 * This process's own writes, at once (other processes learn by notification).
 * Call after the change commits; called inside a caller's transaction, the
 * notification at commit still covers a load that read the old row meanwhile.
 */
export function forgetCredentials(target: { keyId: string } | { partnerId: string }): void {
  cache.generation++;
  if ("keyId" in target) cache.entries.delete(target.keyId);
  else forgetPartner(target.partnerId);
}

export function credentialCacheStats() {
  return { entries: cache.entries.size, hits: cache.hits, loads: cache.loads, listening: cache.listening, fresh: fresh(Date.now()) };
}

/** `change` (a service's transaction) as is, this process's entries for `target` forgotten once it commits. */
export async function forgettingCredentials<T>(target: { keyId: string } | { partnerId: string }, change: Promise<T>): Promise<T> {
  const result = await change;
  forgetCredentials(target);
  return result;
}
