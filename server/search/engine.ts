import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { analyzeWords, type Concept } from "./analyze";
import { priceFit } from "./budget";
import { getEmbedder } from "./embedder";
import { isKnownWord } from "./text";
import { getVocabulary } from "./vocabulary";

// The hybrid engine: legs retrieve candidates from Postgres indexes in parallel,
// reciprocal rank fusion merges them, a rerank on explicit features (exact name,
// word coverage, meaning, typed TLD, .com prior, length, price fit) orders the
// fused set, a score floor cuts what is not relevant (no padding), and at most
// PER_LABEL TLD variants of one label are kept (diversity).
//
// Legs (each bounded by LEG_LIMIT, each on an index):
//   keyword  FTS GIN over the segmented tokens: the words, their segments,
//            spelling corrections and inflections;
//   label    trigram GIN over labels: the query run together (typos, partial names);
//   typo     trigram GIN over tokens: one misspelt word inside a longer name;
//   meaning  FTS GIN over the tokens for the vocabulary words nearest in meaning.

export interface EngineQuery {
  words: string[];
  compact: string;
  tld: string | null;
  exactName: string | null;
  /** Budget typed in the query, in cents (see budget.ts). */
  maxPriceCents?: number | null;
}

export interface EngineParams {
  environment: Environment;
  limit: number;
  /** Legs to run (benchmarks compare single legs); default all. */
  legs?: readonly Leg[];
}

export type Leg = "keyword" | "label" | "typo" | "meaning";
export const ALL_LEGS: readonly Leg[] = ["keyword", "label", "typo", "meaning"];

export type Candidate = {
  id: string;
  name: string;
  label: string;
  tld: string;
  tokens: string;
  price_cents: string | number;
  currency: string;
  vertical: string | null;
  sim: number;
};

export type RankedCandidate = Candidate & { score: number };

export const RRF_K = 60;
const LEG_LIMIT = 60;
const MEANING_BRANCH_LIMIT = 15;
/** Below this final score a candidate is noise; nonsense queries return nothing. */
export const SCORE_FLOOR = 0.4;
/** At most this many TLD variants of one label in a result (diversity). */
const PER_LABEL = 2;
const MATCH_BASE = 0.45;
const TLD_TYPED_BONUS = 0.05;
const TLD_MISMATCH_PENALTY = 0.1;
const EXTRA_WORD_PENALTY = 0.03;
const COM_PRIOR = 0.015;

const columns = sql`d.id, d.name, d.label, d.tld, d.tokens, d.price_cents, d.currency, d.vertical`;

function base(environment: Environment): SQL {
  return sql`d.environment = ${environment} and d.status = 'listed'`;
}

const tsv = sql`to_tsvector('simple', d.tokens)`;

function select(environment: Environment, compact: string, tsquery: string, order: SQL | null, limit: number): SQL {
  return sql`(select ${columns}, similarity(${compact}::text, d.label)::float8 as sim
    from domains d
    where ${base(environment)} and ${tsv} @@ to_tsquery('simple', ${tsquery}::text)
    ${order ? sql`order by ${order}` : sql``}
    limit ${limit})`;
}

const group = (terms: Iterable<string>, prefixOf?: string) => {
  const list = [...terms].map((t) => (t === prefixOf && t.length >= 3 ? `${t}:*` : t));
  return list.length ? `(${list.join(" | ")})` : "";
};

/**
 * Names with every concept first (shortest labels first: few rows, index-driven),
 * then, for a query of several words, names with some of them (any LEG_LIMIT of
 * them: the rerank and the other legs order those).
 */
function keywordLeg(environment: Environment, compact: string, concepts: Concept[]): SQL | null {
  const groups = concepts.map((c) => group([...c.terms.keys()].filter((t) => !c.semantic.has(t)), c.word)).filter(Boolean);
  if (groups.length === 0) return null;
  const all = select(environment, compact, groups.join(" & "), sql`length(d.label), d.name`, LEG_LIMIT);
  if (groups.length === 1) return all;
  const some = select(environment, compact, `(${groups.join(" | ")}) & !(${groups.join(" & ")})`, null, LEG_LIMIT);
  return sql`${all} union all ${some}`;
}

/**
 * For each vocabulary word near a query word in meaning, the shortest names
 * with that word and the other concepts of the query: one small index-driven
 * branch per neighbour, best neighbours first.
 */
function meaningLeg(environment: Environment, compact: string, concepts: Concept[]): SQL | null {
  const branches: SQL[] = [];
  concepts.forEach((concept, i) => {
    const others = concepts.filter((_, j) => j !== i).map((c) => group(c.terms.keys(), c.word)).filter(Boolean);
    const neighbours = [...concept.semantic.entries()].sort((a, b) => b[1] - a[1]);
    for (const [term] of neighbours) {
      branches.push(select(environment, compact, [term, ...others].join(" & "), sql`length(d.label), d.name`, MEANING_BRANCH_LIMIT));
    }
  });
  return branches.length ? sql.join(branches, sql` union all `) : null;
}

function legSql(leg: Leg, q: EngineQuery, concepts: Concept[], environment: Environment): SQL | null {
  switch (leg) {
    case "keyword":
      return keywordLeg(environment, q.compact, concepts);
    case "meaning":
      return meaningLeg(environment, q.compact, concepts);
    case "label":
      if (q.compact.length < 3 && !q.exactName) return null;
      return sql`select ${columns}, similarity(${q.compact}::text, d.label)::float8 as sim
        from domains d
        where ${base(environment)} and (d.label % ${q.compact}::text ${q.exactName ? sql`or d.name = ${q.exactName}::text` : sql``})
        order by (d.name = ${q.exactName}::text) desc nulls last, similarity(${q.compact}::text, d.label) desc, d.name
        limit ${LEG_LIMIT}`;
    case "typo": {
      const typos = concepts.filter((c) => c.word.length >= 5 && !c.corrected && !isKnownWord(c.word)).map((c) => c.word);
      const word = typos.sort((a, b) => b.length - a.length)[0];
      if (!word) return null;
      return sql`select ${columns}, similarity(${q.compact}::text, d.label)::float8 as sim
        from domains d
        where ${base(environment)} and ${word}::text <% d.tokens
        order by word_similarity(${word}::text, d.tokens) desc, length(d.label), d.name
        limit ${LEG_LIMIT}`;
    }
  }
}

/** Reciprocal rank fusion: sum over legs of 1 / (k + rank). */
export function fuse(legs: Candidate[][], k = RRF_K): Map<string, { candidate: Candidate; rrf: number }> {
  const fused = new Map<string, { candidate: Candidate; rrf: number }>();
  for (const rows of legs) {
    rows.forEach((row, i) => {
      const entry = fused.get(row.id) ?? { candidate: row, rrf: 0 };
      entry.rrf += 1 / (k + i + 1);
      entry.candidate.sim = Math.max(entry.candidate.sim, Number(row.sim));
      fused.set(row.id, entry);
    });
  }
  return fused;
}

/** How well one candidate answers the query, in [0, 1]; see the constants for the weights. */
export function scoreCandidate(c: Candidate, q: EngineQuery, concepts: Concept[], rrfShare: number): number {
  if (q.exactName && c.name === q.exactName) return 1;
  const tokens = c.tokens.split(" ").filter(Boolean);
  const tokenSet = new Set(tokens);
  const used = new Set<string>();
  let covered = 0;
  let anyMatch = false;
  for (const concept of concepts) {
    let best = 0;
    let bestTerm: string | null = null;
    for (const [term, weight] of concept.terms) {
      if (tokenSet.has(term) && weight > best) [best, bestTerm] = [weight, term];
    }
    if (best === 0 && concept.word.length >= 3) {
      const prefixed = tokens.find((t) => t.startsWith(concept.word));
      if (prefixed) [best, bestTerm] = [0.75, prefixed];
    }
    if (bestTerm) used.add(bestTerm);
    if (best > 0) anyMatch = true;
    covered += best;
  }
  const coverage = concepts.length > 0 ? covered / concepts.length : 0;
  const words = anyMatch ? MATCH_BASE + (1 - MATCH_BASE) * coverage : 0;
  const extra = anyMatch ? tokens.filter((t) => !used.has(t)).length : 0;
  const sim = Number(c.sim);
  const labelEq = q.compact.length > 0 && c.label.replace(/-/g, "") === q.compact;
  let score = Math.max(labelEq ? 0.95 : 0, 0.85 * words + 0.1 * sim - EXTRA_WORD_PENALTY * Math.min(extra, 4), 0.85 * sim);
  // A typed TLD is what the buyer wants: other TLDs fall behind every relevant name in it.
  if (q.tld) score += c.tld === q.tld ? TLD_TYPED_BONUS : -TLD_MISMATCH_PENALTY;
  if (c.tld === "com") score += COM_PRIOR;
  score += priceFit(Number(c.price_cents), q.maxPriceCents ?? null);
  score += 0.02 * rrfShare - 0.002 * Math.min(c.label.length, 30) / 30;
  // 1 is reserved for the exact name, so nothing ties with it.
  return Math.min(0.99, Math.max(0, score));
}

export interface EngineResult {
  hits: RankedCandidate[];
  concepts: Concept[];
}

/** Candidates for `q`, reranked, above the floor, diverse, at most `limit`. */
export async function runSearch(db: Db, q: EngineQuery, params: EngineParams): Promise<EngineResult> {
  if (q.words.length === 0) return { hits: [], concepts: [] };
  const embedder = getEmbedder();
  const legs = params.legs ?? ALL_LEGS;
  const mirror = await getVocabulary(db, embedder);
  const concepts = await analyzeWords(mirror, q.words, legs.includes("meaning") ? embedder : noMeaning);
  const statements = legs.map((leg) => legSql(leg, q, concepts, params.environment)).filter((s): s is SQL => s !== null);
  const results = await Promise.all(statements.map((s) => db.execute<Candidate>(s)));
  const fused = fuse(results.map((r) => [...r]));
  const maxRrf = Math.max(0, ...[...fused.values()].map((f) => f.rrf));
  const ranked = [...fused.values()]
    .map(({ candidate, rrf }) => ({ ...candidate, score: scoreCandidate(candidate, q, concepts, maxRrf ? rrf / maxRrf : 0) }))
    .filter((c) => c.score >= SCORE_FLOOR)
    .sort((a, b) => b.score - a.score || a.label.length - b.label.length || a.name.localeCompare(b.name));
  const perLabel = new Map<string, number>();
  const hits: RankedCandidate[] = [];
  for (const c of ranked) {
    const seen = perLabel.get(c.label) ?? 0;
    if (seen >= PER_LABEL) continue;
    perLabel.set(c.label, seen + 1);
    hits.push(c);
    if (hits.length >= params.limit) break;
  }
  return { hits, concepts };
}

/** An embedder that knows no meaning: the keyword-only configurations of the benchmark. */
const noMeaning = { model: "none", embed: async (texts: string[]) => texts.map(() => new Float32Array(0)) };
