import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import type { Environment } from "@/db/schema";
import { analyzeWords, embedInContext, subjectPhrase, type Concept } from "./analyze";
import { tune } from "./tune";
import { priceFit } from "./budget";
import { getEmbedder } from "./embedder";
import { isKnownWord, normalizeText, oneEditVariants } from "./text";
import { getPhrases, labelSimilarity, nearestLabels, similarityStats, type NearLabel } from "./phrases";
import { editDistance, getVocabulary } from "./vocabulary";

// The hybrid engine: legs retrieve candidates from Postgres indexes in parallel,
// reciprocal rank fusion merges them, a rerank on explicit features (exact name,
// word coverage, meaning, typed TLD, .com prior, length, price fit) orders the
// fused set, a score floor cuts what is not relevant (no padding), and at most
// PER_LABEL TLD variants of one label are kept (diversity).
//
// Legs (each bounded, each on an index; none sorts every match of a common word):
//   keyword  the exact name; names with every query word (a GIN intersection over
//            the segmented tokens, best prior first), with each pair of words, and
//            the best names for each word alone from the impact-ordered postings
//            (domain_terms); spelling corrections, inflections and the longer
//            words a word starts count as the word; a typed TLD gets its own branches;
//   label    trigram GIN over labels: the query run together (typos, partial and
//            brand names), only when some query word is neither a word of the
//            inventory, nor corrected to one, nor a real word;
//   typo     trigram GIN over tokens: one misspelt word inside a longer name;
//   meaning  for each vocabulary word near a query word in meaning, its best names
//            from the postings, or those also holding the other query words (GIN);
//   phrase   the names nearest the query's subject as a whole phrase (phrases.ts:
//            every label embedded at ingest, a sketch scan in process), by label.

export interface EngineQuery {
  words: string[];
  compact: string;
  tld: string | null;
  exactName: string | null;
  /** Budget typed in the query, in cents (see budget.ts). */
  maxPriceCents?: number | null;
  /** Filler words typed but not searched for ("the justice"): see FILLER_BONUS. */
  fillers?: string[];
  /** All typed words run together, fillers included: the label that is exactly what was typed. */
  phrase?: string;
  /** Words typed before an object ("rent" in "rent a boat"): see conceptImportance. */
  beforeObject?: string[];
}

export interface EngineParams {
  environment: Environment;
  limit: number;
  /** Legs to run (benchmarks compare single legs); default all. */
  legs?: readonly Leg[];
}

export type Leg = "keyword" | "label" | "typo" | "meaning" | "phrase";
export const ALL_LEGS: readonly Leg[] = ["keyword", "label", "typo", "meaning", "phrase"];

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

/** Labels the phrase leg takes from the nearest-neighbour scan. */
const PHRASE_LABELS = tune("PHRASE_LABELS", 30);
/**
 * A name near the query's subject as a whole scores up to PHRASE_SCORE, in
 * proportion to its closeness: its similarity's z-score against the query's
 * similarity to every name (similarityStats), from PHRASE_Z0 (0) to PHRASE_Z1 (1).
 */
const PHRASE_SCORE = tune("PHRASE_SCORE", 0.8);
const PHRASE_Z0 = tune("PHRASE_Z0", 4);
const PHRASE_Z1 = tune("PHRASE_Z1", 6.5);
/** Every candidate gains this much times its closeness to the subject (a tie-break among names of equal coverage). */
const PHRASE_BONUS = tune("PHRASE_BONUS", 0.1);

/** How near a candidate is to the query's subject as a phrase, in [0, 1] (see PHRASE_SCORE); 0 without one. */
export interface PhraseContext {
  similarity: (label: string) => number | null;
  mean: number;
  sd: number;
}
const phraseCloseness = (p: PhraseContext | null, label: string) => {
  const s = p?.similarity(label);
  if (!p || s == null) return 0;
  const z = (s - p.mean) / p.sd;
  return Math.min(1, Math.max(0, (z - PHRASE_Z0) / (PHRASE_Z1 - PHRASE_Z0)));
};

export const RRF_K = 60;
const LEG_LIMIT = 60;
const MEANING_BRANCH_LIMIT = 15;
/** Pairs are taken among the first this many concepts (6 pairs at most). */
const PAIRED_CONCEPTS = 4;
const PAIR_LIMIT = 20;
/** Concepts at least this important are the subject the keyword legs require; below, framing (see analyze.ts). */
const CORE_IMPORTANCE = 0.5;
/**
 * A concept no name holds as typed ("veterinary") is reached through its
 * meanings alone too, not only with the other words: its strongest few.
 */
const UNLISTED_MEANINGS = 3;
const UNLISTED_LIMIT = 10;
/** Below this final score a candidate is noise; nonsense queries return nothing (TUNE_SCORE_FLOOR=0: bench/search/headroom.ts sees every candidate). */
export const SCORE_FLOOR = tune("SCORE_FLOOR", 0.4);
/** At most this many TLD variants of one label in a result (diversity). */
const PER_LABEL = 2;
const MATCH_BASE = 0.45;
const TLD_TYPED_BONUS = 0.05;
const TLD_MISMATCH_PENALTY = 0.1;
const EXTRA_WORD_PENALTY = 0.03;
const COM_PRIOR = 0.015;
/**
 * A typed filler word the name holds ("the justice" -> thejustice.com) lifts it
 * a little above the same name without it, and is not counted as an extra word.
 */
const FILLER_BONUS = 0.05;
/**
 * A query of at most this many typed words may be a name typed with a slip
 * ("placesysetm", "austin-lao.com"), however real its pieces look: the label leg
 * runs for it even when every word is explained. Segmentation and correction
 * make a misspelt label look explained ("usegon" -> use gon, "xentworks" ->
 * networks), which skipped the leg: on the development typo stratum (seed 777,
 * 50k names, 60 queries) success@1 was 0.80 against plain trigram similarity's
 * 0.87. With this, ONE_EDIT_SCORE and the hyphenated match: success@1 0.97,
 * success@5 0.87 -> 0.97, nDCG@5 0.804 -> 0.906; exact, run-together and TLD
 * strata and the paraphrase set (dev.ts) unchanged.
 */
const NAME_LIKE_WORDS = 2;
/**
 * At most NAME_LIKE_WORDS typed words, one of which no name holds as typed
 * ("usegon", "austin-lao"): words the inventory lists ("broker .xyz") are
 * wanted as themselves, not as a slip for a neighbouring label (broken.com).
 */
function maybeSlip(q: EngineQuery, inInventory: (word: string) => boolean): boolean {
  return q.words.length + (q.fillers?.length ?? 0) <= NAME_LIKE_WORDS && !q.words.every((w) => inInventory(normalizeText(w)));
}
/**
 * A label one edit (Damerau) from the label typed, of at least TYPO_MIN_LENGTH
 * letters, is what the searcher meant: it ranks above names that hold the
 * pieces the slip was cut into (a full match scores 0.85 + 0.1 * similarity,
 * ~0.9: "usegon" -> use-gone), and is only lifted when no label is exactly as
 * typed (0.95). As 0.85 * similarity it scored ~0.55 for one slip in a long
 * label ("oddpicuring" -> oddpicturing 0.67), below names holding one piece ("cure").
 */
const ONE_EDIT_SCORE = 0.92;
const TYPO_MIN_LENGTH = 5;

/**
 * Trigram similarity a label needs for the label leg's `%` (pg_trgm's default is
 * 0.3): at 0.3 a nine-letter query hands 21,000 of a million labels to the recheck
 * for a few hundred matches (72 ms); at 0.5 the typo and partial-name matches the
 * leg is for still pass ("piza" ~ pizza 0.57, "bestpizza" ~ bestpizzashop 0.71)
 * and it stays within a few milliseconds.
 */
export const TRIGRAM_THRESHOLD = 0.5;
/** Word similarity the typo leg's `<%` needs: pg_trgm's default, stated so no server setting changes it. */
export const WORD_SIMILARITY_THRESHOLD = 0.6;

/**
 * A condition that sets the trigram thresholds for this statement alone: an
 * InitPlan the planner evaluates once, as a one-time filter above the scans,
 * before the index is read; `set_config(..., true)` lasts to the end of the
 * statement's own (implicit) transaction, or the caller's. Per statement, not
 * as a connection startup parameter, which a transaction-pooling proxy
 * (PgBouncer) refuses, nor as a session SET, which would leak to whoever gets
 * the pooled connection next.
 */
export const trigramThresholds = sql`(select set_config('pg_trgm.similarity_threshold', ${String(TRIGRAM_THRESHOLD)}::text, true)
  || set_config('pg_trgm.word_similarity_threshold', ${String(WORD_SIMILARITY_THRESHOLD)}::text, true)) is not null`;

const columns = sql`d.id, d.name, d.label, d.tld, d.tokens, d.price_cents, d.currency, d.vertical`;

/** What every leg selects: a Candidate, with the label's trigram similarity to the query run together. */
const candidate = (compact: string) => sql`select ${columns}, similarity(${compact}::text, d.label)::float8 as sim`;

function base(environment: Environment): SQL {
  return sql`d.environment = ${environment} and d.status = 'listed'`;
}

const tsv = sql`to_tsvector('simple', d.tokens)`;

/** Names matching a tsquery through the GIN index, best prior first: for intersections, which are small. */
function matching(environment: Environment, compact: string, tsquery: string, limit: number, tld: string | null = null): SQL {
  return sql`(${candidate(compact)}
    from domains d
    where ${base(environment)} and ${tsv} @@ to_tsquery('simple', ${tsquery}::text) ${tld ? sql`and d.tld = ${tld}::text` : sql``}
    order by d.search_prior desc, d.name
    limit ${limit})`;
}

/**
 * The best names holding any of `terms`, from the impact-ordered postings: one
 * index range of at most `limit` rows per term, however common the word.
 */
function postings(environment: Environment, compact: string, terms: string[], limit: number, tld: string | null = null): SQL {
  // With a TLD, the rank order is walked until `limit` names in it turn up,
  // filtering on the index's own name column (one name in thirteen, on average).
  const inTld = tld ? sql`and name like ${`%.${tld}`}::text` : sql``;
  const ranges = terms.map(
    (term) => sql`(select prior, name from domain_terms
      where term = ${term}::text and environment = ${environment} ${inTld} order by prior desc, name limit ${limit})`,
  );
  return sql`(${candidate(compact)}
    from (select distinct prior, name from (${sql.join(ranges, sql` union all `)}) u
      order by prior desc, name limit ${limit}) p
    join domains d on d.environment = ${environment} and d.name = p.name
    where ${base(environment)}
    order by p.prior desc, p.name)`;
}

/**
 * A concept's terms: its own (the word, inflection, correction, the longer
 * vocabulary words it starts) and, with `meaning`, its neighbours in meaning.
 * Partial words are listed, not matched with a `:*` prefix: a prefix makes GIN
 * gather every posting of every word it starts (5 ms instead of 0.6 at 1M names).
 */
const termsOf = (c: Concept, meaning: boolean) => [...[...c.terms.keys()].filter((t) => meaning || !c.semantic.has(t)), ...c.prefixed];
const group = (terms: string[]) => (terms.length ? `(${terms.join(" | ")})` : "");

/**
 * The exact name; names with every concept (an index intersection, best prior
 * first); with three or more concepts, names with each pair of them ("real
 * estate austin" has few names with all three); the best names for each concept
 * alone from the postings; when a TLD was typed, the same in that TLD; and
 * names that also hold the filler words typed.
 */
function keywordLeg(environment: Environment, q: EngineQuery, concepts: Concept[]): SQL | null {
  const { compact, exactName, tld } = q;
  const branches: SQL[] = [];
  if (exactName) branches.push(sql`(select ${columns}, 1::float8 as sim from domains d where ${base(environment)} and d.name = ${exactName}::text)`);
  const own = concepts.map((c) => termsOf(c, false)).filter((terms) => terms.length > 0);
  if (own.length === 0) return branches.length ? sql.join(branches, sql` union all `) : null;
  const groups = own.map(group);
  const tlds = tld ? [tld, null] : [null];
  // The subject: every concept but the framing words ("somewhere to book a dog groomer" -> dog, groomer), most informative first.
  const core = subject(concepts).map((c) => termsOf(c, false)).filter((terms) => terms.length > 0);
  const coreGroups = core.map(group);
  if (own.length === 1) {
    for (const t of tlds) branches.push(postings(environment, compact, own[0] as string[], LEG_LIMIT, t));
  } else {
    for (const t of tlds) branches.push(matching(environment, compact, groups.join(" & "), LEG_LIMIT, t));
    if (core.length < own.length && core.length >= 2) {
      for (const t of tlds) branches.push(matching(environment, compact, coreGroups.join(" & "), LEG_LIMIT, t));
    }
    if (coreGroups.length >= 3) {
      const first = coreGroups.slice(0, PAIRED_CONCEPTS);
      first.forEach((a, i) => first.slice(i + 1).forEach((b) => branches.push(matching(environment, compact, `${a} & ${b}`, PAIR_LIMIT))));
    }
    const each = Math.ceil(LEG_LIMIT / core.length / 2);
    for (const terms of core) for (const t of tlds) branches.push(postings(environment, compact, terms, each, t));
  }
  // Names holding the typed filler words too ("the justice" -> thejustice.com).
  if (q.fillers?.length) branches.push(matching(environment, compact, [group(q.fillers), ...groups].join(" & "), PAIR_LIMIT));
  return branches.length ? sql.join(branches, sql` union all `) : null;
}

/** A concept's weight in the coverage of a name (see Concept.importance). */
const importanceOf = (c: Concept) => c.importance ?? 1;
/** A concept of the subject, not of the framing (see CORE_IMPORTANCE). */
const isCore = (c: Concept) => importanceOf(c) >= CORE_IMPORTANCE;
/** Concepts of the subject: all but the framing words (all when nothing else), most important first. */
export function subject(concepts: Concept[]): Concept[] {
  const core = concepts.filter(isCore);
  return (core.length > 0 ? core : concepts).slice().sort((a, b) => importanceOf(b) - importanceOf(a));
}

/**
 * For each vocabulary word near a query word in meaning, the best names with that
 * word (and the other concepts of the query): one small branch per neighbour,
 * from the postings alone or an index intersection.
 */
function meaningLeg(environment: Environment, compact: string, concepts: Concept[], inInventory: (word: string) => boolean): SQL | null {
  const branches: SQL[] = [];
  const core = subject(concepts);
  core.forEach((concept) => {
    // The other words as typed (not their own neighbours: a meaning of each word at once is a stretch, and costly).
    const others = core.filter((c) => c !== concept).map((c) => group(termsOf(c, false))).filter(Boolean);
    const neighbours = [...concept.semantic.entries()].sort((a, b) => b[1] - a[1]);
    const unlisted = others.length > 0 && !inInventory(concept.word) && !(concept.corrected && inInventory(concept.corrected));
    neighbours.forEach(([term], rank) => {
      branches.push(
        others.length === 0
          ? postings(environment, compact, [term], MEANING_BRANCH_LIMIT)
          : matching(environment, compact, [term, ...others].join(" & "), MEANING_BRANCH_LIMIT),
      );
      if (unlisted && rank < UNLISTED_MEANINGS) branches.push(postings(environment, compact, [term], UNLISTED_LIMIT));
    });
  });
  // The words nearest the subject as a whole phrase ("solar panel installer" -> energy) answer all of it: their best names alone.
  for (const concept of concepts) {
    if (concept.phrase?.size) branches.push(postings(environment, compact, [...concept.phrase.keys()], MEANING_BRANCH_LIMIT));
  }
  return branches.length ? sql.join(branches, sql` union all `) : null;
}

/** The names of the nearest labels, nearest first, then best prior (one btree probe per label). */
function phraseLeg(environment: Environment, compact: string, near: NearLabel[]): SQL | null {
  if (near.length === 0) return null;
  return sql`${candidate(compact)}
    from unnest(string_to_array(${near.map((n) => n.label).join(",")}::text, ',')) with ordinality as n(label, rank)
    join domains d on d.environment = ${environment} and d.label = n.label
    where d.status = 'listed'
    order by n.rank, d.search_prior desc, d.name
    limit ${LEG_LIMIT}`;
}

/** What the query analysis tells the legs: which words some name holds, and whether all are explained. */
interface LegContext {
  inInventory: (word: string) => boolean;
  /**
   * Every query word is a word of the inventory, was corrected to one, or is a
   * real word (its slips and meanings are keyword terms), so the keyword legs
   * hold every name the label leg could add.
   */
  explained: boolean;
  /** The query may be a listed name typed with a slip (see NAME_LIKE_WORDS): the label leg runs, explained or not. */
  maybeSlip: boolean;
  /** The labels nearest the query's subject as a phrase (the phrase leg's), nearest first. */
  near: NearLabel[];
}

/** What the buyer typed as one label: the quoted phrase, else the query's words run together. */
const typedLabel = (q: EngineQuery) => q.phrase ?? q.compact;
/** A candidate whose label, hyphens aside, is exactly what was typed. */
const labelIsTyped = (c: Pick<Candidate, "label">, typed: string) => typed.length > 0 && c.label.replace(/-/g, "") === typed;

/**
 * A one-time filter: the name typed is not listed. An explained query run only as
 * a possible slip ("highmemory.com") needs no label leg when the name exists: its
 * near labels only reshuffled the tail of exact answers (an index probe, not a scan).
 */
const notListed = (environment: Environment, name: string) =>
  sql`and not exists (select 1 from domains e where e.environment = ${environment} and e.name = ${name}::text and e.status = 'listed')`;

function legSql(leg: Leg, q: EngineQuery, concepts: Concept[], environment: Environment, { inInventory, explained, maybeSlip, near }: LegContext): SQL | null {
  switch (leg) {
    case "phrase":
      return phraseLeg(environment, q.compact, near);
    case "keyword":
      return keywordLeg(environment, q, concepts);
    case "meaning":
      return meaningLeg(environment, q.compact, concepts, inInventory);
    case "label":
      // Trigram matches of the whole query run together: typos, partial and brand names.
      // A full name typed that is not listed ("austin-lao.com") may be a slip too, whatever its words.
      if (q.compact.length < 3 || (explained && !maybeSlip && !q.exactName)) return null;
      {
        // Words typed apart are matched hyphenated too: a hyphen splits pg_trgm's words, so a
        // hyphenated label is far from the run ("illogiaclitybrush" ~ illogicality-brush 0.48,
        // under the threshold; "illogiaclity-brush" ~ it 0.6).
        const hyphened = q.words.length > 1 ? q.words.join("-") : null;
        const match = hyphened ? sql`(d.label % ${q.compact}::text or d.label % ${hyphened}::text)` : sql`d.label % ${q.compact}::text`;
        const similar = hyphened
          ? sql`greatest(similarity(${q.compact}::text, d.label), similarity(${hyphened}::text, d.label))`
          : sql`similarity(${q.compact}::text, d.label)`;
        const unlisted = explained && q.exactName ? notListed(environment, q.exactName) : sql``;
        const runTrigram = !explained || maybeSlip;
        const trigram = sql`(${candidate(q.compact)}
          from domains d
          where ${trigramThresholds} and ${base(environment)} and ${match} ${unlisted}
          order by ${similar} desc, d.search_prior desc, d.name
          limit ${LEG_LIMIT})`;
        // A short label loses most of its trigrams to one slip ("themeidc" ~ themedic 0.38, "rivenow" ~
        // ridenow): the labels one edit away are looked up as they are, first (an index probe per variant).
        const typed = typedLabel(q);
        if (typed.length < TYPO_MIN_LENGTH || typed.length > ONE_EDIT_MAX_LENGTH) return runTrigram ? trigram : null;
        const variants = [...new Set([...oneEditVariants(typed), ...(hyphened ? oneEditVariants(hyphened) : [])])];
        return sql`(${candidate(q.compact)}
          from domains d
          where ${base(environment)} and d.label = any(string_to_array(${variants.join(",")}::text, ',')) ${unlisted}
          order by d.search_prior desc, d.name
          limit ${LEG_LIMIT})${runTrigram ? sql` union all ${trigram}` : sql``}`;
      }
    case "typo": {
      // A word the inventory holds is the keyword leg's: only a word nobody lists is a typo here.
      const typos = concepts.filter((c) => c.word.length >= 5 && !c.corrected && !isKnownWord(c.word) && !inInventory(c.word)).map((c) => c.word);
      const word = typos.sort((a, b) => b.length - a.length)[0];
      if (!word) return null;
      return sql`${candidate(q.compact)}
        from domains d
        where ${trigramThresholds} and ${base(environment)} and ${word}::text <% d.tokens
        order by word_similarity(${word}::text, d.tokens) desc, d.search_prior desc, d.name
        limit ${LEG_LIMIT}`;
    }
  }
}

/** Labels up to this long are looked up one edit away (a variant list of about 28 per letter). */
const ONE_EDIT_MAX_LENGTH = 14;
/** Reciprocal rank fusion: sum over legs of 1 / (k + rank). */
export function fuse(legs: Candidate[][], k = RRF_K): Map<string, { candidate: Candidate; rrf: number }> {
  const fused = new Map<string, { candidate: Candidate; rrf: number }>();
  for (const rows of legs) {
    const seen = new Set<string>();
    rows.forEach((row, i) => {
      // A leg's branches may return a name twice: its best rank counts, once.
      if (seen.has(row.id)) return;
      seen.add(row.id);
      const entry = fused.get(row.id) ?? { candidate: row, rrf: 0 };
      entry.rrf += 1 / (k + i + 1);
      entry.candidate.sim = Math.max(entry.candidate.sim, Number(row.sim));
      fused.set(row.id, entry);
    });
  }
  return fused;
}

/**
 * Of the names that answer a query in part, one holding its main word as typed (or its plural, inflection or
 * correction: a term of KEY_TERM or more, not a meaning) answers more than one holding a lesser word only, a
 * meaning of the main word, or nothing but closeness to the whole phrase: it is lifted by KEY_BONUS. "escape
 * rooms" put killrooms.com above escape names, "we tow broken down cars" car names above tow names, "a
 * community for people who feel lonely" community names among the lonely ones. The main word is the subject
 * concept weighing most in the coverage (importance times centrality), among two or more words typed apart; a
 * name typed, in full or with a slip, has none (its own label, or the one a slip away, leads: ONE_EDIT_SCORE).
 * A name holding every subject word as typed needs no lift, and would lose its order under the 0.99 cap ("the
 * justice": justice.com would tie with thejustice.com). Development nDCG@5 at 0.05: dev 0.883 -> 0.887, dev-2
 * 0.865 -> 0.869, dev-5 0.758 -> 0.775, dev-6 0.726 -> 0.743, dev-7 0.543 -> 0.552; lost dev-3 0.875 -> 0.870
 * and dev-4 0.801 -> 0.795; 0.03 and 0.1 gained less (bench/search/eval/HOW-MADE.md, twenty-fourth session).
 * TUNE_KEY_BONUS=0: the before.
 */
const KEY_BONUS = tune("KEY_BONUS", 0.05);
/** A term at least this heavy is the concept's own word (typed, plural, inflection, correction), not a meaning. */
const KEY_TERM = 0.9;
/** A concept's weight in the coverage: its importance, scaled by its centrality. */
const weightOf = (c: Concept) => importanceOf(c) * (c.centrality ?? 1);
/** The subject concept weighing most in the coverage, when two or more compete (see KEY_BONUS). */
function mainConcept(concepts: Concept[]): Concept | null {
  const core = concepts.filter(isCore);
  return core.length < 2 ? null : core.reduce((a, b) => (weightOf(b) > weightOf(a) ? b : a));
}

/** How well one candidate answers the query, in [0, 1]; see the constants for the weights. */
export function scoreCandidate(c: Candidate, q: EngineQuery, concepts: Concept[], rrfShare: number, slip = false, phrase: PhraseContext | null = null): number {
  if (q.exactName && c.name === q.exactName) return 1;
  const tokens = c.tokens.split(" ").filter(Boolean);
  const tokenSet = new Set(tokens);
  const used = new Set<string>();
  let covered = 0;
  let total = 0;
  let anyMatch = false;
  const main = q.exactName || slip || q.words.length < 2 ? null : mainConcept(concepts);
  let mainHeld = false;
  let partial = false;
  for (const concept of concepts) {
    const importance = weightOf(concept);
    total += importance;
    let best = 0;
    let bestTerm: string | null = null;
    for (const [term, weight] of concept.terms) {
      if (tokenSet.has(term) && weight > best) [best, bestTerm] = [weight, term];
    }
    if (best === 0 && concept.word.length >= 3) {
      const prefixed = tokens.find((t) => t.startsWith(concept.word) && (concept.prefixOf?.(t) ?? true));
      if (prefixed) [best, bestTerm] = [0.75, prefixed];
    }
    if (bestTerm) used.add(bestTerm);
    if (best > 0) anyMatch = true;
    const own = best >= KEY_TERM && bestTerm !== null && !concept.semantic.has(bestTerm);
    if (concept === main && own) mainHeld = true;
    else if (!own && isCore(concept)) partial = true;
    covered += best * importance;
  }
  const coverage = total > 0 ? covered / total : 0;
  const words = anyMatch ? MATCH_BASE + (1 - MATCH_BASE) * coverage : 0;
  let fillers = 0;
  for (const filler of q.fillers ?? []) {
    if (!tokenSet.has(filler)) continue;
    used.add(filler);
    fillers++;
  }
  const extra = anyMatch ? tokens.filter((t) => !used.has(t)).length : 0;
  const sim = Number(c.sim);
  const typed = typedLabel(q);
  const labelEq = labelIsTyped(c, typed);
  const oneEdit = slip && !labelEq && typed.length >= TYPO_MIN_LENGTH && editDistance(c.label.replace(/-/g, ""), typed, 1) <= 1;
  const closeness = phraseCloseness(phrase, c.label);
  let score = Math.max(
    labelEq ? 0.95 : oneEdit ? ONE_EDIT_SCORE : 0,
    0.85 * words + 0.1 * sim - EXTRA_WORD_PENALTY * Math.min(extra, 4),
    0.85 * sim,
    PHRASE_SCORE * closeness,
  );
  score += PHRASE_BONUS * closeness;
  if (mainHeld && partial) score += KEY_BONUS;
  // A typed TLD is what the buyer wants: other TLDs fall behind every relevant name in it.
  if (anyMatch) score += FILLER_BONUS * Math.min(fillers, 2);
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
  // The subject as a whole phrase against every name: not for a full name typed (exact or with a TLD), whose
  // search then reads no phrase mirror. A possible slip keeps it: a misspelt intent ("vegeterian resturant") is
  // corrected to its subject first, and a slip's own one-edit label (0.92) stays above any name found by meaning
  // alone (0.8). Development sets: misspelt-intent nDCG@5 0.769 -> 0.823, the corpus strata unchanged (typo
  // 0.908 -> 0.907, run-together 0.982 -> 0.981).
  const phraseOn = legs.includes("phrase") && !q.exactName && !q.tld;
  const [mirror, phrases] = await Promise.all([getVocabulary(db, embedder), phraseOn ? getPhrases(db, embedder) : null]);
  const meaning = legs.includes("meaning") || phraseOn;
  const inInventory = (word: string) => mirror.words.has(word);
  const phraseWanted = phrases !== null && phrases.size > 0;
  const concepts = await analyzeWords(mirror, q.words, meaning ? embedder : noMeaning, {
    relatives: meaning,
    subject: phraseWanted,
    pieceSlips: !q.tld && !q.exactName && q.words.length >= 2,
    beforeObject: q.beforeObject,
  });
  const context: LegContext = {
    inInventory,
    explained: concepts.every((c) => inInventory(c.word) || c.corrected !== null || isKnownWord(c.word)),
    maybeSlip: maybeSlip(q, inInventory),
    near: [],
  };
  // The other legs' statements go out first (a drizzle query runs when awaited); the phrase leg's scan runs meanwhile.
  const pending = legs
    .filter((leg) => leg !== "phrase")
    .map((leg) => legSql(leg, q, concepts, params.environment, context))
    .filter((s): s is SQL => s !== null)
    .map((s) => db.execute<Candidate>(s).then((rows) => [...rows]));
  // Handled now (Promise.all below reports a failure): a leg failing while the encoder runs is no unhandled rejection.
  for (const p of pending) p.catch(() => undefined);
  const subjectText = phraseWanted ? subjectPhrase(concepts) : null;
  const subjectVector = subjectText ? await embedInContext(subjectText, embedder) : null;
  let phrase: PhraseContext | null = null;
  if (phrases && subjectVector) {
    context.near = nearestLabels(phrases, subjectVector, PHRASE_LABELS);
    const stats = similarityStats(phrases, subjectVector);
    if (stats) phrase = { ...stats, similarity: (label) => labelSimilarity(phrases, label, subjectVector) };
    const statement = phraseLeg(params.environment, q.compact, context.near);
    if (statement) pending.push(db.execute<Candidate>(statement).then((rows) => [...rows]));
  }
  const results = await Promise.all(pending);
  const fused = fuse(results);
  const maxRrf = Math.max(0, ...[...fused.values()].map((f) => f.rrf));
  // A name or label listed exactly as typed means the query holds no slip: its one-edit neighbours get no lift
  // (on the development set exact nDCG@5 fell 0.987 -> 0.983 and TLD 0.969 -> 0.962 with the lift everywhere).
  const typed = typedLabel(q);
  // A full name of two or more words typed but not listed ("austin-lao.com") is as likely a slip as a short query.
  const slip = (context.maybeSlip || (q.exactName !== null && q.words.length >= 2)) && ![...fused.values()].some(({ candidate: c }) => c.name === q.exactName || labelIsTyped(c, typed));
  const ranked = [...fused.values()]
    .map(({ candidate, rrf }) => ({ ...candidate, score: scoreCandidate(candidate, q, concepts, maxRrf ? rrf / maxRrf : 0, slip, phrase) }))
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
