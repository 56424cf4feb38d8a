// Writes bench/search/dev-queries-spelling.json: the six development sets' queries
// (never the held-out bench/search/eval set) that hold a word spelt differently in
// British and American English, with that word in the other spelling ("cosy little
// coffee shop" -> "cozy little coffee shop", "need an online presence for my garden
// center" -> "... garden centre"). Each query keeps its sets, and `clean` holds it as
// written: dev.ts runs both in one run and prints what the other spelling costs.
//   npx tsx bench/search/make-spelling-queries.ts
//   DEV_QUERIES=bench/search/dev-queries-spelling.json DEV_SIZE=100000 npx tsx bench/search/dev.ts
// The pairs below were written for this file from the usual patterns (-our/-or, -re/-er,
// -ise/-ize, doubled l, ae/oe), not taken from the engine's word lists or WordNet.
import { devQueries, writeVariedSet, type DevQuery } from "./dev-sets";

/** British, American. */
const PAIRS: [string, string][] = [
  ["colour", "color"], ["colours", "colors"], ["colourful", "colorful"], ["flavour", "flavor"], ["flavours", "flavors"],
  ["harbour", "harbor"], ["neighbour", "neighbor"], ["neighbourhood", "neighborhood"], ["honour", "honor"], ["humour", "humor"],
  ["favourite", "favorite"], ["labour", "labor"], ["odour", "odor"], ["behaviour", "behavior"], ["parlour", "parlor"],
  ["centre", "center"], ["centres", "centers"], ["theatre", "theater"], ["metre", "meter"], ["litre", "liter"], ["fibre", "fiber"],
  ["organise", "organize"], ["organiser", "organizer"], ["organising", "organizing"], ["personalised", "personalized"],
  ["customised", "customized"], ["specialise", "specialize"], ["recognise", "recognize"],
  ["jewellery", "jewelry"], ["jeweller", "jeweler"], ["travelling", "traveling"], ["traveller", "traveler"], ["cancelled", "canceled"],
  ["modelling", "modeling"], ["counselling", "counseling"], ["cosy", "cozy"], ["pyjamas", "pajamas"], ["grey", "gray"], ["tyre", "tire"],
  ["tyres", "tires"], ["catalogue", "catalog"], ["cheque", "check"], ["mould", "mold"], ["plough", "plow"], ["yoghurt", "yogurt"],
  ["doughnut", "donut"], ["doughnuts", "donuts"], ["aluminium", "aluminum"], ["paediatric", "pediatric"], ["orthopaedic", "orthopedic"],
  ["anaesthetic", "anesthetic"], ["aesthetic", "esthetic"], ["mum", "mom"], ["mums", "moms"], ["practise", "practice"],
  ["licence", "license"], ["defence", "defense"], ["programme", "program"], ["storey", "story"], ["kerb", "curb"], ["ageing", "aging"],
  ["sceptical", "skeptical"], ["draught", "draft"], ["enrol", "enroll"], ["jewellers", "jewelers"], ["axe", "ax"],
];
const other = new Map<string, string>();
for (const [british, american] of PAIRS) {
  other.set(british, american);
  other.set(american, british);
}

const out: (DevQuery & { clean: string })[] = [];
for (const query of devQueries()) {
  const words = query.q.split(" ");
  const swapped = words.map((w) => other.get(w) ?? w);
  if (swapped.every((w, i) => w === words[i])) continue;
  out.push({ q: swapped.join(" "), stratum: "other spelling", sets: query.sets, clean: query.q });
}
writeVariedSet("dev-queries-spelling.json", out);
console.log(`${out.length} queries in the other spelling`);
