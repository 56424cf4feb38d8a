import { existsSync, readFileSync } from "node:fs";
import path from "node:path";

// The evaluation input and its grading, in one place (run.ts, pool.ts and
// make-corpus-queries.ts read it; tests/unit/search-eval.test.ts pins it).
//
// Query files (bench/search/eval/*.json) hold EvalQuery[]; judgements.json holds
// explicit grades by hand, { "<query id>": { "<domain name>": 0..3 } }, which
// override the rule for that name.

export const EVAL_DIR = path.join(path.dirname(new URL(import.meta.url).pathname), "eval");

export type IntentStratum = "intent" | "category" | "descriptive" | "brand-style" | "misspelt-intent";
export type CorpusQueryStratum = "exact" | "typo" | "run-together" | "tld";

export interface EvalQuery {
  id: string;
  stratum: IntentStratum | CorpusQueryStratum | string;
  q: string;
  /** Each set is one concept; a name covers it when one of its truth words is a word of the set (plural s/es aside). */
  sets: string[][];
  /** A TLD the query asks for. */
  tld?: string;
  /** The exact name the query aims at (corpus-derived exact and typo queries). */
  name?: string;
  note?: string;
}

export type Judgements = Record<string, Record<string, number>>;

export interface Doc {
  name: string;
  tld: string;
  /** Truth words. */
  words: readonly string[];
}

/** True when `token` is `word`, or one is the other with "s" or "es" added. */
export function sameWord(token: string, word: string): boolean {
  if (token === word) return true;
  const [short, long] = token.length < word.length ? [token, word] : [word, token];
  if (/[^aeiou]y$/.test(short) && long === `${short.slice(0, -1)}ies`) return true;
  return long.startsWith(short) && (long.length - short.length === 1 ? long.endsWith("s") : long.length - short.length === 2 && long.endsWith("es"));
}

export function coversSet(words: readonly string[], set: readonly string[]): boolean {
  return words.some((t) => set.some((w) => sameWord(t, w.toLowerCase())));
}

/**
 * The rule grade of a name for a query:
 * - with `name` (exact and typo queries): 3 for that name; otherwise as below, but
 *   all sets covered gives 2 (1 when the TLD also differs from a typed one);
 * - else 3 when every set is covered (and the typed TLD, when there is one); all
 *   sets covered under another TLD 2; some but not all sets (2+ sets) 1; else 0.
 */
export function ruleGrade(doc: Doc, q: Pick<EvalQuery, "sets" | "tld" | "name">): number {
  if (q.name && doc.name === q.name) return 3;
  if (q.sets.length === 0) return 0;
  const covered = q.sets.filter((set) => coversSet(doc.words, set)).length;
  if (covered === q.sets.length) {
    let g = q.name ? 2 : 3;
    if (q.tld && doc.tld !== q.tld) g -= 1;
    return g;
  }
  return q.sets.length > 1 && covered > 0 ? 1 : 0;
}

/** The grade: an explicit judgement when there is one, else the rule. */
export function grade(doc: Doc, q: EvalQuery, judgements: Judgements = {}): number {
  const explicit = judgements[q.id]?.[doc.name];
  return explicit ?? ruleGrade(doc, q);
}

export const GAIN = (g: number) => 2 ** g - 1;
export function dcg(grades: readonly number[], k = 5): number {
  return grades.slice(0, k).reduce((s, g, i) => s + GAIN(g) / Math.log2(i + 2), 0);
}

/** The best k grades over the corpus (descending): ideal DCG's input. */
export function idealGrades(counts: readonly number[], k = 5): number[] {
  const out: number[] = [];
  for (let g = 3; g >= 1 && out.length < k; g--) for (let i = 0; i < (counts[g] ?? 0) && out.length < k; i++) out.push(g);
  return out;
}

export interface QueryScore {
  ndcg: number;
  /** The first result has the best grade reachable in the corpus. */
  success1: number;
  /** A result of grade 3 (or the best reachable grade, when no name reaches 3) in the top k. */
  success5: number;
  zero: number;
}

/** Scores one ranked answer; null when the corpus holds nothing relevant (ideal DCG 0). */
export function scoreAnswer(grades: readonly number[], ideal: readonly number[], k = 5): QueryScore | null {
  const idcg = dcg(ideal, k);
  if (idcg === 0) return null;
  const best = ideal[0] ?? 0;
  const target = Math.min(3, best);
  return {
    ndcg: dcg(grades, k) / idcg,
    success1: (grades[0] ?? 0) >= best ? 1 : 0,
    success5: grades.slice(0, k).some((g) => g >= target) ? 1 : 0,
    zero: grades.length === 0 ? 1 : 0,
  };
}

function readJson<T>(file: string, fallback: T): T {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as T) : fallback;
}

/** Checks the agreed shape; throws on a malformed entry (a typo in a hand-written file should not score silently). */
export function validateQueries(queries: unknown, source: string): EvalQuery[] {
  if (!Array.isArray(queries)) throw new Error(`${source}: not an array`);
  const ids = new Set<string>();
  for (const q of queries as EvalQuery[]) {
    const ok = typeof q?.id === "string" && typeof q.q === "string" && typeof q.stratum === "string" && Array.isArray(q.sets)
      && q.sets.every((s) => Array.isArray(s) && s.every((w) => typeof w === "string"));
    if (!ok) throw new Error(`${source}: malformed query ${JSON.stringify(q)}`);
    if (ids.has(q.id)) throw new Error(`${source}: duplicate id ${q.id}`);
    ids.add(q.id);
  }
  return queries as EvalQuery[];
}

/**
 * The queries to run: BENCH_QUERIES (comma-separated paths) when set, else
 * eval/intent-queries.json (when present) and eval/corpus-queries.json (with BENCH_VOCAB=scowl,
 * eval/scowl-corpus-queries.json: the same strata drawn from that corpus).
 */
export function loadQueries(override = process.env.BENCH_QUERIES): { queries: EvalQuery[]; files: string[]; missing: string[] } {
  const corpusFile = process.env.BENCH_VOCAB === "scowl" ? "scowl-corpus-queries.json" : "corpus-queries.json";
  const files = override ? override.split(",").map((f) => path.resolve(f)) : [path.join(EVAL_DIR, "intent-queries.json"), path.join(EVAL_DIR, corpusFile)];
  const present = files.filter((f) => existsSync(f));
  const queries = present.flatMap((f) => validateQueries(readJson<unknown>(f, []), path.basename(f)));
  const ids = new Set<string>();
  for (const q of queries) {
    if (ids.has(q.id)) throw new Error(`duplicate query id ${q.id} across files`);
    ids.add(q.id);
  }
  return { queries, files: present, missing: files.filter((f) => !existsSync(f)) };
}

export function loadJudgements(file = path.join(EVAL_DIR, "judgements.json")): Judgements {
  return readJson<Judgements>(file, {});
}
