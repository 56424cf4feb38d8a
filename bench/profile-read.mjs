// Reads a CPU profile of the web server (node --cpu-prof; bench/profile-load.ts has the steps):
//   node bench/profile-read.mjs FILE.cpuprofile [TOP=30] [CPU_US_PER_REQUEST]
// Prints self time by function and by module, inclusive time of our own modules and
// functions (names and lines through the build's source maps: the chunks are minified),
// the native entries (socket and file writes) by their first callers outside node's own
// modules, and, given the CPU time per request that profile-load.ts printed, the busy
// time in buckets as microseconds per request (the profile's clock is wall time: on a
// loaded machine only the proportions, not the durations, are the process's own).
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { TraceMap, originalPositionFor } = require("@jridgewell/trace-mapping");
const prof = JSON.parse(readFileSync(process.argv[2], "utf8"));
const N = Number(process.argv[3] ?? 30);
const maps = new Map();
function mapFor(url) {
  if (maps.has(url)) return maps.get(url);
  let m = null;
  try {
    const file = url.startsWith("file://") ? fileURLToPath(url) : url;
    // The standalone folder carries no source maps; the build folder it was copied from does.
    const built = file.replace(/\/\.next\/standalone\/\.next\//, "/.next/");
    for (const candidate of [file + ".map", built + ".map"]) {
      if (existsSync(candidate)) {
        m = new TraceMap(readFileSync(candidate, "utf8"));
        break;
      }
    }
  } catch {}
  maps.set(url, m);
  return m;
}
const byId = new Map(prof.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
function label(n) {
  const cf = n.callFrame;
  if (n._label) return n._label;
  let name = cf.functionName || "(anon)";
  let where = cf.url.replace(/^file:\/\//, "").replace(/.*\/node_modules\//, "nm:").replace(/.*\.next\/standalone\//, "");
  const m = cf.url && mapFor(cf.url);
  if (m && cf.lineNumber >= 0) {
    const p = originalPositionFor(m, { line: cf.lineNumber + 1, column: cf.columnNumber });
    if (p.source) {
      where = p.source.replace(/^(\.\.\/)+/, "").replace(/^.*?\[project\]\//, "").replace(/^turbopack:\/\/\//, "").replace(/.*\/node_modules\//, "nm:") + ":" + p.line;
      if (p.name && (name === "(anon)" || name.length <= 2)) name = p.name;
    }
  } else if (cf.lineNumber >= 0) where += ":" + (cf.lineNumber + 1);
  n._module = where.replace(/:\d+$/, "");
  n._label = `${name} ${where}`;
  return n._label;
}
// sample time per node
const dt = new Map();
const total = prof.timeDeltas.reduce((a, b) => a + b, 0);
prof.samples.forEach((id, i) => dt.set(id, (dt.get(id) ?? 0) + (prof.timeDeltas[i] ?? 0)));
const self = new Map(), mods = new Map(), incl = new Map();
for (const n of prof.nodes) {
  const t = dt.get(n.id) ?? 0;
  if (!t) continue;
  const l = label(n);
  self.set(l, (self.get(l) ?? 0) + t);
  mods.set(n._module, (mods.get(n._module) ?? 0) + t);
  // inclusive per our module (count each module once per stack)
  const seen = new Set();
  for (let cur = n.id; cur !== undefined; cur = parent.get(cur)) {
    const pn = byId.get(cur); label(pn);
    const mod = pn._module;
    if (/^(server|db|app|scripts)\//.test(mod) && !seen.has(mod)) { seen.add(mod); incl.set(mod, (incl.get(mod) ?? 0) + t); }
    const fl = pn._label;
    if (/ (server|db|app)\//.test(fl) && !seen.has(fl)) { seen.add(fl); incl.set(fl, (incl.get(fl) ?? 0) + t); }
  }
}
const pct = (t) => ((100 * t) / total).toFixed(1).padStart(5) + "%";
const show = (title, m, k = N) => { console.log(`\n## ${title}`); [...m].sort((a, b) => b[1] - a[1]).slice(0, k).forEach(([l, t]) => console.log(`${pct(t)}  ${l}`)); };
console.log(`total ${(total / 1e6).toFixed(1)} s sampled`);
show("self time by function", self);
show("self time by module", mods);
show("inclusive time, our modules and functions", incl, N * 2);
// Who calls the top native entries (self time with no source): the first caller with a source.
const callers = new Map();
for (const n of prof.nodes) {
  const t = dt.get(n.id) ?? 0;
  if (!t || n.callFrame.url || n.callFrame.functionName.startsWith("(")) continue;
  // The native entry's callers up to the first frame outside node's own modules.
  const chain = [];
  for (let cur = parent.get(n.id), k = 0; cur !== undefined && k < 25; cur = parent.get(cur), k++) {
    const l = label(byId.get(cur));
    if (!/ node:/.test(l)) {
      chain.push(l);
      if (chain.length >= 2) break;
    }
  }
  const key = `${n.callFrame.functionName} <- ${chain.join(" <- ")}`;
  callers.set(key, (callers.get(key) ?? 0) + t);
}
show("native entries by caller chain", callers, 15);

const cpuPerRequest = Number(process.argv[4] ?? 0);
if (cpuPerRequest > 0) {
  const buckets = new Map();
  let busy = 0;
  for (const n of prof.nodes) {
    const t = dt.get(n.id) ?? 0;
    const f = n.callFrame;
    if (!t || f.functionName === "(idle)") continue;
    busy += t;
    let bucket;
    if (f.functionName === "(garbage collector)") bucket = "garbage collector";
    else if (!f.url && /^write/.test(f.functionName)) {
      bucket = "writes: other";
      for (let cur = parent.get(n.id); cur !== undefined; cur = parent.get(cur)) {
        const url = byId.get(cur).callFrame.url;
        if (/postgres/.test(url)) bucket = "writes: database socket";
        else if (/web\.mjs/.test(url)) bucket = "writes: log lines (pino)";
        else if (/next/.test(url)) bucket = "writes: HTTP response";
        else continue;
        break;
      }
    } else if (/node_modules\/postgres/.test(f.url)) bucket = "postgres.js";
    else if (/node_modules\/(next|react)|\[turbopack\]/.test(f.url)) bucket = "Next.js";
    else if (/\.next\/server/.test(f.url)) bucket = "route bundles (our code, zod, drizzle)";
    else if (/web\.mjs/.test(f.url)) bucket = "web server (serve.ts, pino, prom-client)";
    else if (/^node:/.test(f.url)) bucket = "node internals";
    else bucket = "other";
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + t);
  }
  console.log(`\n## busy time per request, us (of ${cpuPerRequest} us CPU)`);
  for (const [bucket, t] of [...buckets].sort((a, b) => b[1] - a[1])) console.log(`${((t / busy) * cpuPerRequest).toFixed(0).padStart(6)}  ${bucket}`);
}
