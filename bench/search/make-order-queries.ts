// Writes bench/search/dev-queries-order.json: the six development sets' queries (never the
// held-out bench/search/eval set) whose last two words are a noun compound, said the other way
// round with "for" ("somewhere to book a dog groomer" -> "... a groomer for dogs", "insurance
// broker" -> "broker for insurance", "running shoes" -> "shoes for running"). Each query keeps
// its sets, and `clean` holds it as written: dev.ts runs both in one run and prints what the
// other order costs.
//   npx tsx bench/search/make-order-queries.ts
//   DEV_QUERIES=bench/search/dev-queries-order.json DEV_SIZE=100000 npx tsx bench/search/dev.ts
// The modifier is made plural unless it is a mass noun, an -ing word or plural already (english.ts,
// written for these sets). A material ("leather bags") or a place ("beach house") is no purpose,
// so those are left out, as are compounds whose words read as anything but nouns, and compounds
// not after a determiner ("about growing tomatoes", "ice cream truck": not a modifier and its head).
import { devQueries, writeVariedSet, type DevQuery } from "./dev-sets";
import { MASS_NOUNS, pluralOf, readsAsNoun } from "./english";

/** Modifiers that say what a thing is made of or where it is, not what it is for. */
const NOT_A_PURPOSE = new Set([
  "leather", "wood", "wooden", "glass", "silk", "wool", "cotton", "paper", "stone", "metal", "steel", "gold", "silver", "soy",
  "beach", "mountain", "city", "country", "village", "street", "garden", "kitchen", "office", "home", "house", "ice", "hand",
  "family", "school", "night", "day", "weekend", "summer", "winter", "mid", "century", "vintage", "retro", "minute", "hour",
  "solar", "veterinary", "rescue", "real", "black", "white", "red", "second", "first", "last", "next", "same", "own", "side", "web", "app", "online", "phone", "video", "audio",
]);

/** Modifiers read as mass nouns after "for" ("a startup for travel"), besides english.ts's. */
const UNCOUNTED = new Set(["crypto", "travel", "surf", "telehealth", "whisky", "jazz", "law", "tax", "wine", "insurance", "security"]);
const DETERMINERS = new Set(["a", "an", "my", "our", "the", "your"]);

/** The modifier as it reads after "for". */
function afterFor(word: string): string | null {
  if (!readsAsNoun(word) || NOT_A_PURPOSE.has(word)) return null;
  if (MASS_NOUNS.has(word) || UNCOUNTED.has(word) || word.endsWith("ing") || word.endsWith("s")) return word;
  return pluralOf(word);
}

const out: (DevQuery & { clean: string })[] = [];
for (const query of devQueries()) {
  if (query.stratum === "misspelt-intent") continue;
  const words = query.q.split(" ");
  if (words.length < 2) continue;
  const [modifier, head] = words.slice(-2) as [string, string];
  // The compound is the whole noun phrase: after a determiner, or the whole query.
  const before = words.length > 2 ? (words[words.length - 3] as string) : null;
  if (before !== null && !DETERMINERS.has(before)) continue;
  if (!readsAsNoun(head) || head.endsWith("ing")) continue;
  const purpose = afterFor(modifier);
  if (purpose === null) continue;
  const varied = [...words.slice(0, -2), head, "for", purpose];
  if (before === "a" || before === "an") varied[varied.length - 4] = /^[aeiou]/.test(head) ? "an" : "a";
  out.push({ q: varied.join(" "), stratum: "other order", sets: query.sets, clean: query.q });
}
writeVariedSet("dev-queries-order.json", out);
console.log(`${out.length} queries, each with its last compound said the other way round`);
