import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { inArray, sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { searchVocabulary } from "@/db/schema";
import { runSearch, TRIGRAM_THRESHOLD } from "@/server/search/engine";
import { getVocabulary, setCatchUpPageForTests, writeVocabulary } from "@/server/search/vocabulary";
import { addDomain } from "@/server/services/inventory";
import { parseSearchQuery } from "@/server/services/discovery";
import { opaqueTag } from "../helpers/tags";

// The two weaknesses issue 15 names in the search plumbing: the vocabulary
// mirror's catch-up by id order, and the trigram threshold that used to be a
// connection startup parameter (which PgBouncer in transaction mode refuses).

const tag = opaqueTag("zv");
const vector = Buffer.from(new Float32Array(4).buffer);
const row = (word: string) => ({ word, model: "test/any", vector });

describe("search vocabulary catch-up and trigram thresholds", () => {
  before(async () => {
    await getVocabulary(getDb());
  });

  after(async () => {
    await getDb().delete(searchVocabulary).where(sql`${searchVocabulary.word} like ${`${tag}%`}`);
    await closeDb();
  });

  it("never misses a word whose transaction commits after a later writer's: writers commit in id order", async () => {
    const db = getDb();
    const slow = `${tag}slow`;
    const fast = `${tag}fast`;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let slowWrote!: () => void;
    const wrote = new Promise<void>((resolve) => (slowWrote = resolve));
    // The slow writer takes its id first and stays open.
    const slowTx = db.transaction(async (tx) => {
      await writeVocabulary(tx, [row(slow)]);
      slowWrote();
      await gate;
    });
    await wrote;
    // The fast writer would take a larger id and commit first; it waits for the slow one instead.
    let fastDone = false;
    const fastTx = writeVocabulary(db, [row(fast)]).then(() => (fastDone = true));
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(fastDone, false, "the second writer waits for the first to commit");
    let mirror = await getVocabulary(db);
    assert.equal(mirror.words.has(slow), false);
    assert.equal(mirror.words.has(fast), false, "nothing uncommitted is read, so the catch-up mark stays below both");
    release();
    await Promise.all([slowTx, fastTx]);
    mirror = await getVocabulary(db);
    assert.ok(mirror.words.has(slow), "the word committed first with the lower id is caught up");
    assert.ok(mirror.words.has(fast));
    const ids = await db
      .select({ word: searchVocabulary.word, id: searchVocabulary.id })
      .from(searchVocabulary)
      .where(inArray(searchVocabulary.word, [slow, fast]));
    const id = (w: string) => ids.find((r) => r.word === w)!.id;
    assert.ok(id(slow) < id(fast), "ids are taken in commit order");
  });

  it("catches up in pages, and concurrent searches neither miss nor read twice a word", async () => {
    const db = getDb();
    const words = Array.from({ length: 25 }, (_, i) => `${tag}page${String.fromCharCode(97 + i)}`);
    await writeVocabulary(db, words.map(row));
    setCatchUpPageForTests(4);
    try {
      const mirrors = await Promise.all([getVocabulary(db), getVocabulary(db), getVocabulary(db)]);
      assert.ok(mirrors.every((m) => m === mirrors[0]), "one mirror per pool");
      const mirror = mirrors[0]!;
      for (const word of words) assert.ok(mirror.words.has(word), word);
      const bucket = mirror.byLength.get(words[0]!.length) ?? [];
      for (const word of words) assert.equal(bucket.filter((w) => w === word).length, 1, `${word} listed once`);
    } finally {
      setCatchUpPageForTests(10_000);
    }
  });

  it("a word written again under another model gets a new id, so running mirrors pick up the new vector", async () => {
    const db = getDb();
    const word = `${tag}again`;
    await writeVocabulary(db, [row(word)]);
    const [first] = await db.select().from(searchVocabulary).where(sql`${searchVocabulary.word} = ${word}`);
    await writeVocabulary(db, [{ ...row(word), model: "test/other" }]);
    const [second] = await db.select().from(searchVocabulary).where(sql`${searchVocabulary.word} = ${word}`);
    assert.ok(second!.id > first!.id);
    assert.equal(second!.model, "test/other");
  });

  it("sets the trigram threshold per statement: the label leg keeps its bar on a plain connection, and nothing leaks to the session", async () => {
    const db = getDb();
    const [{ limit }] = (await db.execute<{ limit: number }>(sql`select show_limit() as limit`)) as unknown as [{ limit: number }];
    assert.equal(Number(limit), 0.3, "connections carry pg_trgm's default: no startup parameter is sent");
    // Two labels near an unknown query: one above the engine's bar, one between pg_trgm's
    // default and it; both three edits away, so no spelling correction explains the query.
    const query = `${tag}qwrt`;
    const near = `${tag}qwrtyui`;
    const far = `${tag}mnbvcxz`;
    await addDomain(db, { environment: "sandbox", name: `${near}.com`, priceCents: 10_000 });
    await addDomain(db, { environment: "sandbox", name: `${far}.com`, priceCents: 10_000 });
    const sims = await db.execute<{ label: string; sim: number }>(
      sql`select label, similarity(label, ${query}::text)::float8 as sim from domains where label in (${near}, ${far}) and environment = 'sandbox'`,
    );
    const sim = (label: string) => Number(sims.find((r) => r.label === label)!.sim);
    assert.ok(sim(near) >= TRIGRAM_THRESHOLD, `premise: ${near} ~ ${query} = ${sim(near)}`);
    assert.ok(sim(far) >= 0.3 && sim(far) < TRIGRAM_THRESHOLD, `premise: ${far} ~ ${query} = ${sim(far)}`);
    const { hits } = await runSearch(db, parseSearchQuery(query), { environment: "sandbox", limit: 20, legs: ["label"] });
    const names = hits.map((h) => h.name);
    assert.ok(names.includes(`${near}.com`), names.join(", "));
    assert.ok(!names.includes(`${far}.com`), `below the bar: ${names.join(", ")}`);
    const after = await db.execute<{ limit: number }>(sql`select show_limit() as limit`);
    assert.equal(Number(after[0]!.limit), 0.3, "the statement's threshold does not outlive it");
  });
});
