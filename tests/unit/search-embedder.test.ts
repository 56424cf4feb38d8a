import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { setEncoderLoaderForTests, setEmbedThreads, useLiteEmbedder } from "@/server/search/embedder";

describe("the encoder's load", () => {
  afterEach(() => setEncoderLoaderForTests(undefined));
  const model = { embed: async (texts: string[]) => texts.map(() => [3, 4]) };

  it("tries a failed load once more before the search that needed it gives up", async () => {
    setEmbedThreads(1);
    let loads = 0;
    setEncoderLoaderForTests(async () => {
      loads++;
      if (loads === 1) throw new Error("Backend 'wasm' has not yet been initialized");
      return model;
    });
    const [vector] = await useLiteEmbedder.embed(["pizza"]);
    assert.deepEqual([...(vector ?? [])].map((x) => Math.round(x * 10) / 10), [0.6, 0.8]);
    assert.equal(loads, 2);
  });

  it("forgets a load that failed twice, so the next search loads again", async () => {
    setEmbedThreads(1);
    let loads = 0;
    setEncoderLoaderForTests(async () => {
      loads++;
      if (loads <= 2) throw new Error("Backend 'wasm' has not yet been initialized");
      return model;
    });
    await assert.rejects(useLiteEmbedder.embed(["pizza"]), /not yet been initialized/);
    assert.equal((await useLiteEmbedder.embed(["pizza"])).length, 1);
    assert.equal(loads, 3);
  });
});
