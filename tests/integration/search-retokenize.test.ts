import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { and, eq, inArray, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { choreRuns, domains, searchPhrases, searchVocabulary } from "@/db/schema";
import { getEmbedder, setEmbedder, vectorModel } from "@/server/search/embedder";
import { retokenizeInventory } from "@/server/search/retokenize";
import { SEGMENTER_VERSION, storedTokens } from "@/server/search/text";
import { startChores } from "@/server/services/chores";
import { addDomain } from "@/server/services/inventory";
import { runAdmin } from "../helpers/cli";
import { opaqueTag } from "../helpers/tags";

// Listings cut by an older segmenter are cut again (server/search/retokenize.ts):
// their tokens, postings, new words and phrases follow; tokens given by a seed or
// an import, and tokens already current, are left alone; a second pass changes
// nothing. The worker's "search tokens" chore runs it once per segmenter version.

const tag = opaqueTag("zr");

async function termsOf(name: string): Promise<string[]> {
  const rows = await getDb().execute<{ term: string }>(sql`select term from domain_terms where name = ${name} order by term`);
  return rows.map((r) => r.term);
}

describe("search tokens cut again", () => {
  after(async () => {
    await getDb().delete(domains).where(sql`${domains.label} like ${`${tag}%`}`);
    await getDb().delete(searchPhrases).where(sql`${searchPhrases.label} like ${`${tag}%`}`);
    await closeDb();
  });

  it("rewrites the older segmenter's cut, with its postings, words and phrase, and leaves given tokens alone", async () => {
    const db = getDb();
    const old = await addDomain(db, { environment: "sandbox", name: `${tag}-anapestdecency.com`, priceCents: 5_000 });
    const given = await addDomain(db, { environment: "sandbox", name: `${tag}-rinderpest.com`, priceCents: 5_000, tokens: "pest control" });
    const current = await addDomain(db, { environment: "sandbox", name: `${tag}-conflux.com`, priceCents: 5_000 });
    const cut = storedTokens(old.label);
    assert.ok(cut.includes("anapest decency"), cut);
    // As a listing made before SEGMENTER_VERSION 2 holds it.
    const older = storedTokens(old.label, { lemmas: false });
    assert.ok(older.includes("ana pest decency"), older);
    await db.update(domains).set({ tokens: older }).where(eq(domains.id, old.id));
    assert.ok((await termsOf(old.name)).includes("pest"), "the older cut's postings");
    const [phraseBefore] = await db.select({ id: searchPhrases.id }).from(searchPhrases).where(eq(searchPhrases.label, old.label));

    const report = await retokenizeInventory(db, { pageSize: 50 });
    assert.equal(report.segmenter, SEGMENTER_VERSION);
    assert.ok(report.changed >= 1 && report.scanned >= 3, JSON.stringify(report));
    const rows = await db.select({ id: domains.id, tokens: domains.tokens }).from(domains).where(inArray(domains.id, [old.id, given.id, current.id]));
    const tokens = new Map(rows.map((r) => [r.id, r.tokens]));
    assert.equal(tokens.get(old.id), cut);
    assert.equal(tokens.get(given.id), "pest control", "tokens a seed or import gave are kept");
    assert.equal(tokens.get(current.id), current.tokens);
    const terms = await termsOf(old.name);
    assert.ok(terms.includes("anapest") && !terms.includes("pest") && !terms.includes("ana"), terms.join(" "));
    const words = await db
      .select({ word: searchVocabulary.word })
      .from(searchVocabulary)
      .where(and(eq(searchVocabulary.word, "anapest"), eq(searchVocabulary.model, vectorModel(getEmbedder()))));
    assert.equal(words.length, 1, "the new word is embedded");
    const [phraseAfter] = await db.select({ id: searchPhrases.id }).from(searchPhrases).where(eq(searchPhrases.label, old.label));
    assert.ok(phraseBefore && phraseAfter && phraseAfter.id > phraseBefore.id, "the label's phrase is embedded again (a new id the mirrors read)");

    // A second pass finds nothing of ours to change.
    await retokenizeInventory(db);
    const again = await db.select({ id: domains.id, tokens: domains.tokens }).from(domains).where(inArray(domains.id, [old.id, given.id, current.id]));
    assert.deepEqual(new Map(again.map((r) => [r.id, r.tokens])), tokens);
  });

  it("an encoder that fails stops the pass before a page's tokens change, and the next pass does the work", async () => {
    const db = getDb();
    const listing = await addDomain(db, { environment: "sandbox", name: `${tag}-phonemicsbox.com`, priceCents: 5_000 });
    const older = storedTokens(listing.label, { lemmas: false });
    assert.ok(older.includes("phone mics box"), older);
    await db.update(domains).set({ tokens: older }).where(eq(domains.id, listing.id));
    const encoder = getEmbedder();
    setEmbedder({
      model: encoder.model,
      embed: () => Promise.reject(new Error("encoder down")),
    });
    try {
      await assert.rejects(retokenizeInventory(db), /encoder down/);
    } finally {
      setEmbedder(encoder);
    }
    const [kept] = await db.select({ tokens: domains.tokens }).from(domains).where(eq(domains.id, listing.id));
    assert.equal(kept?.tokens, older, "nothing half done");
    const report = await retokenizeInventory(db);
    assert.ok(report.changed >= 1);
    const [done] = await db.select({ tokens: domains.tokens }).from(domains).where(eq(domains.id, listing.id));
    assert.equal(done?.tokens, storedTokens(listing.label));
    assert.ok(done?.tokens.includes("phonemics box"));
  });

  it("the operations CLI and the worker's once-per-version chore run the same pass", async () => {
    const db = getDb();
    const listing = await addDomain(db, { environment: "sandbox", name: `${tag}-emigrantpest.com`, priceCents: 5_000 });
    await db.update(domains).set({ tokens: storedTokens(listing.label, { lemmas: false }) }).where(eq(domains.id, listing.id));
    const run = await runAdmin("search:retokenize", "--json");
    assert.equal(run.code, 0, run.stderr);
    const report = JSON.parse(run.stdout) as { segmenter: number; changed: number };
    assert.equal(report.segmenter, SEGMENTER_VERSION);
    assert.ok(report.changed >= 1);
    const [row] = await db.select({ tokens: domains.tokens }).from(domains).where(eq(domains.id, listing.id));
    assert.equal(row?.tokens, storedTokens(listing.label));

    // The chore's slot is the segmenter's version: it runs once, then never again for that version.
    const slot = `segmenter-${SEGMENTER_VERSION}`;
    await db.delete(choreRuns).where(and(eq(choreRuns.chore, "search tokens"), eq(choreRuns.slot, slot)));
    const logs: string[] = [];
    const chores = startChores(db, { timer: false, only: ["search tokens"], holder: "test-worker", log: (m) => logs.push(m) });
    await chores.tick();
    await chores.tick();
    await chores.stop();
    const runs = await db.select().from(choreRuns).where(and(eq(choreRuns.chore, "search tokens"), eq(choreRuns.slot, slot)));
    assert.equal(runs.length, 1);
    assert.ok(runs[0]?.finishedAt, "the run finished");
    assert.match(runs[0]?.outcome ?? "", /listing\(s\) cut again/);
    assert.equal(logs.filter((l) => l.startsWith(`search tokens (${slot})`)).length, 1, logs.join("\n"));
  });
});
