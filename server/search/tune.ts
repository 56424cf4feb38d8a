/** A constant a development run may override with TUNE_<name> (bench/search/dev.ts); the engine's read the same way. */
export const tune = (name: string, fallback: number) => Number(process.env[`TUNE_${name}`] ?? fallback);
