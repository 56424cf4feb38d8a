import { mulberry32, places, prefixes, type GeneratedDomain } from "@/db/seed-data";

// The evaluation set, graded from the generator's truth (the words each name
// was built from), plus hand-judged queries whose intent was written by hand.

export type Stratum = "exact" | "typo" | "run-together" | "semantic" | "tld" | "hand";

export interface Intent {
  /** Each set is one concept; a word of the set in a name's truth words covers it. */
  sets: string[][];
  tld?: string;
  name?: string;
}

export interface EvalQuery {
  stratum: Stratum;
  q: string;
  intent: Intent;
}

/** 3: what was asked; 2: all words but another TLD (or not the named name); 1: some of the words; 0: not relevant. */
export function grade(doc: { name: string; tld: string; words: Set<string> }, intent: Intent): number {
  if (intent.name && doc.name === intent.name) return 3;
  const covered = intent.sets.filter((set) => set.some((w) => doc.words.has(w))).length;
  if (covered === intent.sets.length) {
    let g = intent.name ? 2 : 3;
    if (intent.tld && doc.tld !== intent.tld) g -= 1;
    return g;
  }
  return intent.sets.length > 1 && covered > 0 ? 1 : 0;
}

/** Paraphrases (not in any name) -> the generator words that answer them. Written by hand. */
export const paraphrases: Record<string, string[]> = {
  physician: ["doctor", "medic", "clinic"],
  dentist: ["dental"],
  canine: ["dog", "puppy"],
  feline: ["cat", "kitten"],
  automobile: ["car", "auto", "motor"],
  vehicle: ["car", "auto", "motor", "truck"],
  lodging: ["hotel", "hostel", "resort", "villa", "camp"],
  vacation: ["travel", "trip", "getaway", "resort", "tour"],
  espresso: ["coffee", "brew"],
  bread: ["bakery"],
  lawsuit: ["law", "lawyer", "attorney", "legal", "claims", "court", "trial"],
  solicitor: ["lawyer", "attorney", "law", "counsel", "legal"],
  investing: ["invest", "capital", "fund", "wealth"],
  lending: ["loan", "credit", "mortgage"],
  banking: ["bank", "finance"],
  realtor: ["realty", "estate", "homes", "property", "broker", "house", "condo", "listing", "rent", "lease"],
  housing: ["homes", "house", "property", "apartment", "condo", "loft", "rent", "lease", "villa", "realty", "estate"],
  clothing: ["fashion", "wear", "style", "dress", "boutique", "denim", "couture", "tee", "threads", "knit", "silk", "closet"],
  jewelry: ["jewel"],
  tutoring: ["tutor", "teach", "learn", "lesson"],
  university: ["campus", "academy", "school", "degree", "scholar"],
  teacher: ["teach", "tutor", "mentor", "school"],
  football: ["soccer", "sport", "goal", "league"],
  basketball: ["hoops", "sport", "team", "league", "coach", "arena", "score"],
  bicycle: ["bike"],
  cryptocurrency: ["crypto", "coin", "bitcoin", "token"],
  robotics: ["robot", "bot"],
  software: ["soft", "code", "dev", "app", "tech", "api", "stack", "cloud", "data", "server", "digital", "coding"],
  gardening: ["garden", "yard", "patio"],
  plumber: ["plumb"],
  workout: ["fitness", "gym", "fit"],
  veterinarian: ["vet", "pet"],
  hamburger: ["burger"],
  sneakers: ["sneaker", "shoe"],
  cafe: ["coffee", "tea", "bistro", "bakery", "deli", "brew"],
  apparel: ["fashion", "wear", "style", "dress", "boutique", "denim", "couture", "tee", "threads", "knit", "silk", "closet"],
  eyesight: ["vision"],
  pharmacist: ["pharmacy"],
  cleaner: ["clean"],
  lawn: ["yard", "garden"],
};

/** Hand-judged: realistic buyer queries; the intent sets say what a good answer contains. */
export const handJudged: [string, string[][], string?][] = [
  ["lawyer miami", [["lawyer", "attorney", "law", "legal", "counsel"], ["miami"]]],
  ["best pizza", [["best"], ["pizza"]]],
  ["pizza shop", [["pizza"], ["shop", "store"]]],
  ["dog grooming", [["dog", "puppy", "pet"], ["groom"]]],
  ["coffee .shop", [["coffee"]], "shop"],
  ["crypto wallet", [["crypto", "coin", "bitcoin"], ["wallet"]]],
  ["ai agent", [["ai"], ["agent", "bot"]]],
  ["smart home", [["smart"], ["home", "homes", "house"]]],
  ["divorce attorney", [["divorce"], ["attorney", "lawyer", "law", "legal"]]],
  ["yoga studio", [["yoga"]]],
  ["dental clinic", [["dental"], ["clinic", "care", "health"]]],
  ["sushi bar", [["sushi"]]],
  ["tokyo sushi", [["tokyo"], ["sushi"]]],
  ["travel guide", [["travel", "trip", "tour"], ["guide"]]],
  ["hotel paris", [["hotel", "resort", "hostel"], ["paris"]]],
  ["golf club", [["golf"], ["club"]]],
  ["surf shop", [["surf"], ["shop", "store"]]],
  ["bitcoin .io", [["bitcoin"]], "io"],
  ["tech startup", [["tech", "digital", "soft", "code"]]],
  ["cloud hosting", [["cloud", "server"]]],
  ["data lab", [["data"], ["lab", "labs"]]],
  ["fast car", [["fast"], ["car", "auto", "motor"]]],
  ["ev charging", [["ev"], ["charge"]]],
  ["tire shop", [["tire"], ["shop", "store"]]],
  ["vegan kitchen", [["vegan"], ["kitchen"]]],
  ["tax advisor", [["tax"]]],
  ["mortgage broker", [["mortgage", "loan"], ["broker"]]],
  ["real estate austin", [["estate", "realty", "homes", "property"], ["austin"]]],
  ["luxury fashion", [["luxe", "couture", "fashion", "boutique"]]],
  ["vintage clothing", [["vintage"], ["fashion", "wear", "dress", "threads", "style"]]],
  ["online school", [["online"], ["school", "academy", "learn", "course"]]],
  ["coding bootcamp", [["coding", "code"]]],
  ["kids tutor", [["tutor", "teach", "lesson", "mentor"]]],
  ["pet treats", [["pet", "dog", "cat"], ["treats"]]],
  ["cat toys", [["cat", "kitten"]]],
  ["nft marketplace", [["nft"]]],
  ["neural network", [["neural"]]],
  ["solar panels", [["solar"]]],
  ["garden decor", [["garden"], ["decor"]]],
  ["tennis coach", [["tennis"], ["coach"]]],
  ["ski resort", [["ski"], ["resort"]]],
  ["beach hotel", [["beach"], ["hotel", "resort"]]],
];

type Rng = () => number;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng() * items.length)] as T;

/** One edit inside the word: deletion, transposition, substitution or insertion. */
function typo(rng: Rng, word: string): string {
  const i = 1 + Math.floor(rng() * (word.length - 2));
  const letter = String.fromCharCode(97 + Math.floor(rng() * 26));
  switch (Math.floor(rng() * 4)) {
    case 0: return word.slice(0, i) + word.slice(i + 1);
    case 1: return word.slice(0, i) + (word[i + 1] ?? "") + (word[i] ?? "") + word.slice(i + 2);
    case 2: return word.slice(0, i) + (letter === word[i] ? "x" : letter) + word.slice(i + 1);
    default: return word.slice(0, i) + letter + word.slice(i);
  }
}

const modifierWords = new Set<string>([...prefixes, ...places]);

export function buildEvalSet(corpus: GeneratedDomain[], perStratum = 50, seed = 99): EvalQuery[] {
  const rng = mulberry32(seed);
  const out: EvalQuery[] = [];
  const words = (d: GeneratedDomain) => d.tokens.split(" ");
  const sample = (filter: (d: GeneratedDomain) => boolean) => {
    for (;;) {
      const d = pick(rng, corpus);
      if (filter(d)) return d;
    }
  };
  for (let i = 0; i < perStratum; i++) {
    const d = pick(rng, corpus);
    out.push({ stratum: "exact", q: d.name, intent: { sets: words(d).map((w) => [w]), name: d.name } });
  }
  for (let i = 0; i < perStratum; i++) {
    const d = sample((x) => words(x).some((w) => w.length >= 5));
    const ws = words(d);
    const long = ws.filter((w) => w.length >= 5).sort((a, b) => b.length - a.length)[0] as string;
    const kept = ws.length > 1 && rng() < 0.5 ? ws.slice(0, 2) : [long];
    if (!kept.includes(long)) kept.push(long);
    out.push({ stratum: "typo", q: kept.map((w) => (w === long ? typo(rng, w) : w)).join(" "), intent: { sets: kept.map((w) => [w]) } });
  }
  for (let i = 0; i < perStratum; i++) {
    const d = sample((x) => words(x).length >= 2);
    out.push({ stratum: "run-together", q: words(d).join(""), intent: { sets: words(d).map((w) => [w]) } });
  }
  const keys = Object.keys(paraphrases);
  for (let i = 0; i < perStratum; i++) {
    const key = keys[i % keys.length] as string;
    const accepted = paraphrases[key] as string[];
    if (i >= keys.length) {
      // paraphrase plus a modifier that exists next to an accepted word somewhere
      const d = sample((x) => words(x).some((w) => accepted.includes(w)) && modifierWords.has(words(x)[0] as string));
      const modifier = words(d)[0] as string;
      out.push({ stratum: "semantic", q: `${modifier} ${key}`, intent: { sets: [[modifier], accepted] } });
    } else {
      out.push({ stratum: "semantic", q: key, intent: { sets: [accepted] } });
    }
  }
  for (let i = 0; i < perStratum; i++) {
    const d = pick(rng, corpus);
    const ws = words(d).filter((w) => !modifierWords.has(w));
    const kept = ws.length > 0 ? ws.slice(0, 1 + Math.floor(rng() * Math.min(2, ws.length))) : words(d).slice(0, 1);
    out.push({ stratum: "tld", q: `${kept.join(" ")} .${d.tld}`, intent: { sets: kept.map((w) => [w]), tld: d.tld } });
  }
  for (const [q, sets, tld] of handJudged) out.push({ stratum: "hand", q, intent: { sets, ...(tld ? { tld } : {}) } });
  return out;
}
