import assert from "node:assert/strict";
import { after, afterEach, describe, it } from "node:test";
import { sql } from "drizzle-orm";
import { closeDb, createPool, getDb } from "@/db/client";
import { searchPhrases } from "@/db/schema";
import { checkReadiness } from "@/server/observability/readiness";
import { getPhrases } from "@/server/search/phrases";
import { getVocabulary } from "@/server/search/vocabulary";
import { READY_WAIT_MS, resetSearchWarmthForTests, searchLoadingReason, startSearchWarmUp } from "@/server/search/warm";
import { addDomain } from "@/server/services/inventory";
import { opaqueTag } from "../helpers/tags";

// The search index a web process loads once it listens (server/search/warm.ts):
// readiness waits for it (bounded), and the mirrors it loads are the ones every
// search reads, whichever copy of the search modules asks (Next gives each route
// bundle its own).

const tag = opaqueTag("zw");

describe("search warm-up at start", () => {
  afterEach(() => resetSearchWarmthForTests());
  after(async () => {
    await getDb().delete(searchPhrases).where(sql`${searchPhrases.label} like ${`${tag}%`}`);
    await closeDb();
  });

  it("keeps readiness at 503 while the index loads, then loads the mirrors a search reads", async () => {
    const db = getDb();
    await addDomain(db, { environment: "sandbox", name: `${tag}-garden-tools.com`, priceCents: 5_000 });
    // Another session holds the phrases table, so the load cannot finish until it lets go.
    const other = createPool(process.env.DATABASE_URL as string, 1);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const holding = other.db.transaction(async (tx) => {
      await tx.execute(sql`lock table search_phrases in access exclusive mode`);
      locked();
      await held;
    });
    try {
      await isLocked;
      const loading = startSearchWarmUp(db);
      const waiting = await checkReadiness(db);
      assert.equal(waiting.ready, false);
      assert.match(waiting.reason ?? "", /^the search index is still loading \(\d+ s so far\)$/);
      release();
      await holding;
      const state = await loading;
      assert.equal(state.error, null);
      assert.ok(state.settled && state.phrases > 0 && state.words > 0, JSON.stringify(state));
      assert.deepEqual(await checkReadiness(db), { ready: true, database: "ok", pendingMigrations: [] });
      // The same mirrors, caught up: a search reads no page it has not read.
      const phrases = await getPhrases(db);
      assert.ok(phrases.rowOf.has(`${tag}-garden-tools`));
      assert.equal(phrases.size, state.phrases);
      assert.equal((await getVocabulary(db)).words.size, state.words);
    } finally {
      release();
      await holding.catch(() => undefined);
      await other.sql.end();
    }
  });

  it("stops holding readiness back after READY_WAIT_MS, and starts once per process", async () => {
    const loading = startSearchWarmUp(getDb(), () => 0);
    assert.equal(startSearchWarmUp(getDb()), loading, "a second start is the first one");
    assert.match(searchLoadingReason(READY_WAIT_MS - 1) ?? "", /still loading \(60 s so far\)/);
    assert.equal(searchLoadingReason(READY_WAIT_MS), null);
    await loading;
    assert.equal(searchLoadingReason(1), null, "settled");
  });

  it("a second copy of the mirror module (a route bundle's) reads the mirror the first loaded", async () => {
    const db = getDb();
    const first = await getPhrases(db);
    // A fresh module instance, as Next's route bundles each have.
    const copy = (await import(`../../server/search/phrases.ts?copy=${Date.now()}`)) as typeof import("@/server/search/phrases");
    assert.equal(await copy.getPhrases(db), first);
  });
});
