// Reads a CPU profile of the web server (node --cpu-prof; bench/profile-load.ts has the steps):
//   node bench/profile-read.mjs FILE.cpuprofile [TOP=30] [CPU_US_PER_REQUEST]
//   node bench/profile-read.mjs --diff A.cpuprofile A_US B.cpuprofile B_US [TOP=40]
// Prints self time by function and by module, inclusive time of our own modules and
// functions (names and lines through the build's source maps: the chunks are minified),
// the native entries (socket and file writes) by their first callers outside node's own
// modules, and, given the CPU time per request that profile-load.ts printed, the busy
// time in buckets as microseconds per request (the profile's clock is wall time: on a
// loaded machine only the proportions, not the durations, are the process's own).
//
// --diff compares two profiles (say ping and a signed route, or before and after) as
// microseconds per request: each profile's busy time spread over its own CPU per request,
// by bucket and by function, largest differences first.
//
// PROFILE_FROM_S=N leaves out the first N seconds of each profile (start-up, warm-up).
// web.mjs (the bundled web server) has no source map; its functions are put under the
// package esbuild names in its `// node_modules/...` comments (postgres.js, pino, ...).
import { readFileSync, existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { TraceMap, originalPositionFor } = require("@jridgewell/trace-mapping");

const fromUs = Number(process.env.PROFILE_FROM_S ?? 0) * 1e6;
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
/** esbuild's bundle: the `// node_modules/x/y.js` or `// server/...` comment above each module's code. */
const bundles = new Map();
function bundleModuleAt(url, line) {
  if (!bundles.has(url)) {
    const starts = [];
    try {
      const file = url.startsWith("file://") ? fileURLToPath(url) : url;
      readFileSync(file, "utf8")
        .split("\n")
        .forEach((text, i) => {
          const m = /^\/\/ ((?:node_modules\/|server\/|db\/|scripts\/)\S+\.[cm]?[jt]sx?)$/.exec(text);
          if (m) starts.push([i + 1, m[1]]);
        });
    } catch {}
    bundles.set(url, starts);
  }
  const starts = bundles.get(url);
  let found;
  for (let lo = 0, hi = starts.length - 1; lo <= hi; ) {
    const mid = (lo + hi) >> 1;
    if (starts[mid][0] <= line) {
      found = starts[mid][1];
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

function analyse(file) {
  const prof = JSON.parse(readFileSync(file, "utf8"));
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
    } else if (cf.lineNumber >= 0) {
      const bundled = /web\.mjs$/.test(cf.url) ? bundleModuleAt(cf.url, cf.lineNumber + 1) : undefined;
      where = bundled ? `web.mjs[${bundled.replace(/^node_modules\//, "nm:")}]:${cf.lineNumber + 1}` : `${where}:${cf.lineNumber + 1}`;
    }
    n._module = where.replace(/:\d+$/, "");
    n._label = `${name} ${where}`;
    return n._label;
  }
  // sample time per node, leaving out the first PROFILE_FROM_S seconds
  const dt = new Map();
  let clockUs = 0;
  let total = 0;
  prof.samples.forEach((id, i) => {
    const d = prof.timeDeltas[i] ?? 0;
    clockUs += d;
    if (clockUs < fromUs) return;
    total += d;
    dt.set(id, (dt.get(id) ?? 0) + d);
  });
  const self = new Map(), mods = new Map(), incl = new Map(), buckets = new Map();
  let busy = 0;
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
    const f = n.callFrame;
    if (f.functionName === "(idle)") continue;
    busy += t;
    let bucket;
    if (f.functionName === "(garbage collector)") bucket = "garbage collector";
    else if (!f.url && /^write/.test(f.functionName)) {
      bucket = "writes: other";
      for (let cur = parent.get(n.id); cur !== undefined; cur = parent.get(cur)) {
        const pn = byId.get(cur);
        label(pn);
        const where = pn._module;
        if (/postgres/.test(where)) bucket = "writes: database socket";
        else if (/pino|sonic-boom/.test(where)) bucket = "writes: log lines (pino)";
        else if (/next/.test(where)) bucket = "writes: HTTP response";
        else continue;
        break;
      }
    } else if (/postgres/.test(n._module) && /node_modules|nm:/.test(n._module)) bucket = "postgres.js";
    else if (/nm:(pino|sonic-boom|safe-stable|quick-format|@pinojs)/.test(n._module)) bucket = "pino (log line)";
    else if (/nm:(prom-client|bintrees|tdigest)/.test(n._module)) bucket = "prom-client (metrics)";
    else if (/node_modules\/(next|react)|nm:(next|react)|\[turbopack\]/.test(f.url + " " + n._module)) bucket = "Next.js";
    else if (/\.next\/server/.test(f.url)) bucket = "route bundles (our code, zod, drizzle)";
    else if (/web\.mjs/.test(f.url)) bucket = "web server (serve.ts, search index, other bundled)";
    else if (/^node:/.test(f.url)) bucket = "node internals";
    else bucket = "other (native, program)";
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + t);
  }
  return { prof, byId, parent, label, dt, total, self, mods, incl, buckets, busy };
}

const pct = (t, total) => ((100 * t) / total).toFixed(1).padStart(5) + "%";

if (process.argv[2] === "--diff") {
  const [, , , fileA, usA, fileB, usB, top] = process.argv;
  const a = analyse(fileA), b = analyse(fileB);
  const perRequest = (p, us, m) => new Map([...m].map(([k, t]) => [k, (t / p.busy) * Number(us)]));
  const report = (title, ma, mb, k) => {
    const keys = new Set([...ma.keys(), ...mb.keys()]);
    const rows = [...keys].map((key) => [key, ma.get(key) ?? 0, mb.get(key) ?? 0]).sort((x, y) => Math.abs(y[2] - y[1]) - Math.abs(x[2] - x[1]));
    console.log(`\n## ${title}: us per request, A / B / B - A`);
    for (const [key, x, y] of rows.slice(0, k)) console.log(`${x.toFixed(0).padStart(6)} ${y.toFixed(0).padStart(6)} ${(y - x).toFixed(0).padStart(6)}  ${key}`);
  };
  console.log(`A: ${fileA} (${usA} us per request, ${(a.busy / 1e6).toFixed(1)} s busy of ${(a.total / 1e6).toFixed(1)} s)`);
  console.log(`B: ${fileB} (${usB} us per request, ${(b.busy / 1e6).toFixed(1)} s busy of ${(b.total / 1e6).toFixed(1)} s)`);
  const idleless = (m) => new Map([...m].filter(([k]) => !/^\(idle\)/.test(k)));
  report("buckets", perRequest(a, usA, a.buckets), perRequest(b, usB, b.buckets), 20);
  report("self time by module", perRequest(a, usA, idleless(a.mods)), perRequest(b, usB, idleless(b.mods)), Number(top ?? 40));
  report("self time by function", perRequest(a, usA, idleless(a.self)), perRequest(b, usB, idleless(b.self)), Number(top ?? 40));
  report("inclusive, our modules and functions", perRequest(a, usA, a.incl), perRequest(b, usB, b.incl), Number(top ?? 40));
  process.exit(0);
}

const N = Number(process.argv[3] ?? 30);
const p = analyse(process.argv[2]);
const show = (title, m, k = N) => { console.log(`\n## ${title}`); [...m].sort((x, y) => y[1] - x[1]).slice(0, k).forEach(([l, t]) => console.log(`${pct(t, p.total)}  ${l}`)); };
console.log(`total ${(p.total / 1e6).toFixed(1)} s sampled`);
show("self time by function", p.self);
show("self time by module", p.mods);
show("inclusive time, our modules and functions", p.incl, N * 2);
// Who calls the top native entries (self time with no source): the first caller with a source.
const callers = new Map();
for (const n of p.prof.nodes) {
  const t = p.dt.get(n.id) ?? 0;
  if (!t || n.callFrame.url || n.callFrame.functionName.startsWith("(")) continue;
  // The native entry's callers up to the first frame outside node's own modules.
  const chain = [];
  for (let cur = p.parent.get(n.id), k = 0; cur !== undefined && k < 25; cur = p.parent.get(cur), k++) {
    const l = p.label(p.byId.get(cur));
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
  console.log(`\n## busy time per request, us (of ${cpuPerRequest} us CPU)`);
  for (const [bucket, t] of [...p.buckets].sort((x, y) => y[1] - x[1])) console.log(`${((t / p.busy) * cpuPerRequest).toFixed(0).padStart(6)}  ${bucket}`);
}
