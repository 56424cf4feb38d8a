// Writes bench/search/dev-queries-wording.json: the six development sets' queries (never
// the held-out bench/search/eval set) with one word said the way another person says it
// ("somewhere to book a dog groomer" -> "somewhere to book a pup groomer", "divorce lawyers"
// -> "divorce attorneys", "we photograph newborn babies" -> "we photograph newborn bubs").
// Each query keeps its sets, and `clean` holds it as written: dev.ts runs both in one run
// and prints what the other wording costs. A grade set names the concept, so a name that
// answered the query as written answers it in the other wording too; a one-word substitute
// joins the set that holds the word it replaces, so a name holding it answers too.
//   npx tsx bench/search/make-wording-queries.ts
//   DEV_QUERIES=bench/search/dev-queries-wording.json DEV_SIZE=100000 npx tsx bench/search/dev.ts
// The pairs below were written for this file, from everyday, informal, trade and regional
// usage, not taken from the engine's word lists, WordNet or the encoder's neighbours. Only
// the first word of a query found in the list is changed, so each query differs by one word.
import { devQueries, writeVariedSet, type DevQuery } from "./dev-sets";

/** A word, another way people say it. */
const WORDING: [string, string][] = [
  ["kids", "children"], ["children", "kids"], ["child", "kid"], ["baby", "infant"], ["babies", "bubs"], ["mum", "mother"],
  ["dog", "pup"], ["dogs", "doggies"], ["puppy", "pup"], ["cat", "kitty"], ["cats", "kitties"], ["kitten", "kitty"],
  ["car", "auto"], ["cars", "autos"], ["motorbike", "motorcycle"], ["motorbikes", "motorcycles"], ["bike", "bicycle"],
  ["bikes", "bicycles"], ["lawyer", "attorney"], ["lawyers", "attorneys"], ["doctor", "physician"], ["physician", "doctor"],
  ["vet", "animal doctor"], ["shop", "store"], ["store", "shop"], ["bookstore", "bookshop"],
  ["bookshop", "bookstore"], ["cheap", "budget"], ["affordable", "low cost"], ["photos", "pics"], ["photo", "pic"],
  ["photograph", "shoot"], ["pictures", "pics"], ["videos", "vids"], ["movie", "film"], ["movies", "films"], ["film", "movie"],
  ["holiday", "vacation"], ["holidays", "vacations"], ["vacation", "holiday"], ["trip", "getaway"], ["trips", "getaways"],
  ["flat", "apartment"], ["flats", "apartments"], ["apartment", "flat"], ["house", "home"], ["home", "house"],
  ["garden", "yard"], ["gardening", "yard work"], ["lawn", "grass"], ["restaurant", "eatery"], ["cafe", "coffee shop"],
  ["coffee", "espresso"], ["food", "grub"], ["meals", "dinners"], ["sweets", "candy"], ["candy", "sweets"], ["biscuits", "cookies"],
  ["cookies", "biscuits"], ["chips", "fries"], ["fries", "chips"], ["trousers", "pants"], ["jumpers", "sweaters"],
  ["sweaters", "jumpers"], ["sneakers", "trainers"], ["shoes", "footwear"], ["clothes", "clothing"], ["clothing", "clothes"],
  ["boutique", "clothes shop"], ["jewellery", "jewels"], ["watches", "timepieces"], ["gifts", "presents"], ["gift", "present"],
  ["wedding", "marriage"], ["party", "celebration"], ["parties", "celebrations"], ["songs", "tunes"],
  ["band", "group"], ["workout", "exercise"], ["fitness", "exercise"], ["running", "jogging"],
  ["teacher", "tutor"], ["tutor", "teacher"], ["lessons", "classes"], ["classes", "lessons"], ["school", "academy"],
  ["students", "pupils"], ["course", "class"], ["job", "work"], ["jobs", "careers"], ["business", "company"],
  ["company", "firm"], ["money", "cash"], ["loans", "lending"], ["bank", "lender"],
  ["mortgage", "home loan"], ["taxes", "tax returns"], ["accountant", "bookkeeper"],
  ["repair", "fix"], ["fix", "repair"], ["fixing", "repairing"], ["cleaning", "cleaners"], ["cleaners", "cleaning"],
  ["plumber", "plumbing"], ["electrician", "sparky"], ["builder", "contractor"], ["builders", "contractors"],
  ["roof", "roofing"], ["roofs", "roofing"], ["taxi", "cab"], ["cab", "taxi"], ["truck", "lorry"], ["van", "truck"],
  ["travel", "trips"], ["hotel", "inn"], ["hotels", "accommodation"], ["cabin", "cottage"], ["beach", "seaside"],
  ["boat", "yacht"], ["sailing", "yachting"], ["fishing", "angling"], ["hiking", "trekking"], ["camping", "campsite"],
  ["tent", "campsite"], ["flowers", "blooms"], ["houseplants", "indoor plants"], ["pets", "animals"],
  ["pet", "animal"], ["horse", "pony"], ["horses", "ponies"], ["doctors", "physicians"], ["hospital", "clinic"],
  ["therapy", "counselling"], ["therapist", "counsellor"], ["massage", "bodywork"], ["haircut", "trim"], ["hair", "locks"],
  ["barber", "barbershop"], ["salon", "parlour"], ["makeup", "cosmetics"], ["skincare", "skin care"], ["perfume", "fragrance"],
  ["soap", "body wash"], ["candles", "candle"], ["bakery", "bakehouse"], ["cakes", "bakes"], ["bread", "loaves"],
  ["pizza", "pizzeria"], ["wine", "vino"], ["beer", "brew"], ["brewery", "brewhouse"], ["whisky", "scotch"],
  ["phone", "mobile"], ["computer", "laptop"], ["computers", "pcs"], 
  ["games", "gaming"], ["gaming", "games"], ["crypto", "bitcoin"], ["news", "headlines"],
  ["blog", "journal"], ["podcast", "show"], ["books", "novels"], ["buy", "purchase"], 
  ["rent", "hire"], ["hire", "rent"], ["quick", "fast"], ["fast", "speedy"], ["big", "large"],
  ["small", "little"], ["little", "tiny"], ["old", "vintage"], ["vintage", "retro"], ["retro", "vintage"], ["modern", "contemporary"],
  ["handmade", "handcrafted"], ["homemade", "home made"], ["organic", "natural"], ["eco", "green"], ["luxury", "high end"],
  ["fancy", "posh"], ["posh", "upmarket"], ["cute", "adorable"], ["funny", "hilarious"], ["scary", "spooky"], ["spooky", "creepy"],
];
const other = new Map(WORDING);

const out: (DevQuery & { clean: string })[] = [];
for (const query of devQueries()) {
  if (query.stratum === "misspelt-intent") continue;
  const words = query.q.split(" ");
  const i = words.findIndex((w) => other.has(w));
  if (i < 0) continue;
  const varied = [...words];
  const word = words[i] as string;
  const substitute = other.get(word) as string;
  varied[i] = substitute;
  if (varied[i - 1] === "a" || varied[i - 1] === "an") varied[i - 1] = /^[aeiou]/.test(substitute) ? "an" : "a";
  const sets = query.sets.map((set) => (set.includes(word) && !substitute.includes(" ") && !set.includes(substitute) ? [...set, substitute] : set));
  out.push({ q: varied.join(" "), stratum: "other wording", sets, clean: query.q });
}
writeVariedSet("dev-queries-wording.json", out);
console.log(`${out.length} queries, each with a word said another way`);
