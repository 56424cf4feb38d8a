// Writes bench/search/dev-queries-framed.json: the six development sets' queries
// (never the held-out bench/search/eval set) wrapped in the words people put around
// what they want when they type into a domain search or ask an agent: "domain for ...",
// "... website name", "can you find me a domain for ...?", capitals and punctuation.
// Each query keeps its sets, and `clean` holds it as written: dev.ts runs both in one
// run and prints what the framing costs as a ratio.
//   npx tsx bench/search/make-framed-queries.ts
//   DEV_QUERIES=bench/search/dev-queries-framed.json DEV_SIZE=100000 npx tsx bench/search/dev.ts
// The framings below were written for this file, from how people phrase a request, not
// from the engine's list of framing words; queries that already say what they want
// (a name, a domain, a site, a brand) are left out. A framing never names a TLD, since
// the grades do not depend on the TLD asked for.
import { mulberry32 } from "@/db/seed-data";
import { devQueries, writeVariedSet, type DevQuery } from "./dev-sets";

const SEED = 2026_1129;
const FRAMINGS: ((q: string) => string)[] = [
  (q) => `domain for ${q}`,
  (q) => `domain name ideas for ${q}`,
  (q) => `i need a website for ${q}`,
  (q) => `looking for a domain: ${q}`,
  (q) => `${q} domain`,
  (q) => `${q} website name`,
  (q) => `good domain names - ${q}`,
  (q) => `${capital(q)}.`,
  (q) => `${capital(q)}!!`,
  (q) => `help me name my business, ${q}`,
  (q) => `can you find me a domain for ${q}?`,
  (q) => `Startup: ${q}`,
  (q) => `suggest a name for ${q}`,
  (q) => `${q} - any available domains?`,
  (q) => `searching for domains about ${q}`,
  (q) => `"${q}"`,
];
const ALREADY_FRAMED = /\b(name|names|domain|domains|website|site|brand|called|url)\b/;

const capital = (q: string) => q.charAt(0).toUpperCase() + q.slice(1);
const rng = mulberry32(SEED);

const out: (DevQuery & { clean: string })[] = [];
for (const query of devQueries()) {
  if (ALREADY_FRAMED.test(query.q)) continue;
  const frame = FRAMINGS[Math.floor(rng() * FRAMINGS.length)] as (q: string) => string;
  out.push({ q: frame(query.q), stratum: "framed", sets: query.sets, clean: query.q });
}
writeVariedSet("dev-queries-framed.json", out);
console.log(`${out.length} queries, each in a framing`);
