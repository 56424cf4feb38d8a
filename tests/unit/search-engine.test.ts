import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { extractBudget, priceFit } from "@/server/search/budget";
import { fuse, scoreCandidate, type Candidate } from "@/server/search/engine";
import { analyzeWords, type Concept } from "@/server/search/analyze";
import { labelTokens, normalizeText, oneEditVariants, segmentWord, splitWords } from "@/server/search/text";
import { unit } from "@/server/search/embedder";
import { correctWord, correctWords, editDistance, getVocabularyMirrorForTests, nearestWords, nearestWordsExact, wordsWithPrefix } from "@/server/search/vocabulary";

describe("search text", () => {
  it("normalises case and accents and splits on hyphens and digits", () => {
    assert.equal(normalizeText("Café-MÜNCHEN"), "cafe-munchen");
    assert.deepEqual(splitWords("Pizza24-Shop"), ["pizza", "24", "shop"]);
  });

  it("segments run-together labels with the frequency list", () => {
    assert.deepEqual(segmentWord("bestpizzashop"), ["best", "pizza", "shop"]);
    assert.deepEqual(segmentWord("cheapflights"), ["cheap", "flights"]);
    assert.deepEqual(segmentWord("smartdefihub"), ["smart", "defi", "hub"]);
    assert.deepEqual(labelTokens("nyc-lawyer24"), ["nyc", "lawyer", "24"]);
  });

  it("keeps real words and gibberish whole, and splits a known word off a brand", () => {
    assert.deepEqual(segmentWord("attorney"), ["attorney"]);
    assert.deepEqual(segmentWord("vbkwqabcd"), ["vbkwqabcd"]);
    assert.deepEqual(segmentWord("zqxkwplawyer"), ["zqxkwp", "lawyer"]);
  });

  it("keeps a word WordNet holds whole where the frequency list would cut it, and still splits two common words", () => {
    assert.deepEqual(segmentWord("anapestdecency"), ["anapest", "decency"]);
    assert.deepEqual(segmentWord("rinderpest"), ["rinderpest"]);
    assert.deepEqual(segmentWord("pachisis"), ["pachisis"], "a plural of WordNet's word");
    assert.deepEqual(segmentWord("bedcover"), ["bed", "cover"]);
    assert.deepEqual(segmentWord("pegboard"), ["peg", "board"]);
    assert.deepEqual(segmentWord("knifelike"), ["knife", "like"]);
    // The cut before (SEGMENTER_VERSION 1), which retokenizeInventory recognises.
    assert.deepEqual(segmentWord("anapestdecency", { lemmas: false }), ["ana", "pest", "decency"]);
    assert.deepEqual(labelTokens("rinderpest-official", { lemmas: false }), ["rin", "der", "pest", "official"]);
  });
});

describe("spelling correction", () => {
  const mirror = getVocabularyMirrorForTests(["pizza", "kitchen", "kitten", "lawyer", "chicago"]);
  it("measures Damerau-Levenshtein distance with a cap", () => {
    assert.equal(editDistance("chciago", "chicago", 2), 1);
    assert.equal(editDistance("piza", "pizza", 1), 1);
    assert.equal(editDistance("abcdef", "uvwxyz", 2), 3);
  });
  it("corrects to the vocabulary, preferring the commoner word on a tie", () => {
    assert.equal(correctWord(mirror, "piza"), "pizza");
    assert.equal(correctWord(mirror, "chciago"), "chicago");
    assert.equal(correctWord(mirror, "kitcen"), "kitchen");
    assert.equal(correctWord(mirror, "pizza"), null, "a known word is left alone");
    assert.equal(correctWord(mirror, "qqqqqq"), null);
  });
  it("corrects a long word to a common word no name holds, keeping the first letter and both of a tie", () => {
    const names = getVocabularyMirrorForTests(["counting", "business", "photograph"]);
    assert.deepEqual(correctWords(names, "jewlery"), ["jewelry"], "a transposition, to a word of the frequency list");
    assert.deepEqual(correctWords(names, "acounting"), ["accounting"], "counting drops the first letter: less likely");
    assert.deepEqual(correctWords(names, "busness"), ["business"], "a word some name holds");
    assert.deepEqual(correctWords(getVocabularyMirrorForTests(["escorts", "sports"]), "esports"), ["sports"], "the e- prefix, not a changed letter");
    assert.deepEqual(correctWords(names, "photograpy"), ["photography"], "a letter left out before a wrong one (photograph)");
    assert.deepEqual(correctWords(getVocabularyMirrorForTests(["store", "story"]), "stor").sort(), ["store", "story"], "equally close: both");
    assert.deepEqual(correctWords(names, "jewlery", { common: false }), [], "the vocabulary only");
    assert.deepEqual(correctWords(names, "zorvia"), [], "a brandable is no misspelt word");
    assert.deepEqual(correctWords(names, "dentostry"), ["dentistry"], "a long word rare in the list (19 uses) is still a word meant");
    assert.deepEqual(correctWords(names, "pllasterers"), ["plasterers"], "3 uses, 10 letters");
    assert.equal(correctWord(names, "acounting"), "counting", "correctWord answers from the names' words only");
  });
  it("prefers the word nearer the letters typed, and reaches letters swapped over a distance", () => {
    const names = getVocabularyMirrorForTests(["restraint", "restaurant", "bicycle", "bicker"]);
    // Both two edits away; restaurant has the letters typed but one (a u for an a), restraint three apart.
    assert.deepEqual(correctWords(names, "resturaunt"), ["restaurant"]);
    assert.deepEqual(correctWords(names, "bycicle"), ["bicycle"], "the very letters typed, two edits away");
    assert.deepEqual(correctWords(names, "bycikle"), [], "two edits, not the same letters: too far for seven letters");
    assert.deepEqual(correctWords(names, "bicekr"), ["bicker"], "a one-edit word before any swapped one");
  });
  it("puts a dropped letter back before it takes a typed one away", () => {
    // "sking" is one edit from sing, skin and king (a letter typed too many) and from skiing (one left out).
    assert.deepEqual(correctWords(getVocabularyMirrorForTests(["sing", "skin", "king"]), "sking"), ["skiing"], "a common word, though no name holds it");
    assert.deepEqual(correctWords(getVocabularyMirrorForTests(["sing", "skin", "skiing"]), "sking"), ["skiing"]);
    assert.deepEqual(correctWords(getVocabularyMirrorForTests(["store", "story", "tor"]), "stor").sort(), ["store", "story"], "each puts one back: both");
    assert.deepEqual(correctWords(getVocabularyMirrorForTests(["wine", "wind"]), "wibe"), ["wine"], "no letter left out: as before");
    assert.deepEqual(correctWords(getVocabularyMirrorForTests([]), "zorva"), [], "a short brandable stays");
  });
});

describe("labels one edit away", () => {
  it("lists every deletion, transposition, substitution and insertion, and no other string", () => {
    const variants = oneEditVariants("rivenow");
    for (const meant of ["ridenow", "rivernow", "rivenw", "rivneow", "rive-now", "arivenow"]) assert.ok(variants.includes(meant), meant);
    assert.ok(!variants.includes("rivenow") && !variants.includes("-rivenow") && !variants.includes("rivenow-"));
    assert.ok(variants.every((v) => editDistance(v, "rivenow", 1) === 1));
    assert.equal(new Set(variants).size, variants.length);
    assert.ok(oneEditVariants("austin-lao").includes("austin-law"));
  });
});

describe("query words", () => {
  const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
  const termsOf = async (words: string[], vocabulary: string[]) =>
    (await analyzeWords(getVocabularyMirrorForTests(vocabulary), words, noMeaning)).map((c) => Object.fromEntries(c.terms));

  it("corrects a misspelt word, and offers a real word no name holds the listed word it may be a slip for", async () => {
    assert.deepEqual(await termsOf(["piza"], ["pizza"]), [{ piza: 1, pizza: 0.9, pizas: 0.95 }]);
    assert.deepEqual(await termsOf(["sore"], ["store", "storex"]), [{ sore: 1, sores: 0.95, store: 0.6 }]);
    assert.deepEqual(await termsOf(["store"], ["store", "stores"]), [{ store: 1, stores: 0.95 }], "a listed word is itself");
  });

  it("splits a run of real words rather than stretching it two edits to another word, but fixes a one-letter slip", async () => {
    const words = async (typed: string, vocabulary: string[]) =>
      (await analyzeWords(getVocabularyMirrorForTests(vocabulary), [typed], noMeaning)).map((c) => [c.word, c.corrected]);
    assert.deepEqual(await words("defispot", ["defi", "spot", "despot"]), [["defi", null], ["spot", null]]);
    assert.deepEqual(await words("lawyerr", ["law", "lawyer"]), [["lawyerr", "lawyer"]]);
  });

  it("reads a word WordNet knows only as an agent noun of a rare verb, one edit from a real word, as that word misspelt", async () => {
    const words = async (typed: string) => (await analyzeWords(getVocabularyMirrorForTests(["plumber", "installed"]), [typed], noMeaning)).map((c) => c.corrected ?? c.word);
    assert.deepEqual(await words("plumer"), ["plumber"], "plum is no verb, to plume rare beside plumber");
    assert.deepEqual(await words("installer"), ["installer"], "one who installs, not a slip for installed");
    const doubled = async (typed: string) => (await analyzeWords(getVocabularyMirrorForTests(["beginners", "swimmer", "begin"]), [typed], noMeaning)).map((c) => c.corrected ?? c.word);
    assert.deepEqual(await doubled("beginers"), ["beginners"], "to begin is common, but its agent noun doubles the n");
    assert.deepEqual(await doubled("swimer"), ["swimmer"]);
  });

  it("reads a misspelt verb before its object as the verb meant", async () => {
    const read = async (typed: string[]) =>
      (await analyzeWords(getVocabularyMirrorForTests(["rent", "boat"]), typed, noMeaning, { beforeObject: [typed[0] ?? ""] })).map((c) => ({ word: c.corrected ?? c.word, importance: c.importance ?? 1 }));
    const [rent, boat] = await read(["rent", "boat"]);
    const [rnet] = await read(["rnet", "boat"]);
    assert.equal(rnet?.word, "rent", "corrected");
    assert.ok((rent?.importance ?? 1) < (boat?.importance ?? 0), "the object is the subject");
    assert.equal(rnet?.importance, rent?.importance, "the slip is discounted as the verb it is meant for");
  });

  it("splits an unknown run into words, but keeps a mostly unknown one whole", async () => {
    assert.deepEqual((await analyzeWords(getVocabularyMirrorForTests([]), ["bestpizza"], noMeaning)).map((c) => c.word), ["best", "pizza"]);
    assert.deepEqual((await analyzeWords(getVocabularyMirrorForTests([]), ["zqixnywdgo"], noMeaning)).map((c) => c.word), ["zqixnywdgo"]);
  });
});

describe("vocabulary lookups", () => {
  it("lists the longer real words a word starts, commonest first, never brand fragments", () => {
    const mirror = getVocabularyMirrorForTests(["garden", "gardens", "gardener", "gardenqx", "gard", "guard"]);
    assert.deepEqual(wordsWithPrefix(mirror, "garden", 4), ["gardener", "gardens"], "gardener is the commoner in the word list");
    assert.deepEqual(wordsWithPrefix(mirror, "gardenz", 4), []);
    assert.deepEqual(wordsWithPrefix(mirror, "garden", 1), ["gardener"]);
  });

  it("keeps neighbours that stand out from the word's similarity to the whole vocabulary", () => {
    // 40 orthogonal words; the query leans on the first (cosine 0.95) and a little on the second (0.32).
    const basis = (i: number) => Float32Array.from({ length: 64 }, (_, j) => (j === i ? 1 : 0));
    const words = Array.from({ length: 40 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${i}`);
    const mirror = getVocabularyMirrorForTests(words, words.map((_, i) => basis(i)));
    const query = unit(Float32Array.from({ length: 64 }, (_, j) => (j === 0 ? 0.95 : j === 1 ? 0.32 : 0)));
    const near = nearestWords(mirror, query, 6, 2.5, "");
    assert.deepEqual(near.map((n) => n.word), [words[0]], "only the standout passes a 2.5 sigma bar");
    assert.ok((near[0]?.z ?? 0) > 5);
    assert.deepEqual(nearestWords(mirror, query, 6, 1.5, "").map((n) => n.word), [words[0], words[1]]);
    // The query word itself is left out of the comparison: then the second stands out from the rest.
    assert.deepEqual(nearestWords(mirror, query, 6, 2.5, words[0] as string).map((n) => n.word), [words[1]]);
    // A word `accept` refuses still counts in the statistics, but is never returned.
    assert.deepEqual(nearestWords(mirror, query, 6, 2.5, "", (w) => w !== words[0]), []);
  });

  it("finds the same neighbours through sign sketches as by a scan of every vector, in a large vocabulary", () => {
    // 12k random words around a shared direction (cosines near 0.5, as words in context), three planted near the query.
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) - 0.5;
    const shared = Float32Array.from({ length: 512 }, random);
    const near = (base: Float32Array, noise: number) => unit(Float32Array.from(base, (x) => x + noise * random()));
    const query = near(shared, 2);
    const words = Array.from({ length: 12_000 }, (_, i) => `word${i}`);
    const vectors = words.map((_, i) => (i % 4000 === 1 ? near(query, 0.3) : near(shared, 2)));
    const mirror = getVocabularyMirrorForTests(words, vectors);
    const exact = nearestWordsExact(mirror, query, 6, 5, "");
    assert.deepEqual(exact.map((n) => n.word).sort(), ["word1", "word4001", "word8001"]);
    assert.deepEqual(nearestWords(mirror, query, 6, 5, "").map((n) => n.word), exact.map((n) => n.word));
  });
});

const candidate = (name: string, tokens: string, sim = 0): Candidate => {
  const [label = "", ...rest] = name.split(".");
  return { id: name, name, label, tld: rest.join("."), tokens, price_cents: 100, currency: "USD", vertical: null, sim };
};
const concept = (word: string, semantic: Record<string, number> = {}): Concept => ({
  word,
  terms: new Map([[word, 1], ...Object.entries(semantic)]),
  semantic: new Map(Object.entries(semantic)),
  corrected: null,
  prefixed: [],
});

describe("fusion and rerank", () => {
  it("counts a name once per leg, at its best rank, however many branches returned it", () => {
    const a = candidate("a.com", "a");
    const b = candidate("b.com", "b");
    const fused = fuse([[a, b, a]]);
    assert.equal(fused.get("a.com")?.rrf, 1 / 61);
    assert.equal(fused.get("b.com")?.rrf, 1 / 62);
  });

  it("fuses legs by reciprocal rank (k = 60)", () => {
    const a = candidate("a.com", "a");
    const b = candidate("b.com", "b");
    const fused = fuse([[a, b], [b]]);
    assert.ok(Math.abs((fused.get("b.com")?.rrf ?? 0) - (1 / 62 + 1 / 61)) < 1e-12);
    assert.ok(Math.abs((fused.get("a.com")?.rrf ?? 0) - 1 / 61) < 1e-12);
  });

  it("puts the exact name alone at 1, full coverage above partial, meaning below the word itself", () => {
    const q = { words: ["best", "pizza"], compact: "bestpizza", tld: null, exactName: null };
    const concepts = [concept("best"), concept("pizza", { burger: 0.6 })];
    const exact = scoreCandidate(candidate("bestpizza.com", "best pizza"), { ...q, exactName: "bestpizza.com" }, concepts, 0);
    const full = scoreCandidate(candidate("bestpizzahub.com", "best pizza hub"), q, concepts, 0);
    const meaning = scoreCandidate(candidate("bestburgerhub.com", "best burger hub"), q, concepts, 0);
    const partial = scoreCandidate(candidate("besthub.com", "best hub"), q, concepts, 0);
    assert.equal(exact, 1);
    assert.ok(full < 1 && full > meaning && meaning > partial, `${full} ${meaning} ${partial}`);
  });

  it("lifts a partial answer holding the query's main word as typed, not one holding its meaning or a lesser word", () => {
    // "crisp dry craft cider": cider is the head and nearest the whole subject, the qualities weigh less.
    const cider = { ...concept("cider", { brew: 0.7 }), importance: 0.8, centrality: 1 };
    const craft = { ...concept("craft"), importance: 1, centrality: 0.5 };
    const concepts = [craft, cider];
    const typedApart = { words: ["craft", "cider"], compact: "craftcider", tld: null, exactName: null };
    // One word typed: no word is the main one among others, so nothing is lifted (the same concepts, to compare).
    const oneWord = { ...typedApart, words: ["craftcider"] };
    const lift = (name: string, tokens: string) =>
      scoreCandidate(candidate(name, tokens), typedApart, concepts, 0) - scoreCandidate(candidate(name, tokens), oneWord, concepts, 0);
    assert.ok(Math.abs(lift("caravancider.org", "caravan cider") - 0.05) < 1e-9);
    assert.equal(lift("brewplace.shop", "brew place"), 0);
    assert.equal(lift("craftplace.shop", "craft place"), 0);
    // A name holding every subject word needs no lift (under the 0.99 cap it would tie with names it leads).
    assert.equal(lift("craftcider.net", "craft cider"), 0);
    // A full name typed is wanted as itself: no word of it is lifted.
    const name = { ...typedApart, exactName: "craftcider.com" };
    assert.equal(scoreCandidate(candidate("caravancider.org", "caravan cider"), name, concepts, 0), scoreCandidate(candidate("caravancider.org", "caravan cider"), oneWord, concepts, 0));
  });

  it("ranks a typed TLD above other TLDs of equally good names", () => {
    const q = { words: ["pizza"], compact: "pizza", tld: "io", exactName: "pizza.io" };
    const concepts = [concept("pizza")];
    const io = scoreCandidate(candidate("pizzahub.io", "pizza hub"), q, concepts, 0);
    const com = scoreCandidate(candidate("pizzahub.com", "pizza hub"), q, concepts, 0);
    assert.ok(io > com);
  });
});

describe("budget", () => {
  it("takes a typed budget out of the words", () => {
    assert.deepEqual(extractBudget("pizza under $500"), { text: "pizza", maxCents: 50_000 });
    assert.deepEqual(extractBudget("lawyer < 2k"), { text: "lawyer", maxCents: 200_000 });
    assert.deepEqual(extractBudget("best pizza"), { text: "best pizza", maxCents: null });
  });
  it("lifts names within budget and lowers those over it", () => {
    assert.ok(priceFit(40_000, 50_000) > 0);
    assert.ok(priceFit(150_000, 50_000) < priceFit(60_000, 50_000));
    assert.equal(priceFit(1, null), 0);
  });
});
