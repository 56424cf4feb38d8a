// What the engine made of a query, for development: its concepts (terms, weights,
// importance) and the top candidates with their scores and truth words.
//   BENCH_SIZE=100000 npx tsx bench/search/explain.ts "dog groomer" "house cleaning"
// Reads the kept scratch database search_bench_<size> (run.ts with BENCH_KEEP=1).
import { createPool } from "@/db/client";
import { runQuery } from "@/server/services/discovery";
import { generateCorpus } from "./corpus";

const size = Number(process.env.BENCH_SIZE ?? 100_000);
const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
// BENCH_DB names another kept database; its corpus then needs BENCH_VOCAB and DEV_SEED as it was made with (dev.ts).
const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${process.env.BENCH_DB ?? `search_bench_${size}`}`);
const { db, sql: client } = createPool(dbUrl, 5);
const truth = new Map(generateCorpus(size, process.env.DEV_SEED ? Number(process.env.DEV_SEED) : undefined).map((d) => [d.name, d.tokens]));
const limit = Number(process.env.EXPLAIN_LIMIT ?? 12);

for (const text of process.argv.slice(2)) {
  const { hits, concepts } = await runQuery(db, text, { environment: "sandbox", limit });
  console.log(`\n"${text}"`);
  for (const c of concepts) {
    const terms = [...c.terms].map(([t, w]) => `${t}${c.semantic.has(t) ? "~" : ""}:${w.toFixed(2)}`).join(" ");
    console.log(`  ${c.word} imp ${(c.importance ?? 1).toFixed(2)}${c.centrality != null ? ` central ${c.centrality.toFixed(2)}` : ""}${c.corrected ? ` corrected ${c.corrected}` : ""}: ${terms}${c.prefixed.length ? ` | prefixed ${c.prefixed.join(" ")}` : ""}${c.phrase?.size ? ` | phrase ${[...c.phrase.keys()].join(" ")}` : ""}`);
  }
  for (const h of hits) console.log(`  ${h.score.toFixed(3)} ${h.name.padEnd(32)} [${truth.get(h.name) ?? "?"}]`);
}
await client.end();
