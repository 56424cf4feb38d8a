// The one clock of the service. Tests move it (quotes, codes, periods expiring)
// instead of sleeping; production code never calls Date.now() directly.

let offsetMs = 0;
let frozenAt: number | null = null;

export const clock = {
  nowMs(): number {
    return frozenAt ?? Date.now() + offsetMs;
  },
  now(): Date {
    return new Date(clock.nowMs());
  },
  /** Unix time in whole seconds. */
  nowSeconds(): number {
    return Math.floor(clock.nowMs() / 1000);
  },
  /** Test helper: shift time by `ms` (keeps running). */
  advance(ms: number): void {
    if (frozenAt !== null) frozenAt += ms;
    else offsetMs += ms;
  },
  /** Test helper: stop time at `at`. */
  freeze(at: Date | number = Date.now()): void {
    frozenAt = typeof at === "number" ? at : at.getTime();
  },
  reset(): void {
    offsetMs = 0;
    frozenAt = null;
  },
};
