import { sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { registerPhrases } from "./phrases";
import { SEGMENTER_VERSION, storedTokens } from "./text";
import { registerVocabulary } from "./vocabulary";

// Listings cut by an older segmenter, cut again: a label's search tokens are
// stored when it is listed (inventory.ts tokenizeLabel), so a segmenter that cuts
// labels better ("anapestdecency" -> anapest decency, not ana pest decency) only
// reaches the names listed after it, until this pass. It rewrites the tokens of
// every listing whose tokens are the older segmenter's cut of its label (tokens a
// seed or an import gave are left alone), in pages by id: a page's new words are
// embedded and its labels' phrases embedded again first, then its tokens are
// rewritten (the domain_terms trigger follows each update). An encoder that fails
// stops the pass before the page's tokens change, so a retry finds them as they
// were and nothing is left half done. Safe to run twice and beside live traffic
// (a row changed meanwhile keeps its change). The worker runs it once per
// SEGMENTER_VERSION (chores.ts "search tokens"); the operations CLI on demand.

export interface RetokenizeReport {
  segmenter: number;
  scanned: number;
  changed: number;
  words: number;
  phrases: number;
}

const PAGE = 2_000;

/** The cut of a label this pass replaces: the older segmenter's (version 1: WordNet's words not kept whole). */
const olderCut = (label: string) => storedTokens(label, { lemmas: false });

export async function retokenizeInventory(db: Db, { pageSize = PAGE }: { pageSize?: number } = {}): Promise<RetokenizeReport> {
  const report: RetokenizeReport = { segmenter: SEGMENTER_VERSION, scanned: 0, changed: 0, words: 0, phrases: 0 };
  let after = "";
  for (;;) {
    const rows = await db.execute<{ id: string; label: string; tokens: string }>(
      sql`select id, label, tokens from domains where id > ${after} order by id limit ${pageSize}`,
    );
    if (rows.length === 0) break;
    after = (rows[rows.length - 1] as { id: string }).id;
    report.scanned += rows.length;
    const changes: { id: string; old: string; tokens: string; label: string }[] = [];
    for (const row of rows) {
      const tokens = storedTokens(row.label);
      if (tokens !== row.tokens && olderCut(row.label) === row.tokens) changes.push({ id: row.id, old: row.tokens, tokens, label: row.label });
    }
    if (changes.length > 0) {
      // A label's phrase is embedded from its cut by the current segmenter (phrases.ts phraseOf), whatever its row holds.
      report.words += await registerVocabulary(db, changes.flatMap((c) => c.tokens.split(" ")));
      report.phrases += await registerPhrases(db, changes.map((c) => c.label), undefined, { again: true });
      const values = sql.join(
        changes.map((c) => sql`(${c.id}, ${c.old}, ${c.tokens})`),
        sql`, `,
      );
      const updated = await db.execute(sql`
        update domains d set tokens = v.tokens
        from (values ${values}) as v(id, old, tokens)
        where d.id = v.id and d.tokens = v.old
        returning d.id`);
      report.changed += updated.length;
    }
    if (rows.length < pageSize) break;
  }
  return report;
}
