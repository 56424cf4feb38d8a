// English number rules for the varied development sets (make-number-queries.ts, make-order-queries.ts):
// plural rules, irregular pairs, mass nouns and words that are no nouns, written for these sets, not taken
// from the engine's word lists or WordNet.

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
export const MASS_NOUNS = new Set([
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

/** The word's plural, when it reads as a singular noun the rules can switch; else null. */
export function pluralOf(word: string): string | null {
  const other = otherNumber(word);
  return other !== null && (plurals.get(word) === other || other.length > word.length) ? other : null;
}

/** Whether a word of three or more letters can read as a noun: not a listed non-noun, no adjective or adverb ending. */
export function readsAsNoun(word: string): boolean {
  return /^[a-z]{3,}$/.test(word) && !NOT_NOUNS.has(word) && !NOT_NOUN_ENDINGS.test(word);
}

/** The word in the other number, or null when it does not read as a noun the rules can switch. */
export function otherNumber(word: string): string | null {
  if (!readsAsNoun(word) || MASS_NOUNS.has(word)) return null;
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

