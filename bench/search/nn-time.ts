import { unit } from "@/server/search/embedder";
import { getVocabularyMirrorForTests, nearestWords } from "@/server/search/vocabulary";
const n = Number(process.argv[2] ?? 50000);
const rand = () => unit(Float32Array.from({ length: 512 }, () => Math.random() - 0.5));
const words = Array.from({ length: n }, (_, i) => `w${i}`);
const mirror = getVocabularyMirrorForTests(words, words.map(rand));
const q = rand();
for (let r = 0; r < 15; r++) { const t = performance.now(); nearestWords(mirror, q, 6, 2.5, ""); console.log(`${n} words: ${(performance.now() - t).toFixed(1)} ms`); }
