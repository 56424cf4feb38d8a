import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { stopEmbedThreads, THREADED_MIN_TEXTS } from "@/server/search/embed-threads";
import { dot, setEmbedThreads, useLiteEmbedder } from "@/server/search/embedder";

// Large batches embedded on worker threads (SEARCH_EMBED_THREADS) give the vectors the
// calling thread gives, in the same order; a search's few words never start a thread.

const texts = Array.from({ length: THREADED_MIN_TEXTS + 13 }, (_, i) => `a website about ${["gardens", "bicycles", "violins", "tea", "law"][i % 5]} number ${i}`);
const pool = () => (globalThis as unknown as { __pdmEmbedThreads?: { pool?: unknown } }).__pdmEmbedThreads?.pool;

after(async () => {
  setEmbedThreads(1);
  await stopEmbedThreads();
});

describe("search embedding threads", () => {
  it("embeds a large batch on threads to the same unit vectors, in order", async () => {
    setEmbedThreads(1);
    const here = await useLiteEmbedder.embed(texts);
    setEmbedThreads(3);
    const threaded = await useLiteEmbedder.embed(texts);
    assert.ok(pool(), "the batch went to the threads");
    assert.equal(threaded.length, texts.length);
    for (let i = 0; i < texts.length; i++) {
      assert.equal(threaded[i]!.length, 512);
      assert.ok(Math.abs(dot(threaded[i]!, here[i]!) - 1) < 1e-5, `text ${i}: cosine ${dot(threaded[i]!, here[i]!)}`);
    }
  });

  it("keeps a search's few words on the calling thread", async () => {
    await stopEmbedThreads();
    setEmbedThreads(2);
    const vectors = await useLiteEmbedder.embed(["a website about tea", "tea"]);
    assert.equal(vectors.length, 2);
    assert.equal(pool(), undefined);
  });

  it("refuses a thread count outside 1-16", () => {
    assert.throws(() => setEmbedThreads(0), /1 to 16/);
    assert.throws(() => setEmbedThreads(2.5), /1 to 16/);
  });
});
