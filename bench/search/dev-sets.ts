// The six development sets (never the held-out bench/search/eval set), read and varied by the
// make-*-queries.ts scripts: each writes a set whose queries hold `clean`, the query as written,
// which dev.ts runs beside the varied one and prints the variation's cost as a ratio.
import { readFileSync, writeFileSync } from "node:fs";

export interface DevQuery {
  q: string;
  stratum?: string;
  sets: string[][];
}

const SETS = ["dev-queries.json", "dev-queries-2.json", "dev-queries-3.json", "dev-queries-4.json", "dev-queries-5.json", "dev-queries-6.json"];

/** Every query of the six development sets, set by set, in file order. */
export function devQueries(): DevQuery[] {
  return SETS.flatMap((file) => JSON.parse(readFileSync(new URL(`./${file}`, import.meta.url), "utf8")) as DevQuery[]);
}

/** Writes bench/search/<file>, one query per line. */
export function writeVariedSet(file: string, queries: (DevQuery & { clean: string })[]): void {
  writeFileSync(new URL(`./${file}`, import.meta.url), `[\n${queries.map((q) => `  ${JSON.stringify(q)}`).join(",\n")}\n]\n`);
}
