import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { dot, unit } from "@/server/search/embedder";
import { getPhraseMirrorForTests, labelSimilarity, nearestLabels, nearestLabelsExact, similarityStats } from "@/server/search/phrases";

// The phrase mirror's int8 vectors and sketch scan (server/search/phrases.ts) on
// seeded random vectors: cosines kept to within a hundredth, and the scan finds
// what the exact scan finds.

function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

describe("search phrases mirror", () => {
  const next = random(42);
  const vector = () => unit(Float32Array.from({ length: 512 }, next));
  const vectors = Array.from({ length: 20_000 }, vector);
  const labels = vectors.map((_, i) => `label${i}`);
  const mirror = getPhraseMirrorForTests(labels, vectors);

  it("keeps each cosine to within 0.01 through int8", () => {
    const q = vector();
    for (let i = 0; i < 200; i++) assert.ok(Math.abs(labelSimilarity(mirror, labels[i]!, q)! - dot(q, vectors[i]!)) < 0.01);
    assert.equal(labelSimilarity(mirror, "unknown", q), null);
  });

  it("finds the exact scan's nearest labels through the sketches", () => {
    // Twenty subjects, each with five names near it (as a subject is near the names that answer it), among 20,000 others.
    const planted = Array.from({ length: 20 }, vector);
    const near = planted.flatMap((p) => Array.from({ length: 5 }, () => unit(Float32Array.from(p, (x) => x + 0.08 * next()))));
    const withNear = getPhraseMirrorForTests([...labels, ...near.map((_, i) => `near${Math.floor(i / 5)}_${i % 5}`)], [...vectors, ...near]);
    let found = 0;
    planted.forEach((q, t) => {
      const exact = nearestLabelsExact(withNear, q, 5).map((n) => n.label);
      assert.deepEqual([...exact].sort(), [0, 1, 2, 3, 4].map((k) => `near${t}_${k}`));
      const approx = new Set(nearestLabels(withNear, q, 5).map((n) => n.label));
      found += exact.filter((l) => approx.has(l)).length;
    });
    assert.equal(found, 100);
  });

  it("judges closeness against the query's similarity to every label", () => {
    const q = unit(Float32Array.from(vectors[5]!, (x) => x + 0.01 * next()));
    const stats = similarityStats(mirror, q)!;
    assert.ok(Math.abs(stats.mean) < 0.02, `mean ${stats.mean}`);
    const z = (labelSimilarity(mirror, "label5", q)! - stats.mean) / stats.sd;
    assert.ok(z > 10, `z ${z}`);
  });
});
