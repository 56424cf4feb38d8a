// npm test: audit + lint + typecheck + unit + integration + e2e + deploy, in that order,
// against a real PostgreSQL (DATABASE_URL when set, else the embedded one). deploy
// runs the standalone output of the build e2e served (tests/deploy: two web instances
// and a worker from .next/standalone), so it comes after e2e. A whole run overlaps
// work that leaves a core idle: audit (network), lint and typecheck (one thread
// each) side by side; each still reports on its own, in order. (The production
// build is not overlapped with integration: the rate-limit tests there count on
// time, and a build beside them once let a refill through.)
//   npm test                  every stage
//   npm test -- unit          one stage (audit | lint | typecheck | unit | integration | e2e | deploy)
//   npm test -- integration tests/integration/auth.test.ts   some files of one stage
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const stages = ["audit", "lint", "typecheck", "unit", "integration", "e2e", "deploy"] as const;
type Stage = (typeof stages)[number];

const [requested, ...files] = process.argv.slice(2);
const selected: Stage[] = requested ? [requested as Stage] : [...stages];
if (requested && !stages.includes(requested as Stage)) {
  console.error(`unknown stage "${requested}"; one of: ${stages.join(", ")}`);
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
}

/** Runs a command; its output goes to the console as it comes, or, when `buffered`, all at once at the end. */
function run(
  command: string,
  args: string[],
  parse?: (output: string) => Omit<Result, "code">,
  buffered = false,
): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", buffered ? "pipe" : "inherit"], env: process.env });
    let output = "";
    const collect = (chunk: Buffer) => {
      if (!buffered) process.stdout.write(chunk);
      output += chunk.toString();
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.on("exit", (code) => {
      if (buffered) process.stdout.write(output);
      resolve({ code: code ?? 1, ...(parse?.(output) ?? { passed: 0, failed: 0, skipped: 0 }) });
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
      result = await run(
        node,
        ["--import", "tsx", "--test", "--test-reporter=spec", `--test-concurrency=${stage === "unit" ? 2 : 1}`, ...list],
        nodeCounts,
      );
      break;
    }
    case "e2e":
      await prepareDatabase();
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
