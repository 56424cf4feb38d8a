// npm test: audit + lint + typecheck + unit + integration + e2e + deploy, in that order,
// against a real PostgreSQL (DATABASE_URL when set, else the embedded one). deploy
// runs the standalone output of the build e2e served (tests/deploy: two web instances
// and a worker from .next/standalone), so it comes after e2e. A whole run overlaps
// work that leaves a core idle: audit (network), lint and typecheck (one thread
// each) side by side; integration files side by side, each on a database of its own,
// after the few that count on time ran alone; the production build beside those
// later integration files (never beside the time-counting ones: a build beside a
// rate-limit test once let a refill through); e2e spec files two at a time. Each
// stage still reports on its own, in order, with when it ended.
//   npm test                  every stage
//   npm test -- unit          one stage (audit | lint | typecheck | unit | integration | e2e | deploy)
//   npm test -- integration,e2e,deploy   some stages, in that order (the build beside integration)
//   npm test -- integration tests/integration/auth.test.ts   some files of one stage
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { NEXT_BIN, staleBuildReason } from "@/server/cli/next-build";
import { MONTH_CLOSE } from "../e2e/projects";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const stages = ["audit", "lint", "typecheck", "unit", "integration", "e2e", "deploy"] as const;
type Stage = (typeof stages)[number];

const [requested, ...files] = process.argv.slice(2);
// Several stages: comma-separated, run in the usual order ("integration,e2e,deploy").
const selected: Stage[] = requested ? stages.filter((stage) => requested.split(",").includes(stage)) : [...stages];
const unknown = requested?.split(",").filter((name) => !stages.includes(name as Stage)) ?? [];
if (unknown.length || (requested && files.length && selected.length > 1)) {
  console.error(`unknown stage "${unknown.join(",")}"; one of: ${stages.join(", ")} (files only with one stage)`);
  process.exit(2);
}

function findTests(dir: string): string[] {
  let out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out = out.concat(findTests(full));
    else if (entry.endsWith(".test.ts")) out.push(full);
  }
  return out.sort();
}

interface Result {
  code: number;
  passed: number;
  failed: number;
  skipped: number;
  /** What a "held" run printed, for its stage to show. */
  output?: string;
}

/**
 * Runs a command; its output goes to the console as it comes, or, when `buffered`, all at
 * once at the end, or, when "held", into the result for its stage to print when it reports.
 */
function run(
  command: string,
  args: string[],
  parse?: (output: string) => Omit<Result, "code">,
  buffered: boolean | "held" = false,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", buffered ? "pipe" : "inherit"], env });
    let output = "";
    const collect = (chunk: Buffer) => {
      if (!buffered) process.stdout.write(chunk);
      output += chunk.toString();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.on("exit", (code) => {
      if (buffered === true) process.stdout.write(output);
      const counts = parse?.(output) ?? { passed: 0, failed: 0, skipped: 0 };
      resolve({ code: code ?? 1, ...counts, ...(buffered === "held" ? { output } : {}) });
    });
  });
}

const count = (output: string, pattern: RegExp) => {
  const match = pattern.exec(output);
  return match ? Number(match[1]) : 0;
};
const nodeCounts = (output: string) => ({
  passed: count(output, /^ℹ pass (\d+)/m),
  failed: count(output, /^ℹ fail (\d+)/m),
  skipped: count(output, /^ℹ skipped (\d+)/m) + count(output, /^ℹ todo (\d+)/m),
});
const playwrightCounts = (output: string) => ({
  passed: count(output, /^\s*(\d+) passed/m),
  failed: count(output, /^\s*(\d+) failed/m),
  skipped: count(output, /^\s*(\d+) skipped/m),
});

async function prepareDatabase() {
  const { ensureTestDatabase } = await import("@/db/embedded");
  const { migrateDatabase } = await import("@/db/migrate");
  const url = await ensureTestDatabase();
  await migrateDatabase(url);
  process.env.DATABASE_URL = url; // children share the one server
}

const integrationFile = (name: string) => path.join("tests", "integration", `${name}.test.ts`);
/**
 * Integration files that count on wall-clock time (a burst must beat a GCRA refill,
 * a change must reach another process within a second, kills on an 800 ms cycle): they run last, one at a
 * time, with nothing else of the run beside them (the build done), as the whole stage once ran.
 */
const ALONE = new Set(
  ["abuse-limits", "reliability-limits", "partner-route", "credential-cache", "reliability-scale-out", "reliability-crash"].map(integrationFile),
);
/** The longest files (measured), started first so that none is left running alone at the end. */
const LONGEST = ["admin-inventory", "cli", "admin-users", "seed", "reliability-fuzz", "discovery", "admin-console", "admin-oauth", "team"].map(
  integrationFile,
);

/**
 * The integration stage: each file in a process of its own on a database of its
 * own (the stage's database copied as a template once migrated, dropped after the
 * file), so files cannot see each other's rows and run side by side. The files in
 * ALONE run last, one at a time, once `quiet` (the build) has finished; the rest
 * before them INTEGRATION_CONCURRENCY (default 3) at a time, the LONGEST first. Each
 * file's output is printed whole when it ends, then the slowest files.
 */
async function runIntegration(list: string[], quiet?: Promise<unknown>): Promise<Result> {
  const postgres = (await import("postgres")).default;
  const base = new URL(process.env.DATABASE_URL!);
  // On the server's own maintenance database: a template may have no session open.
  const admin = postgres(Object.assign(new URL(base.href), { pathname: "/postgres" }).href, { max: 1, onnotice: () => {} });
  const concurrency = Math.max(1, Number(process.env.INTEGRATION_CONCURRENCY ?? 3) || 1);
  const total: Result = { code: 0, passed: 0, failed: 0, skipped: 0 };
  const times: Record<string, number> = {};
  let next = 0;

  async function runFile(file: string): Promise<void> {
    const name = `${base.pathname.slice(1)}_f${next++}`;
    const url = Object.assign(new URL(base.href), { pathname: `/${name}` }).href;
    const t0 = performance.now();
    await admin.unsafe(`create database ${name} template ${base.pathname.slice(1)}`);
    const child = await run(node, ["--import", "tsx", "--test", "--test-reporter=spec", file], nodeCounts, "held", { ...process.env, DATABASE_URL: url });
    await admin.unsafe(`drop database if exists ${name} with (force)`).catch(() => {});
    const seconds = (performance.now() - t0) / 1000;
    times[file] = seconds;
    const counts = child.code !== 0 && child.failed === 0 ? { ...child, failed: 1 } : child;
    process.stdout.write(`\n--- ${file} (${seconds.toFixed(1)} s)${counts.code === 0 ? "" : " FAILED"}\n${child.output ?? ""}`);
    total.passed += counts.passed;
    total.failed += counts.failed;
    total.skipped += counts.skipped;
    if (counts.code !== 0) total.code = 1;
  }

  try {
    const rank = (file: string) => {
      const at = LONGEST.indexOf(path.normalize(file));
      return at < 0 ? LONGEST.length : at;
    };
    const queue = list.filter((f) => !ALONE.has(path.normalize(f))).sort((a, b) => rank(a) - rank(b));
    await Promise.all(
      Array.from({ length: Math.min(concurrency, queue.length) }, async () => {
        for (let file = queue.shift(); file; file = queue.shift()) await runFile(file);
      }),
    );
    const alone = list.filter((f) => ALONE.has(path.normalize(f)));
    if (alone.length && quiet) {
      console.log(`\n(waiting for the build to finish before ${alone.length} file(s) that count on time)`);
      await quiet;
    }
    for (const file of alone) await runFile(file);
  } finally {
    await admin.end();
  }
  const slowest = Object.entries(times).sort((a, b) => b[1] - a[1]);
  console.log(`\nintegration: ${list.length} files, ${concurrency} at a time; slowest: ${slowest.slice(0, 8).map(([f, s]) => `${path.basename(f, ".test.ts")} ${s.toFixed(0)} s`).join(", ")}`);
  return total;
}

const node = process.execPath;
const bin = (name: string) => path.join("node_modules", ".bin", name);
const totals = { passed: 0, failed: 0, skipped: 0 };
let failedStages: string[] = [];

const startedAt = performance.now();
// Started early, finished (or failed) before their stage reports.
const early = new Map<Stage, Promise<Result>>();
const whole = !requested;
/** The SDK package (sdk/) built by its own tsconfig: typecheck and a unit test read its built output. */
const buildSdk = (buffered = false) => run(bin("tsc"), ["-p", "sdk/tsconfig.json"], undefined, buffered);

function start(stage: "audit" | "lint" | "typecheck", buffered = false): Promise<Result> {
  if (stage === "audit") return run(node, ["--import", "tsx", "scripts/audit.ts"], undefined, buffered);
  if (stage === "lint") return run(bin("eslint"), ["--max-warnings=0", "."], undefined, buffered);
  return buildSdk(buffered).then((sdk) => (sdk.code !== 0 ? sdk : run(bin("tsc"), ["--noEmit", "-p", "."], undefined, buffered)));
}
if (whole) for (const stage of ["audit", "lint", "typecheck"] as const) early.set(stage, start(stage, true));
/**
 * The production build the e2e stage's server would otherwise make first, started at
 * once when the run goes on to e2e: beside lint, typecheck, unit and the integration
 * files that do not mind a busy machine (the time-counting ones wait for it to end: a
 * build beside a rate-limit test once let a refill through).
 */
let build: Promise<Result> | undefined;
const buildReason = selected.includes("e2e") && selected.length > 1 && !files.length ? staleBuildReason() : undefined;
if (buildReason) {
  console.log(`(building the web app for the e2e stage meanwhile: ${buildReason})`);
  // With no SECRET_KEY, as the README promises a bare `npm run build` works: a page that read
  // settings while prerendering would fail the run here.
  const { SECRET_KEY: _secret, ...buildEnv } = process.env;
  build = run(node, [NEXT_BIN, "build"], undefined, "held", { ...buildEnv, NODE_ENV: "production" });
}

for (const stage of selected) {
  console.log(`\n=== ${stage} ===`);
  let result: Result;
  switch (stage) {
    case "audit":
    case "lint":
    case "typecheck":
      result = await (early.get(stage) ?? start(stage));
      break;
    case "unit":
    case "integration":
    case "deploy": {
      if (stage !== "unit") await prepareDatabase();
      if (stage === "unit") {
        const sdk = await buildSdk();
        if (sdk.code !== 0) {
          result = { ...sdk, failed: 1 };
          break;
        }
      }
      const list = files.length ? files : findTests(path.join("tests", stage));
      Object.assign(process.env, { NODE_ENV: "test" });
      result =
        stage === "integration"
          ? await runIntegration(list, build)
          : await run(
              node,
              ["--import", "tsx", "--test", "--test-reporter=spec", `--test-concurrency=${stage === "unit" ? 2 : 1}`, ...list],
              nodeCounts,
            );
      break;
    }
    case "e2e":
      if (build) {
        const built = await build;
        console.log("(the production build, made during integration:)");
        process.stdout.write(built.output ?? "");
        if (built.code !== 0) {
          result = built;
          break;
        }
      }
      await prepareDatabase();
      // Named month-close specs run without the whole of the other project first (its
      // dependency), then one file at a time, as after it.
      if (files.some((file) => MONTH_CLOSE.some((spec) => path.normalize(file).endsWith(spec)))) {
        Object.assign(process.env, { E2E_WORKERS: "1" });
        files.unshift("--no-deps");
      }
      result = await run(bin("playwright"), ["test", ...files], playwrightCounts);
      break;
  }
  console.log(`=== ${stage}: ${result.code === 0 ? "passed" : "FAILED"} at ${Math.round((performance.now() - startedAt) / 1000)} s into the run`);
  totals.passed += result.passed;
  totals.failed += result.failed;
  totals.skipped += result.skipped;
  if (result.code !== 0) failedStages = [...failedStages, stage];
}

console.log(`\n${failedStages.length ? `failed stages: ${failedStages.join(", ")}` : "all stages green"}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStages.length ? 1 : 0);
