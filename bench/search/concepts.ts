// The concepts a query becomes against a kept dev database (bench/search/dev.ts):
//   URL=postgres://postgres@127.0.0.1:5432/search_dev_v2_50000 npx tsx bench/search/concepts.ts "somewhere to book a dog groomer"
import { createPool } from "@/db/client";
import { analyzeWords } from "@/server/search/analyze";
import { getVocabulary } from "@/server/search/vocabulary";
import { parseSearchQuery } from "@/server/services/discovery";

const { db, sql } = createPool(process.env.URL ?? "postgres://postgres@127.0.0.1:5432/search_dev_v2_50000", 1);
const mirror = await getVocabulary(db);
for (const q of process.argv.slice(2)) {
  const parsed = parseSearchQuery(q);
  const concepts = await analyzeWords(mirror, parsed.words);
  console.log(`"${q}" fillers: ${parsed.fillers.join(" ")}`);
  for (const c of concepts) {
    const own = [...c.terms].filter(([t]) => !c.semantic.has(t)).map(([t, w]) => `${t} ${w.toFixed(2)}`);
    const meaning = [...c.semantic].map(([t, w]) => `${t} ${w.toFixed(2)}`);
    console.log(`  ${c.word} (importance ${c.importance?.toFixed(2)}${mirror.words.has(c.word) ? ", listed" : ""}): ${own.join(", ")} | ${meaning.join(", ")}${c.prefixed.length ? ` | prefixed ${c.prefixed.join(" ")}` : ""}`);
  }
}
await sql.end();
