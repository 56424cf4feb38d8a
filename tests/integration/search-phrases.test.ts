import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { and, eq, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { searchPhrases } from "@/db/schema";
import { embedInContext } from "@/server/search/analyze";
import { getEmbedder, vectorModel } from "@/server/search/embedder";
import { getPhrases, labelSimilarity, nearestLabels, nearestLabelsExact, registerPhrases } from "@/server/search/phrases";
import { addDomain } from "@/server/services/inventory";
import { opaqueTag } from "../helpers/tags";

// Names as phrases (server/search/phrases.ts): a label listed is embedded as one
// phrase in the same step as its words, a search process's mirror sees it on the
// next query, and the nearest-neighbour scan ranks names by what they mean as a whole.

const tag = opaqueTag("zp");

describe("search phrases", () => {
  after(async () => {
    await getDb().delete(searchPhrases).where(sql`${searchPhrases.label} like ${`${tag}%`}`);
    await closeDb();
  });

  it("embeds a listed label as a phrase, which the next search's mirror holds", async () => {
    const db = getDb();
    await getPhrases(db);
    const groom = await addDomain(db, { environment: "sandbox", name: `${tag}-puppy-salon.com`, priceCents: 5_000 });
    const tax = await addDomain(db, { environment: "sandbox", name: `${tag}-tax-audit.com`, priceCents: 5_000 });
    const rows = await db.select().from(searchPhrases).where(and(eq(searchPhrases.label, groom.label), eq(searchPhrases.model, vectorModel(getEmbedder()))));
    assert.equal(rows.length, 1);
    const mirror = await getPhrases(db);
    const vector = await embedInContext("dog grooming");
    assert.ok(vector);
    const near = labelSimilarity(mirror, groom.label, vector);
    const far = labelSimilarity(mirror, tax.label, vector);
    assert.ok(near !== null && far !== null && near > far, `puppy salon ${near} vs tax audit ${far} for "dog grooming"`);
    assert.equal(await registerPhrases(db, [groom.label, tax.label]), 0, "a label is embedded once");
  });

  it("the sketch scan finds the exact scan's nearest labels", async () => {
    const mirror = await getPhrases(getDb());
    const vector = await embedInContext("pizza restaurant");
    assert.ok(vector);
    const exact = nearestLabelsExact(mirror, vector, 10).map((n) => n.label);
    const approx = new Set(nearestLabels(mirror, vector, 10).map((n) => n.label));
    assert.ok(exact.length > 0);
    assert.ok(exact.filter((l) => approx.has(l)).length >= exact.length - 1, `${exact.join(",")} vs ${[...approx].join(",")}`);
  });
});
