// CPU of the per-request pieces GET /availability's web-server path changed in section 9
// of bench/HOT-PATH.md, old way against new, alternated in one process (no database,
// no server): a loaded machine inflates both alike, so the difference is what to read.
//   npx tsx bench/gate-pieces.ts [ITERATIONS=20000] [ROUNDS=5]
import { PgDialect } from "drizzle-orm/pg-core";
import { listingRead, listingSql } from "@/server/services/discovery";
import { normalizeDomainName } from "@/server/services/inventory";
import { canonicalQuery } from "@/server/signing/canonical";

const iterations = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 5);
const dialect = new PgDialect({ casing: "snake_case" });
const input = { partnerId: "ptn_0354k1bWJz37Tb8XwSfcCf", environment: "sandbox" as const };
const domain = "benchfag8skwm.com";
let sink = 0;

const pieces: Record<string, [old: () => unknown, now: () => unknown]> = {
  "listing read (Drizzle build + sqlToQuery -> listingRead)": [
    () => dialect.sqlToQuery(listingSql({ ...input, domain })),
    () => listingRead({ ...input, name: domain }),
  ],
  "canonical query of ?domain=... (general -> single plain pair)": [
    () => canonicalQuery(new URLSearchParams(`domain=${domain}`)),
    () => canonicalQuery(`?domain=${domain}`),
  ],
  "domain name normalised (3 times -> once)": [
    () => [normalizeDomainName(domain), normalizeDomainName(domain), normalizeDomainName(domain)],
    () => normalizeDomainName(domain),
  ],
};

function usPerCall(fn: () => unknown): number {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) sink += fn() ? 1 : 0;
  const used = process.cpuUsage(start);
  return (used.user + used.system) / iterations;
}

for (const [title, [old, now]] of Object.entries(pieces)) {
  for (let i = 0; i < 2000; i++) sink += old() && now() ? 1 : 0; // warm-up
  const olds: number[] = [];
  const nows: number[] = [];
  for (let r = 0; r < rounds; r++) {
    olds.push(usPerCall(old));
    nows.push(usPerCall(now));
  }
  const range = (xs: number[]) => `${Math.min(...xs).toFixed(1)}-${Math.max(...xs).toFixed(1)}`;
  console.log(`${title}: before ${range(olds)} us, after ${range(nows)} us per request (${rounds} rounds of ${iterations})`);
}
if (sink < 0) console.log(sink);
