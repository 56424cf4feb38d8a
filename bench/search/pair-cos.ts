// The encoder's cosine between word pairs, each word in context ("a website about boxing"), as the
// partial-match test (PREFIX_MEANING in server/search/analyze.ts) compares them, closest first:
//   npx tsx bench/search/pair-cos.ts boxing:box letting:let sailing:sail
import { dot, embedWordsInContext, getEmbedder } from "@/server/search/embedder";

const pairs = process.argv.slice(2).map((p) => p.split(":") as [string, string]);
if (pairs.length === 0 || pairs.some((p) => p.length !== 2 || !p[0] || !p[1])) {
  console.error("usage: npx tsx bench/search/pair-cos.ts word:other [word:other ...]");
  process.exit(2);
}
const words = [...new Set(pairs.flat())];
const vectors = await embedWordsInContext(getEmbedder(), words);
const byWord = new Map(words.map((w, i) => [w, vectors[i] as Float32Array]));
const rows = pairs.map(([a, b]) => ({ pair: `${a}/${b}`, cosine: dot(byWord.get(a)!, byWord.get(b)!) }));
for (const { pair, cosine } of rows.sort((x, y) => y.cosine - x.cosine)) console.log(`${pair} ${cosine.toFixed(3)}`);
