import type { Db } from "@/db/client";
import { getEmbedder } from "./embedder";
import { runSearch } from "./engine";
import { getPhrases } from "./phrases";
import { getVocabulary } from "./vocabulary";

// The search index a web process loads once it listens (scripts/serve.ts): the
// vocabulary and phrase mirrors, the encoder, and what the first search builds on
// the mirrors (the vocabulary's matrix and sketches, its inflections), which a
// first search would otherwise load while its buyer waits (bench/search/warm-start.ts
// at 100k names, load 9-11: a cold first search 70 s; 0.56 s after a 40 s load). The mirrors are process-wide (mirror.ts), so the route bundles
// read what this loaded; a search arriving meanwhile waits for the same load, not a
// second. The word list, WordNet and the query caches are process-wide too (text.ts,
// wordnet.ts, analyze.ts), so what this load reads serves every route bundle.
//
// Readiness (server/observability/readiness.ts) waits for it, up to
// READY_WAIT_MS: an instance that joins a balanced pool with its index loaded
// serves its first searches as fast as the instances already there, while a
// load that hangs or is slower than that (a database far larger than measured)
// must not keep the instance out of service for ever: past the wait it is ready,
// and a search waits for the rest of the load. A load that fails is logged and
// counts as done; searches then load the mirrors themselves, as before.

/** How long readiness waits for the load: half again 100k names' load on the loaded two-core machine (40 s). */
export const READY_WAIT_MS = 60_000;

export interface SearchWarmth {
  startedAt: number;
  /** Done or failed. */
  settled: boolean;
  ms: number | null;
  words: number;
  phrases: number;
  error: string | null;
}

// On globalThis: scripts/serve.ts starts it, the readiness route (another bundle) reads it.
const holder = globalThis as unknown as { __pdmSearchWarmth?: { state: SearchWarmth; done: Promise<SearchWarmth> } };

/** Starts loading the search index in the background, once per process; resolves (never rejects) when it settles. */
export function startSearchWarmUp(db: Db, now: () => number = Date.now): Promise<SearchWarmth> {
  if (holder.__pdmSearchWarmth) return holder.__pdmSearchWarmth.done;
  const state: SearchWarmth = { startedAt: now(), settled: false, ms: null, words: 0, phrases: 0, error: null };
  const embedder = getEmbedder();
  const done = Promise.all([getVocabulary(db, embedder), getPhrases(db, embedder)]).then(
    // A search's first pass builds the rest: the encoder, the vocabulary's matrix, its inflections.
    async ([vocabulary, phrases]) => {
      await runSearch(db, { words: ["fresh", "flowers"], compact: "freshflowers", tld: null, exactName: null }, { environment: "sandbox", limit: 1 });
      return Object.assign(state, { words: vocabulary.words.size, phrases: phrases.size });
    },
    (error: unknown) => Object.assign(state, { error: error instanceof Error ? error.message : String(error) }),
  ).then(() => Object.assign(state, { settled: true, ms: now() - state.startedAt }));
  holder.__pdmSearchWarmth = { state, done };
  return done;
}

/** The load's state in this process, or null where none was started (workers, CLI, tests). */
export function searchWarmth(): SearchWarmth | null {
  return holder.__pdmSearchWarmth?.state ?? null;
}

/** Why readiness waits for search, or null when it need not (no load, settled, or waited READY_WAIT_MS). */
export function searchLoadingReason(now = Date.now()): string | null {
  const state = searchWarmth();
  if (!state || state.settled || now - state.startedAt >= READY_WAIT_MS) return null;
  return `the search index is still loading (${Math.round((now - state.startedAt) / 1000)} s so far)`;
}

/** Forgets the load, so a test can start another. */
export function resetSearchWarmthForTests(): void {
  delete holder.__pdmSearchWarmth;
}
