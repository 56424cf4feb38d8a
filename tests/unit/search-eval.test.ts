import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dcg, grade, idealGrades, ruleGrade, sameWord, scoreAnswer, validateQueries, type EvalQuery } from "@/bench/search/eval";

// The search benchmark's grading rule (bench/search/eval.ts), as agreed for the
// hand-written intent queries and the corpus-derived ones.

const doc = (name: string, words: string) => ({ name, tld: name.slice(name.indexOf(".") + 1), words: words.split(" ") });
const groomer: EvalQuery = {
  id: "i001",
  stratum: "intent",
  q: "somewhere to book a dog groomer",
  sets: [["dog", "puppy", "canine", "pet", "hound"], ["groom", "groomer", "grooming", "salon", "spa"]],
};

describe("search eval: words", () => {
  it("a word matches itself and its regular plural (s, es, y -> ies), both ways", () => {
    assert.ok(sameWord("dog", "dog"));
    assert.ok(sameWord("dogs", "dog"));
    assert.ok(sameWord("dog", "dogs"));
    assert.ok(sameWord("boxes", "box"));
    assert.ok(sameWord("box", "boxes"));
    assert.ok(!sameWord("dogma", "dog"));
    assert.ok(sameWord("city", "cities"));
    assert.ok(sameWord("bakeries", "bakery"));
    assert.ok(!sameWord("day", "daies"), "a vowel before the y keeps it: days");
    assert.ok(!sameWord("mouse", "mice"));
    assert.ok(!sameWord("do", "dogs"));
  });
});

describe("search eval: rule grade", () => {
  it("3 when every set is covered, 1 for some of two sets, 0 for none", () => {
    assert.equal(ruleGrade(doc("puppysalon.com", "puppy salon"), groomer), 3);
    assert.equal(ruleGrade(doc("hounds-spa.net", "hounds spa"), groomer), 3);
    assert.equal(ruleGrade(doc("dogpark.com", "dog park"), groomer), 1);
    assert.equal(ruleGrade(doc("catpark.com", "cat park"), groomer), 0);
  });

  it("a single set gives 3 or 0, never 1", () => {
    const one: EvalQuery = { id: "x", stratum: "category", q: "bakery", sets: [["bakery", "bread"]] };
    assert.equal(ruleGrade(doc("breads.io", "breads"), one), 3);
    assert.equal(ruleGrade(doc("cake.io", "cake"), one), 0);
  });

  it("a typed TLD: all sets under another TLD is 2", () => {
    const q: EvalQuery = { ...groomer, tld: "io" };
    assert.equal(ruleGrade(doc("dogspa.io", "dog spa"), q), 3);
    assert.equal(ruleGrade(doc("dogspa.com", "dog spa"), q), 2);
    assert.equal(ruleGrade(doc("dogpark.io", "dog park"), q), 1);
  });

  it("a named name is 3; another name with all its words 2, under another TLD 1", () => {
    const q: EvalQuery = { id: "c001", stratum: "exact", q: "fierceflux.com", sets: [["fierce"], ["flux"]], name: "fierceflux.com" };
    assert.equal(ruleGrade(doc("fierceflux.com", "fierce flux"), q), 3);
    assert.equal(ruleGrade(doc("flux-fierce.com", "flux fierce"), q), 2);
    const typed: EvalQuery = { ...q, tld: "com" };
    assert.equal(ruleGrade(doc("fierceflux.net", "fierce flux"), typed), 1);
  });

  it("an explicit judgement overrides the rule for that name only", () => {
    const judged = { i001: { "dogpark.com": 3, "puppysalon.com": 0 } };
    assert.equal(grade(doc("dogpark.com", "dog park"), groomer, judged), 3);
    assert.equal(grade(doc("puppysalon.com", "puppy salon"), groomer, judged), 0);
    assert.equal(grade(doc("houndspa.com", "hound spa"), groomer, judged), 3);
  });
});

describe("search eval: scores", () => {
  it("nDCG@5, success@1, success@5 and zero results against the corpus ideal", () => {
    const ideal = idealGrades([0, 4, 0, 2]); // two grade-3 names, four grade-1 ones
    assert.deepEqual(ideal, [3, 3, 1, 1, 1]);
    const perfect = scoreAnswer([3, 3, 1, 1, 1], ideal)!;
    assert.equal(perfect.ndcg, 1);
    assert.equal(perfect.success1, 1);
    assert.equal(perfect.success5, 1);
    const late = scoreAnswer([0, 1, 3], ideal)!;
    assert.equal(late.success1, 0);
    assert.equal(late.success5, 1);
    assert.ok(late.ndcg > 0 && late.ndcg < 1);
    assert.equal(late.ndcg, dcg([0, 1, 3]) / dcg(ideal));
    assert.deepEqual(scoreAnswer([], ideal), { ndcg: 0, success1: 0, success5: 0, zero: 1 });
  });

  it("success@5 takes the best reachable grade when no name reaches 3", () => {
    const ideal = idealGrades([0, 7, 0, 0]);
    assert.equal(scoreAnswer([0, 0, 1], ideal)!.success5, 1);
    assert.equal(scoreAnswer([1], ideal)!.success1, 1);
  });

  it("a query with nothing relevant in the corpus is not scored", () => {
    assert.equal(scoreAnswer([], idealGrades([9, 0, 0, 0])), null);
    assert.equal(scoreAnswer([0, 0], []), null);
  });
});

describe("search eval: files", () => {
  it("rejects malformed entries and duplicate ids", () => {
    assert.throws(() => validateQueries([{ id: "a", stratum: "intent", q: "x" }], "t"));
    assert.throws(() => validateQueries([{ id: "a", stratum: "intent", q: "x", sets: [] }, { id: "a", stratum: "intent", q: "y", sets: [] }], "t"));
    assert.equal(validateQueries([groomer], "t").length, 1);
  });
});
