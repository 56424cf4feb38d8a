import { closeDb, getDb } from "@/db/client";
import { ensureDatabase } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { randomBase62 } from "@/server/ids";
import { addDomain } from "@/server/services/inventory";
import { createCredential, createPartner } from "@/server/services/partners";
import autocannon, { type Options, type Result } from "autocannon";
import { signRequest, type PartnerCredentials } from "@/server/signing/client";

/**
 * A bench partner with `credentials` search keys and one listed sandbox domain,
 * in the same database the server uses. Signed search traffic is limited to 60
 * requests a minute per key, so benchmarks spread their load over the pool.
 */
export async function prepareBenchData(credentials: number, options: { keepOpen?: boolean } = {}) {
  process.env.DATABASE_URL ??= await ensureDatabase();
  await migrateDatabase(process.env.DATABASE_URL);
  const db = getDb();
  const suffix = randomBase62(8).toLowerCase();
  const partner = await createPartner(db, { name: `Bench ${suffix}`, email: `bench-${suffix}@bench.example`, paymentModel: "mor" });
  const pool: PartnerCredentials[] = [];
  for (let i = 0; i < credentials; i++) {
    const created = await createCredential(db, { partnerId: partner.partnerId, environment: "sandbox", scopes: ["search"] });
    pool.push({ keyId: created.keyId, secret: created.secret });
  }
  const domain = `bench${suffix}.com`;
  await addDomain(db, { environment: "sandbox", name: domain, priceCents: 250_00 });
  if (!options.keepOpen) await closeDb();
  return { pool, domain };
}

/**
 * `count` listed sandbox domains `${prefix}1.com` ... in one statement (addDomain
 * would audit each one; benches and harnesses measure orders, not listing).
 * `prefix` must be unique to the caller (lowercase letters and digits).
 */
export async function listBenchDomains(db: Database, input: { prefix: string; count: number; priceCents: number }): Promise<string[]> {
  const { prefix, count, priceCents } = input;
  await db.execute(sql`
    insert into domains (id, environment, name, label, tld, status, price_cents, currency, tokens)
    select 'dom_bench' || ${prefix} || lpad(i::text, 7, '0'), 'sandbox', ${prefix} || i || '.com', ${prefix} || i,
           'com', 'listed', ${priceCents}, 'USD', ${prefix}
    from generate_series(1, ${count}) as i`);
  return Array.from({ length: count }, (_, i) => `${prefix}${i + 1}.com`);
}

/** A kept-alive socket the server closed just as the client reused it (its idle timeout, a worker stopping). */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE"]);

/**
 * autocannon, with socket resets counted apart from errors (`resets`; `errors` is the
 * rest: timeouts, refused connections). A reset is the client's race with the server's
 * keep-alive, not a failed request: bench/hot-path.ts's fixed-rate phase retries such a
 * request once and reports it apart in the same way.
 */
export async function runAutocannon(options: Options): Promise<Result & { resets: number }> {
  const instance = autocannon(options);
  let resets = 0;
  instance.on("reqError", (error) => {
    if (error.code && RESET_CODES.has(error.code)) resets++;
  });
  const result = await instance;
  return { ...result, errors: result.errors - resets, resets };
}

/**
 * Closed-loop GETs of one path (autocannon): each request freshly signed, a new nonce, by the
 * next credential of `signedBy`; unsigned without it.
 */
export function loadGet(options: { baseUrl: string; path: string; connections: number; seconds: number; signedBy?: readonly PartnerCredentials[] }) {
  const { baseUrl, path, connections, seconds, signedBy } = options;
  let next = 0;
  return runAutocannon({
    url: `${baseUrl}${path}`,
    connections,
    duration: seconds,
    requests: [
      {
        method: "GET",
        path,
        setupRequest: (request: { headers?: Record<string, string> }) => {
          if (!signedBy) return request;
          const credential = signedBy[next++ % signedBy.length]!;
          return { ...request, headers: { ...request.headers, ...signRequest(credential, { method: "GET", url: path }) } };
        },
      },
    ],
  });
}
