import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

// Building and running Next for `npm start`. A build is reused until a source or
// config file is newer than it, so a second start skips the minute-long build.

export const NEXT_BIN = path.join("node_modules", "next", "dist", "bin", "next");
const SOURCE_DIRS = ["app", "server", "db", "components", "lib"];
const CONFIG_FILES = ["next.config.mjs", "next.config.ts", "postcss.config.mjs", "tsconfig.json", "package.json", "package-lock.json"];

function newestUnder(dir: string): { file: string; mtimeMs: number } | undefined {
  let newest: { file: string; mtimeMs: number } | undefined;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    const candidate = entry.isDirectory() ? newestUnder(full) : entry.isFile() ? { file: full, mtimeMs: statSync(full).mtimeMs } : undefined;
    if (candidate && (!newest || candidate.mtimeMs > newest.mtimeMs)) newest = candidate;
  }
  return newest;
}

/** Why the build must be redone, or undefined when `.next` is current. */
export function staleBuildReason(root = process.cwd()): string | undefined {
  const buildId = path.join(root, ".next", "BUILD_ID");
  if (!existsSync(buildId)) return "no production build yet";
  const builtAt = statSync(buildId).mtimeMs;
  for (const dir of SOURCE_DIRS) {
    const full = path.join(root, dir);
    const newest = existsSync(full) ? newestUnder(full) : undefined;
    if (newest && newest.mtimeMs > builtAt) return `${path.relative(root, newest.file)} changed since the last build`;
  }
  for (const file of CONFIG_FILES) {
    const full = path.join(root, file);
    if (existsSync(full) && statSync(full).mtimeMs > builtAt) return `${file} changed since the last build`;
  }
  return undefined;
}

export function spawnNext(args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, [NEXT_BIN, ...args], { stdio: "inherit", env });
}

/** `next start`/`next dev` through scripts/serve.ts, which decides the client address. */
export function spawnWebServer(mode: "start" | "dev", port: number, env: NodeJS.ProcessEnv): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", path.join("scripts", "serve.ts"), mode, "-p", String(port)], { stdio: "inherit", env });
}

export function waitForExit(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", () => resolve(1));
  });
}

/** Polls GET /api/health until it answers 200; rejects if `child` exits first or time runs out. */
export async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  child.once("exit", () => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error("the web server exited before it became healthy");
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s`);
}
