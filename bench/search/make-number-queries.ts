// Writes bench/search/dev-queries-number.json: the six development sets' queries (never
// the held-out bench/search/eval set) with their last noun in the other number
// ("a place to adopt a rescue rabbit" -> "... rescue rabbits", "we fix punctures and
// service bikes" -> "... service bike"). Each query keeps its sets, and `clean` holds it
// as written: dev.ts runs both in one run and prints what the other number costs.
//   npx tsx bench/search/make-number-queries.ts
//   DEV_QUERIES=bench/search/dev-queries-number.json DEV_SIZE=100000 npx tsx bench/search/dev.ts
// The English plural rules, the irregular pairs and the words that are no nouns below were
// written for this file, not taken from the engine's word lists or WordNet. The last word of
// a query is usually its head noun; a query whose last word reads as something else (a verb
// after "to", an adjective, a mass noun, a name) is left out. A singular made plural loses
// its "a" ("book a dog groomer" -> "book dog groomers"), as people write it.
import { devQueries, writeVariedSet, type DevQuery } from "./dev-sets";
import { otherNumber, pluralOf } from "./english";

const out: (DevQuery & { clean: string })[] = [];
for (const query of devQueries()) {
  if (query.stratum === "misspelt-intent") continue;
  const words = query.q.split(" ");
  const last = words.length - 1;
  if (["to", "can", "can't", "will", "by"].includes(words[last - 1] as string)) continue;
  const switched = otherNumber(words[last] as string);
  if (switched === null) continue;
  const varied = [...words.slice(0, last), switched];
  const madePlural = pluralOf(words[last] as string) !== null;
  const article = varied.findLastIndex((w, i) => i < last && (w === "a" || w === "an"));
  if (madePlural && article >= last - 3 && article >= 0) varied.splice(article, 1);
  out.push({ q: varied.join(" "), stratum: "other number", sets: query.sets, clean: query.q });
}
writeVariedSet("dev-queries-number.json", out);
console.log(`${out.length} queries, each with a noun in the other number`);
