// npm test: lint + typecheck + unit + integration + e2e, in that order, against
// a real PostgreSQL (DATABASE_URL when set, else the embedded one).
//   npm test                  every stage
//   npm test -- unit          one stage (lint | typecheck | unit | integration | e2e)
//   npm test -- integration tests/integration/auth.test.ts   some files of one stage
import { spawn } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

process.env.NEXT_TELEMETRY_DISABLED = "1";
const stages = ["lint", "typecheck", "unit", "integration", "e2e"] as const;
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

function run(command: string, args: string[], parse?: (output: string) => Omit<Result, "code">): Promise<Result> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "inherit"], env: process.env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      process.stdout.write(chunk);
      output += chunk.toString();
    });
    child.on("exit", (code) => resolve({ code: code ?? 1, ...(parse?.(output) ?? { passed: 0, failed: 0, skipped: 0 }) }));
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

for (const stage of selected) {
  console.log(`\n=== ${stage} ===`);
  let result: Result;
  switch (stage) {
    case "lint":
      result = await run(bin("eslint"), ["--max-warnings=0", "."]);
      break;
    case "typecheck":
      result = await run(bin("tsc"), ["--noEmit", "-p", "."]);
      break;
    case "unit":
    case "integration": {
      if (stage === "integration") await prepareDatabase();
      // The SDK package (sdk/) is built by its own tsconfig; a unit test runs the built output.
      if (stage === "unit") {
        const build = await run(bin("tsc"), ["-p", "sdk/tsconfig.json"]);
        if (build.code !== 0) {
          result = { ...build, failed: 1 };
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
  totals.passed += result.passed;
  totals.failed += result.failed;
  totals.skipped += result.skipped;
  if (result.code !== 0) failedStages = [...failedStages, stage];
}

console.log(`\n${failedStages.length ? `failed stages: ${failedStages.join(", ")}` : "all stages green"}`);
console.log(`tests: ${totals.passed} passed, ${totals.failed} failed, ${totals.skipped} skipped`);
process.exit(failedStages.length ? 1 : 0);
