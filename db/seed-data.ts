// Word lists and the generator of the demo inventories. Pure and deterministic:
// the same seed always yields the same names, prices and descriptions, so demo
// links, docs and tests can name domains that exist on every machine.

export interface Vertical {
  key: string;
  audience: string;
  words: readonly string[];
  /** TLDs this vertical favours, on top of the global weights. */
  tlds?: readonly string[];
}

export const verticals: readonly Vertical[] = [
  { key: "legal", audience: "law firms and legal services", words: ["law", "lawyer", "attorney", "legal", "counsel", "justice", "court", "claims", "injury", "defense", "divorce", "patent", "contract", "trial", "advocate", "notary", "firm", "verdict"] },
  { key: "health", audience: "clinics, practitioners and wellness brands", words: ["health", "clinic", "care", "dental", "doctor", "wellness", "therapy", "vitals", "pharmacy", "nurse", "cardio", "derma", "ortho", "rehab", "fitness", "yoga", "medic", "vision"] },
  { key: "finance", audience: "fintechs, advisers and lenders", words: ["finance", "capital", "fund", "invest", "wealth", "loan", "credit", "bank", "money", "pay", "ledger", "tax", "insure", "equity", "trade", "budget", "cash", "mortgage"] },
  { key: "tech", audience: "software startups and developer tools", words: ["tech", "cloud", "data", "code", "dev", "stack", "byte", "pixel", "logic", "cyber", "net", "soft", "app", "api", "server", "robot", "quantum", "digital"], tlds: ["io", "dev", "app", "tech"] },
  { key: "food", audience: "restaurants, food brands and delivery", words: ["pizza", "burger", "taco", "sushi", "bakery", "coffee", "tea", "kitchen", "grill", "vegan", "chef", "recipe", "bistro", "deli", "noodle", "spice", "brew", "snack"], tlds: ["shop"] },
  { key: "travel", audience: "travel agencies, hotels and tour operators", words: ["travel", "trip", "tour", "hotel", "flight", "voyage", "journey", "beach", "island", "resort", "cruise", "trek", "camp", "nomad", "passport", "getaway", "hostel", "safari"] },
  { key: "real-estate", audience: "agents, brokers and property managers", words: ["homes", "realty", "estate", "property", "house", "condo", "loft", "rent", "lease", "land", "villa", "apartment", "broker", "listing", "acre", "build", "roof", "key"] },
  { key: "fashion", audience: "apparel labels and boutiques", words: ["fashion", "style", "wear", "shoe", "denim", "boutique", "couture", "vintage", "jewel", "bag", "dress", "tee", "luxe", "threads", "closet", "knit", "silk", "sneaker"], tlds: ["shop", "store"] },
  { key: "education", audience: "schools, tutors and course creators", words: ["learn", "school", "tutor", "academy", "course", "study", "class", "campus", "teach", "skill", "exam", "lesson", "scholar", "mentor", "books", "quiz", "coding", "degree"], tlds: ["org"] },
  { key: "sports", audience: "clubs, gyms and sports media", words: ["sport", "golf", "tennis", "soccer", "hoops", "run", "bike", "surf", "ski", "gym", "team", "league", "coach", "score", "goal", "arena", "fit", "climb"] },
  { key: "pets", audience: "pet stores, vets and groomers", words: ["pet", "dog", "cat", "puppy", "kitten", "paw", "vet", "bark", "groom", "treats", "leash", "fetch", "fish", "bird", "pony", "whisker", "tail", "kennel"], tlds: ["shop"] },
  { key: "crypto", audience: "web3 projects, exchanges and wallets", words: ["crypto", "coin", "token", "chain", "block", "wallet", "defi", "nft", "mint", "stake", "swap", "hash", "satoshi", "dao", "bitcoin", "ether", "vault", "node"], tlds: ["xyz", "io"] },
  { key: "ai", audience: "AI products, agents and research labs", words: ["ai", "neural", "agent", "bot", "mind", "model", "prompt", "genius", "cortex", "synapse", "predict", "brain", "cognitive", "gpt", "llm", "sense", "infer", "vector"], tlds: ["ai", "ai", "io"] },
  { key: "home", audience: "home improvement, decor and garden brands", words: ["home", "garden", "decor", "furniture", "lamp", "bath", "clean", "paint", "plumb", "solar", "patio", "cozy", "nest", "craft", "tile", "floor", "window", "yard"] },
  { key: "auto", audience: "dealers, garages and mobility startups", words: ["auto", "car", "motor", "drive", "garage", "tire", "ride", "fleet", "parts", "wheels", "racing", "ev", "charge", "truck", "moto", "detail", "lease", "park"] },
];

export const prefixes = ["best", "top", "smart", "my", "get", "go", "the", "pro", "true", "prime", "bright", "happy", "easy", "fast", "new", "first", "urban", "green", "blue", "local", "daily", "super", "ace", "next", "pure", "royal", "golden", "swift"] as const;
export const places = ["nyc", "la", "sf", "miami", "austin", "chicago", "boston", "london", "paris", "berlin", "dubai", "tokyo", "texas", "cali", "denver", "seattle"] as const;
export const suffixes = ["hub", "hq", "pro", "now", "zone", "lab", "labs", "works", "shop", "store", "spot", "base", "world", "central", "direct", "online", "place", "point", "line", "group", "guide", "finder", "match", "link", "box", "club"] as const;

/** Global TLD popularity and price multiplier (.com is both commonest and dearest). */
export const tlds: Record<string, { weight: number; priceFactor: number }> = {
  com: { weight: 34, priceFactor: 1.6 },
  io: { weight: 9, priceFactor: 1.15 },
  ai: { weight: 7, priceFactor: 1.35 },
  net: { weight: 8, priceFactor: 0.7 },
  org: { weight: 6, priceFactor: 0.7 },
  co: { weight: 8, priceFactor: 0.9 },
  app: { weight: 5, priceFactor: 0.8 },
  dev: { weight: 4, priceFactor: 0.75 },
  shop: { weight: 4, priceFactor: 0.6 },
  xyz: { weight: 4, priceFactor: 0.35 },
  tech: { weight: 3, priceFactor: 0.5 },
  store: { weight: 2, priceFactor: 0.5 },
  online: { weight: 2, priceFactor: 0.4 },
};

const adjectives = ["brandable", "memorable", "premium", "keyword-rich", "easy-to-spell", "trusted-sounding"] as const;

export const MIN_PRICE_CENTS = 99_00;
export const MAX_PRICE_CENTS = 250_000_00;

export interface GeneratedDomain {
  name: string;
  label: string;
  tld: string;
  /** The words the name was built from, space-separated (keyword search reads it). */
  tokens: string;
  vertical: string;
  priceCents: number;
  floorPriceCents: number;
  description: string;
  registeredYear: number;
}

/** mulberry32: tiny, fast and good enough for synthetic data. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
export const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

/** One of `entries`, with probability proportional to its weight. */
export function weighted<T>(rng: Rng, entries: readonly (readonly [T, number])[]): T {
  const total = entries.reduce((sum, [, w]) => sum + w, 0);
  let r = rng() * total;
  for (const [value, w] of entries) if ((r -= w) < 0) return value;
  return entries[entries.length - 1]![0];
}

/** A standard normal draw (Box-Muller). */
export function normal(rng: Rng): number {
  const u = 1 - rng(); // (0, 1]: log stays finite
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng());
}

const tldEntries = Object.entries(tlds).map(([tld, t]) => [tld, t.weight] as const);

type Pattern = "word" | "pair" | "prefix" | "suffix" | "prefix-suffix" | "place" | "place-suffix";
const patterns: readonly (readonly [Pattern, number])[] = [
  ["word", 4], ["pair", 15], ["prefix", 25], ["suffix", 25], ["prefix-suffix", 11], ["place", 14], ["place-suffix", 6],
];

function buildWords(rng: Rng, vertical: Vertical): string[] {
  const word = pick(rng, vertical.words);
  switch (weighted(rng, patterns)) {
    case "word": return [word];
    case "pair": return [word, pick(rng, vertical.words)];
    case "prefix": return [pick(rng, prefixes), word];
    case "suffix": return [word, pick(rng, suffixes)];
    case "prefix-suffix": return [pick(rng, prefixes), word, pick(rng, suffixes)];
    case "place": return [pick(rng, places), word];
    case "place-suffix": return [pick(rng, places), word, pick(rng, suffixes)];
  }
}

/** Lognormal around ~$1,500, then scaled by TLD, length and hyphens; rounded to shop-like prices. */
function priceFor(rng: Rng, words: string[], label: string, tld: string): number {
  let dollars = Math.exp(Math.log(1500) + 1.5 * normal(rng));
  if (words.length === 1) dollars *= 3; // a bare keyword is the premium end of any vertical
  dollars *= tlds[tld]?.priceFactor ?? 0.5;
  const len = label.replace(/-/g, "").length;
  dollars *= len <= 4 ? 6 : len <= 6 ? 3 : len <= 9 ? 1.5 : len <= 14 ? 1 : 0.6;
  if (label.includes("-")) dollars *= 0.5;
  const clamped = Math.min(Math.max(dollars, MIN_PRICE_CENTS / 100), MAX_PRICE_CENTS / 100);
  const rounded =
    clamped < 1000 ? Math.max(99, Math.round(clamped / 10) * 10 - 1)
      : clamped < 10_000 ? Math.round(clamped / 50) * 50
        : Math.round(clamped / 500) * 500;
  return Math.min(rounded, MAX_PRICE_CENTS / 100) * 100;
}

const acronyms = new Set(["ai", "api", "hq", "nyc", "la", "sf", "nft", "dao", "ev", "gpt", "llm", "defi"]);
const title = (words: string[]) =>
  words.map((w) => (acronyms.has(w) ? w.toUpperCase() : w.charAt(0).toUpperCase() + w.slice(1))).join(" ");
const withArticle = (word: string) => `${/^[aeiou]/.test(word) ? "an" : "a"} ${word}`;

/**
 * `count` distinct domains from `seed`, none of them in `exclude`. Deterministic
 * for a given (seed, count, exclude).
 */
export function generateDomains(seed: number, count: number, exclude: ReadonlySet<string> = new Set()): GeneratedDomain[] {
  const rng = mulberry32(seed);
  const seen = new Set<string>();
  const out: GeneratedDomain[] = [];
  for (let attempts = 0; out.length < count; attempts++) {
    if (attempts > count * 50) throw new Error(`could not generate ${count} distinct domains`);
    const vertical = pick(rng, verticals);
    const words = buildWords(rng, vertical);
    if (new Set(words).size !== words.length) continue; // "lawlaw.com" reads badly
    const hyphen = rng() < (words[0] && (places as readonly string[]).includes(words[0]) ? 0.45 : 0.18);
    const label = words.join(hyphen && words.length > 1 ? "-" : "");
    const tld = rng() < 0.3 && vertical.tlds ? pick(rng, vertical.tlds) : weighted(rng, tldEntries);
    const name = `${label}.${tld}`;
    if (label.length > 30 || seen.has(name) || exclude.has(name)) continue;
    seen.add(name);
    const priceCents = priceFor(rng, words, label, tld);
    const floorPriceCents = Math.floor((priceCents * (0.5 + 0.4 * rng())) / 100) * 100;
    const age = Math.min(28, Math.floor(Math.abs(normal(rng)) * 8 + (label.length <= 6 ? 10 : 0)));
    out.push({
      name,
      label,
      tld,
      tokens: words.join(" "),
      vertical: vertical.key,
      priceCents,
      floorPriceCents,
      description: `${title(words)}: ${withArticle(pick(rng, adjectives))} .${tld} for ${vertical.audience}.`,
      registeredYear: 2024 - age,
    });
  }
  return out;
}

export const SANDBOX_SEED = 20240601;
export const LIVE_SEED = 77031;
export const SANDBOX_COUNT = 12_000;
export const LIVE_COUNT = 2_000;

/** Both demo inventories; live never repeats a sandbox name, so the two can't be confused. */
export function demoInventories(): { sandbox: GeneratedDomain[]; live: GeneratedDomain[] } {
  const sandbox = generateDomains(SANDBOX_SEED, SANDBOX_COUNT);
  const live = generateDomains(LIVE_SEED, LIVE_COUNT, new Set(sandbox.map((d) => d.name)));
  return { sandbox, live };
}
