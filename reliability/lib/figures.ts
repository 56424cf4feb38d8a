// A harness's result: figures, each with the target it must meet. The CLI
// prints them as a table and exits non-zero when one misses; the reduced forms
// under tests/ assert that none does.

export interface Figure {
  name: string;
  value: number | string;
  target: string;
  ok: boolean;
}

export interface Report {
  harness: string;
  figures: Figure[];
  /** First few offending answers, for the reader of a failed run. */
  samples: string[];
}

export function figure(name: string, value: number | string, target: string, ok = true): Figure {
  return { name, value, target, ok };
}

/** A count that must be exactly `expected`. */
export function exactly(name: string, value: number, expected: number): Figure {
  return figure(name, value, `= ${expected}`, value === expected);
}

export function atMost(name: string, value: number, limit: number): Figure {
  return figure(name, value, `<= ${limit}`, value <= limit);
}

export function atLeast(name: string, value: number, floor: number): Figure {
  return figure(name, value, `>= ${floor}`, value >= floor);
}

export const missed = (report: Report) => report.figures.filter((f) => !f.ok);

export function formatReport(report: Report): string {
  const width = Math.max(...report.figures.map((f) => f.name.length), 6);
  const lines = [`${report.harness}`, `${"figure".padEnd(width)}  ${"value".padStart(12)}  target`];
  for (const f of report.figures) lines.push(`${f.name.padEnd(width)}  ${String(f.value).padStart(12)}  ${f.target}${f.ok ? "" : "   <-- MISSED"}`);
  if (report.samples.length) lines.push("samples:", ...report.samples.map((s) => `  ${s}`));
  return lines.join("\n");
}

/** Collects up to `max` sample lines. */
export function sampler(max = 5) {
  const samples: string[] = [];
  return { samples, add: (line: string) => void (samples.length < max && samples.push(line.slice(0, 300))) };
}

/** Runs `tasks` with at most `width` at once. */
export async function inBatches<T>(tasks: (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(width, tasks.length) }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

export const envNumber = (name: string, fallback: number) => {
  const value = process.env[name];
  return value === undefined || value === "" ? fallback : Number(value);
};
