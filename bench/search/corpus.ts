import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import type { Database } from "@/db/client";
import { domains } from "@/db/schema";
import { generateDomains, type GeneratedDomain } from "@/db/seed-data";
import { newId } from "@/server/ids";
import { tokenizeLabel } from "@/server/services/inventory";
import { registerInventoryVocabulary } from "@/server/search/vocabulary";

// The benchmark corpus: the demo generator at scale (vertical words + prefixes,
// places and suffixes, hyphens, 13 TLDs, lognormal prices). The generator's
// words are the ground truth; the database gets tokens computed by the ingest
// segmentation from the label alone, as a real listing would.

export const CORPUS_SEED = 424242;

export function generateCorpus(size: number): GeneratedDomain[] {
  return generateDomains(CORPUS_SEED, size);
}

export interface BuildStats {
  loadMs: number;
  vocabularyMs: number;
  vocabularyWords: number;
  analyzeMs: number;
  tableBytes: number;
  indexBytes: number;
  postingsBytes: number;
  vocabularyBytes: number;
}

/** Loads the corpus into an empty `domains` (sandbox), registers the vocabulary, analyzes. */
export async function loadCorpus(db: Database, corpus: GeneratedDomain[]): Promise<BuildStats> {
  const t0 = performance.now();
  const now = new Date();
  for (let i = 0; i < corpus.length; i += 2000) {
    await db.insert(domains).values(
      corpus.slice(i, i + 2000).map((d) => ({
        id: newId("domain", now.getTime()),
        environment: "sandbox" as const,
        name: d.name,
        label: d.label,
        tld: d.tld,
        priceCents: d.priceCents,
        floorPriceCents: d.floorPriceCents,
        vertical: d.vertical,
        tokens: tokenizeLabel(d.label),
        createdAt: now,
        updatedAt: now,
      })),
    );
  }
  const t1 = performance.now();
  const vocabularyWords = await registerInventoryVocabulary(db);
  const t2 = performance.now();
  await db.execute(sql`vacuum analyze domains`);
  await db.execute(sql`analyze search_vocabulary`);
  await db.execute(sql`vacuum analyze domain_terms`);
  const t3 = performance.now();
  return { loadMs: t1 - t0, vocabularyMs: t2 - t1, vocabularyWords, analyzeMs: t3 - t2, ...(await sizes(db)) };
}

async function sizes(db: Database) {
  const [row] = await db.execute<{ t: string; i: string; p: string; v: string }>(
    sql`select pg_table_size('domains') as t, pg_indexes_size('domains') as i,
      pg_total_relation_size('domain_terms') as p, pg_total_relation_size('search_vocabulary') as v`,
  );
  return { tableBytes: Number(row?.t), indexBytes: Number(row?.i), postingsBytes: Number(row?.p), vocabularyBytes: Number(row?.v) };
}

/** A kept database measured again (BENCH_REUSE): words new to this model embedded, nothing reloaded. */
export async function describeCorpus(db: Database): Promise<BuildStats> {
  const t0 = performance.now();
  const vocabularyWords = await registerInventoryVocabulary(db);
  await db.execute(sql`vacuum analyze domain_terms`);
  return { loadMs: 0, vocabularyMs: performance.now() - t0, vocabularyWords, analyzeMs: 0, ...(await sizes(db)) };
}
