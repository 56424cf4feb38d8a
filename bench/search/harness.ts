// The benchmark's shared setup (run.ts, pool.ts): the scratch database with the
// corpus loaded, the methods under test, and the truth index that grades answers.
//
// Env: BENCH_SIZE (100000), BENCH_PG_URL (postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_VOCAB (wordnet | scowl: corpus.ts; scowl databases are search_bench_scowl_<size>),
// BENCH_KEEP=1 keeps search_bench_<size> at the end, BENCH_REUSE=1 measures a kept
// database again without reloading; BENCH_DB names the scratch database instead (two engines
// side by side, each on its own copy of one loaded database); BENCH_METHODS=hybrid,meaning runs only those methods.
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { createPool } from "@/db/client";
import { migrateDatabase } from "@/db/migrate";
import type { GeneratedDomain } from "@/db/seed-data";
import type { Leg } from "@/server/search/engine";
import { parseSearchQuery, runQuery, searchDomains } from "@/server/services/discovery";
import { corpusVocabulary, describeCorpus, generateCorpus, loadCorpus, type BuildStats, type CorpusVocabulary } from "./corpus";
import { grade, idealGrades, type Doc, type EvalQuery, type Judgements } from "./eval";

export type Method = (q: string) => Promise<string[]>;

export interface Bench {
  size: number;
  vocabulary: CorpusVocabulary;
  dbName: string;
  reuse: boolean;
  corpus: GeneratedDomain[];
  genMs: number;
  build: BuildStats;
  methods: Record<string, Method>;
  close(): Promise<void>;
}

const env = "sandbox" as const;

export async function openBench(): Promise<Bench> {
  const size = Number(process.env.BENCH_SIZE ?? 100_000);
  const adminUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
  const vocabulary = corpusVocabulary();
  const dbName = process.env.BENCH_DB ?? `search_bench_${vocabulary === "wordnet" ? "" : `${vocabulary}_`}${size}`;
  const dbUrl = adminUrl.replace(/\/[^/]*$/, `/${dbName}`);
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const reuse = process.env.BENCH_REUSE === "1" && (await admin`select 1 from pg_database where datname = ${dbName}`).length > 0;
  if (!reuse) {
    await admin.unsafe(`drop database if exists ${dbName}`);
    await admin.unsafe(`create database ${dbName}`);
  }
  await migrateDatabase(dbUrl);
  const { db, sql: client } = createPool(dbUrl, 5);
  // The baselines as they come out of the box: pg_trgm's default similarity threshold (connections carry no setting).
  const { db: plain, sql: plainClient } = createPool(dbUrl, 1);

  const tGen = performance.now();
  const corpus = generateCorpus(size, undefined, vocabulary);
  const genMs = performance.now() - tGen;
  const build = reuse ? await describeCorpus(db) : await loadCorpus(db, corpus);

  const leg = (legs: Leg[]): Method => async (q) => (await runQuery(db, q, { environment: env, limit: 5, legs })).hits.map((h) => h.name);
  const methods: Record<string, Method> = {
    hybrid: async (q) => (await searchDomains(db, { environment: env, partnerId: "ptn_bench", q, limit: 5 })).hits.map((h) => h.name),
    keyword: leg(["keyword"]),
    label: leg(["label"]),
    typo: leg(["typo"]),
    meaning: leg(["meaning"]),
    phrase: leg(["phrase"]),
    "trigram-only": async (q) => {
      const { compact } = parseSearchQuery(q);
      if (!compact) return [];
      const rows = await plain.execute<{ name: string }>(sql`select name from domains
        where environment = ${env} and status = 'listed' and label % ${compact}::text
        order by similarity(label, ${compact}::text) desc, name limit 5`);
      return rows.map((r) => r.name);
    },
    "fts-only": async (q) => {
      const { words } = parseSearchQuery(q);
      if (words.length === 0) return [];
      const tsq = words.join(" | ");
      const rows = await plain.execute<{ name: string }>(sql`select name from domains
        where environment = ${env} and status = 'listed' and to_tsvector('simple', tokens) @@ to_tsquery('simple', ${tsq}::text)
        order by ts_rank(to_tsvector('simple', tokens), to_tsquery('simple', ${tsq}::text)) desc, length(label), name limit 5`);
      return rows.map((r) => r.name);
    },
  };

  // BENCH_METHODS=hybrid,phrase: only these (development runs); hybrid is always kept (latency is measured on it).
  const only = process.env.BENCH_METHODS?.split(",");
  if (only) for (const name of Object.keys(methods)) if (name !== "hybrid" && !only.includes(name)) delete methods[name];
  return {
    size, vocabulary, dbName, reuse, corpus, genMs, build, methods,
    async close() {
      await client.end();
      await plainClient.end();
      if (!process.env.BENCH_KEEP && !reuse) await admin.unsafe(`drop database ${dbName}`);
      await admin.end();
    },
  };
}

/** Truth words of every name, and which names hold each word: grading without a scan of the corpus per query. */
export class Truth {
  readonly docs = new Map<string, Doc>();
  private readonly byWord = new Map<string, Doc[]>();

  constructor(corpus: readonly GeneratedDomain[]) {
    for (const d of corpus) {
      const doc: Doc = { name: d.name, tld: d.tld, words: d.tokens.split(" ") };
      this.docs.set(d.name, doc);
      for (const w of new Set(doc.words)) {
        const list = this.byWord.get(w);
        if (list) list.push(doc);
        else this.byWord.set(w, [doc]);
      }
    }
  }

  /** Names that can grade above 0: those holding a set word (or its s/es form), the named name, the judged ones. */
  private candidates(q: EvalQuery, judgements: Judgements): Set<Doc> {
    const out = new Set<Doc>();
    for (const set of q.sets) {
      for (const raw of set) {
        const w = raw.toLowerCase();
        const forms = [w, `${w}s`, `${w}es`, ...(w.endsWith("s") ? [w.slice(0, -1)] : []), ...(w.endsWith("es") ? [w.slice(0, -2)] : []),
          ...(/[^aeiou]y$/.test(w) ? [`${w.slice(0, -1)}ies`] : []), ...(w.endsWith("ies") ? [`${w.slice(0, -3)}y`] : [])];
        for (const f of forms) for (const d of this.byWord.get(f) ?? []) out.add(d);
      }
    }
    for (const name of [q.name, ...Object.keys(judgements[q.id] ?? {})]) {
      const d = name ? this.docs.get(name) : undefined;
      if (d) out.add(d);
    }
    return out;
  }

  /** Grades of a ranked answer (a name not in the corpus grades 0). */
  grades(q: EvalQuery, names: readonly string[], judgements: Judgements): number[] {
    return names.map((n) => {
      const d = this.docs.get(n);
      return d ? grade(d, q, judgements) : 0;
    });
  }

  /** The best five grades the corpus holds for the query. */
  ideal(q: EvalQuery, judgements: Judgements): number[] {
    const counts = [0, 0, 0, 0];
    for (const d of this.candidates(q, judgements)) counts[grade(d, q, judgements)]!++;
    return idealGrades(counts);
  }
}
