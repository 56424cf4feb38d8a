/**
 * What a trade word, an abbreviation or a bit of slang means, in plain words, for
 * words WordNet lacks ("hvac", "kombucha", "sparky") or reads in a sense nobody
 * means in a name search ("ai" as an agency, "pilates" as Pontius Pilate, "gamer"
 * as a herd). Written from general knowledge of how small businesses and their
 * customers talk, sector by sector; not from any benchmark query or the encoder.
 *
 * A listed word is searched as itself and as its meaning: the encoder reads the
 * meaning instead of the word (it does not know these words: "saas" lies nearest
 * sala and anas), and the meaning's words count as the word's synonyms in place
 * of WordNet's relatives (analyze.ts). Only words with one meaning in a name
 * search: nothing that is mostly a common word ("poke", "kicks", "reno"), no place,
 * and no brand but one used as a common noun ("airbnb" for a holiday let).
 */
const MEANINGS = new Map<string, string>(Object.entries({
  // Technology and online business
  ai: "artificial intelligence",
  vr: "virtual reality",
  iot: "smart devices",
  saas: "software subscription",
  crm: "customer software",
  erp: "business software",
  seo: "search marketing",
  ppc: "paid advertising",
  pr: "publicity",
  ux: "user design",
  ui: "interface design",
  devops: "software operations",
  dev: "developer",
  fintech: "finance technology",
  proptech: "property technology",
  edtech: "education technology",
  insurtech: "insurance technology",
  legaltech: "legal technology",
  healthtech: "health technology",
  medtech: "medical technology",
  agritech: "farming technology",
  agtech: "farming technology",
  cleantech: "clean energy",
  martech: "marketing technology",
  adtech: "advertising technology",
  crypto: "cryptocurrency bitcoin",
  nft: "digital collectibles",
  defi: "decentralised finance",
  ecommerce: "online store",
  ecom: "online store",
  dropshipping: "online retail",
  esports: "video gaming",
  gamer: "video games player",
  gaming: "video games",
  vlog: "video blog",
  vlogger: "video blogger",
  podcast: "audio show",
  podcaster: "audio show host",
  influencer: "social media personality",
  youtuber: "video creator",
  coworking: "shared office",
  // Trades and the home
  hvac: "heating and cooling",
  aircon: "air conditioning",
  sparky: "electrician",
  tradie: "tradesman",
  brickie: "bricklayer",
  chippie: "carpenter",
  diy: "home improvement",
  ev: "electric car",
  ebike: "electric bicycle",
  escooter: "electric scooter",
  moto: "motorcycle",
  atv: "quad bike",
  // Health, care and fitness
  physio: "physiotherapy",
  chiro: "chiropractor",
  derm: "dermatology",
  telehealth: "online doctor",
  telemedicine: "online doctor",
  homecare: "home care",
  eldercare: "elderly care",
  petcare: "pet care",
  pilates: "exercise classes",
  crossfit: "fitness training",
  zumba: "dance fitness",
  hiit: "interval training",
  keto: "low carb diet",
  cbd: "hemp oil",
  vape: "electronic cigarette",
  ecig: "electronic cigarette",
  // Food and drink
  kombucha: "fermented tea",
  kefir: "fermented milk",
  boba: "bubble tea",
  matcha: "green tea",
  acai: "berry bowl",
  pho: "noodle soup",
  ramen: "noodle soup",
  bbq: "barbecue",
  smoothie: "fruit drink",
  gelato: "ice cream",
  froyo: "frozen yogurt",
  brekkie: "breakfast",
  barista: "coffee maker",
  // Fashion, travel and leisure
  athleisure: "sportswear",
  streetwear: "urban clothing",
  merch: "merchandise",
  glamping: "luxury camping",
  staycation: "holiday at home",
  uni: "university",
  airbnb: "holiday rental",
}));

const STOP = new Set(["a", "an", "and", "at", "of", "the", "to"]);

/** The meaning of a listed word or of its plural ("podcasts", "gamers"), else undefined. */
export function meaningOf(word: string): string | undefined {
  return MEANINGS.get(word) ?? (word.length > 3 && word.endsWith("s") ? MEANINGS.get(word.slice(0, -1)) : undefined);
}

/** The words of a listed word's meaning that name something ("heating and cooling" -> heating, cooling). */
export function meaningWords(word: string): string[] {
  return (meaningOf(word) ?? "").split(" ").filter((w) => w && !STOP.has(w));
}
