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

/** Singular, plural. */
const IRREGULAR: [string, string][] = [
  ["child", "children"], ["person", "people"], ["man", "men"], ["woman", "women"], ["tooth", "teeth"], ["foot", "feet"],
  ["mouse", "mice"], ["goose", "geese"], ["knife", "knives"], ["wife", "wives"], ["life", "lives"], ["leaf", "leaves"],
  ["loaf", "loaves"], ["shelf", "shelves"], ["wolf", "wolves"], ["half", "halves"], ["calf", "calves"], ["thief", "thieves"], ["midwife", "midwives"],
  ["sheep", "sheep"], ["fish", "fish"], ["deer", "deer"], ["series", "series"], ["news", "news"], ["species", "species"],
];
const NOT_NOUNS = new Set([
  "a", "an", "the", "and", "or", "of", "for", "to", "in", "on", "at", "by", "with", "my", "our", "your", "me", "us", "we", "i",
  "it", "is", "are", "be", "can", "that", "this", "who", "near", "online", "fast", "cheap", "local", "nearby", "here", "now",
  "today", "please", "easy", "new", "old", "up", "down", "out", "off", "home", "free", "sell", "fix", "make", "do", "run",
  "learn", "buy", "rent", "hire", "teach", "sail", "cook", "bake", "grow", "build", "clean", "paint", "repair", "deliver",
  "design", "help", "find", "book", "walk", "train", "shop", "start", "write", "play", "ride", "dance", "sing", "swim",
  "fresh", "good", "best", "big", "small", "little", "modern", "simple", "short", "catchy", "friendly", "clever", "premium",
  "global", "green", "eco", "organic", "vegan", "handmade", "homemade", "luxury", "professional", "reliable", "safe", "quick",
  "minimal", "bold", "playful", "serious", "calm", "warm", "cool", "cute", "fun", "smart", "strong", "trusted", "affordable",
  "him", "her", "them", "japan", "london", "paris", "chess", "yoga", "pilates", "golf", "tennis", "football", "soccer",
]);
/** Mass nouns: their plural is not what people write. */
const MASS_NOUNS = new Set([
  "footwear", "skincare", "haircare", "energy", "advice", "support", "software", "furniture", "equipment", "jewellery", "jewelry",
  "clothing", "pasta", "music", "insurance", "security", "cybersecurity", "health", "care", "pain", "money", "finance",
  "information", "research", "weather", "traffic", "luggage", "homework", "knowledge", "fitness", "wellness", "nutrition",
  "education", "accounting", "coffee", "tea", "bread", "honey", "chocolate", "wine", "beer", "food", "fashion", "art", "rice",
  "water", "power", "tax", "law", "storage", "freight", "shipping", "marketing", "design", "data", "wifi", "parking", "help",
  "childcare", "daycare", "therapy", "physio", "physiotherapy", "tuition", "photography", "merch", "gear", "stuff", "news",
]);
const NOT_NOUN_ENDINGS = /(ly|ed|ful|ous|ive|less|ish|est|able|ible|ic|al)$/;

const plurals = new Map(IRREGULAR);
const singulars = new Map(IRREGULAR.map(([s, p]) => [p, s]));

/** The word in the other number, or null when it does not read as a noun the rules can switch. */
function otherNumber(word: string): string | null {
  if (!/^[a-z]{3,}$/.test(word) || NOT_NOUNS.has(word) || MASS_NOUNS.has(word) || NOT_NOUN_ENDINGS.test(word)) return null;
  const irregular = plurals.get(word) ?? singulars.get(word);
  if (irregular !== undefined) return irregular === word ? null : irregular;
  if (/ing$/.test(word)) return null;
  if (/(ss|us|is)$/.test(word)) return /(ss|sh|ch|x|z)$/.test(word) ? `${word}es` : null;
  if (/[^aeiou]ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|zes|sses)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s")) return word.slice(0, -1);
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(sh|ch|x|z)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

const out: (DevQuery & { clean: string })[] = [];
for (const query of devQueries()) {
  if (query.stratum === "misspelt-intent") continue;
  const words = query.q.split(" ");
  const last = words.length - 1;
  if (["to", "can", "can't", "will", "by"].includes(words[last - 1] as string)) continue;
  const switched = otherNumber(words[last] as string);
  if (switched === null) continue;
  const varied = [...words.slice(0, last), switched];
  const madePlural = plurals.get(words[last] as string) === switched || switched.length > (words[last] as string).length;
  const article = varied.findLastIndex((w, i) => i < last && (w === "a" || w === "an"));
  if (madePlural && article >= last - 3 && article >= 0) varied.splice(article, 1);
  out.push({ q: varied.join(" "), stratum: "other number", sets: query.sets, clean: query.q });
}
writeVariedSet("dev-queries-number.json", out);
console.log(`${out.length} queries, each with a noun in the other number`);
