import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

// A request's route class: the app route that serves its path, as Next matches
// it ("/api/partner/v1/orders/[public_id]", "/dashboard/orders/[id]"), so a log
// line or a metric never carries ids, tokens or domain names from the URL, and a
// metric label takes one of a fixed set of values (a scanner's random paths all
// become "[unmatched]").
//
// The routes come from the app/ folder and the build's app-paths-manifest.json
// together (a standalone output ships only the app/ files routes read; a dev
// server's manifest grows as it compiles). Static segments win over [param],
// which wins over catch-alls.

export const UNMATCHED = "[unmatched]";
export const STATIC_FILE = "[static file]";

interface Node {
  children: Map<string, Node>;
  param?: Node;
  /** [...x]: one or more segments. */
  catchAll?: string;
  /** [[...x]]: zero or more segments. */
  optionalCatchAll?: string;
  /** The route ending here. */
  route?: string;
}

const newNode = (): Node => ({ children: new Map() });

export interface RouteTable {
  classify(pathname: string): string;
}

export function buildRouteTable(routes: readonly string[], staticFiles: readonly string[] = []): RouteTable {
  const root = newNode();
  for (const route of routes) insert(root, route);
  const files = new Set(staticFiles);
  return {
    classify(pathname) {
      if (pathname.startsWith("/_next/")) return pathname.startsWith("/_next/static/") ? "/_next/static" : pathname.startsWith("/_next/image") ? "/_next/image" : "/_next";
      const segments = pathname.split("/").filter(Boolean);
      return match(root, segments, 0) ?? (files.has(pathname) ? STATIC_FILE : UNMATCHED);
    },
  };
}

function insert(root: Node, route: string): void {
  let node = root;
  for (const segment of route.split("/").filter(Boolean)) {
    if (segment.startsWith("[[...")) return void (node.optionalCatchAll = route);
    if (segment.startsWith("[...")) return void (node.catchAll = route);
    if (segment.startsWith("[")) node = node.param ??= newNode();
    else {
      let child = node.children.get(segment);
      if (!child) node.children.set(segment, (child = newNode()));
      node = child;
    }
  }
  node.route = route;
}

function match(node: Node, segments: readonly string[], index: number): string | undefined {
  if (index === segments.length) return node.route ?? node.optionalCatchAll;
  const segment = segments[index]!;
  const exact = node.children.get(segment);
  const found = (exact && match(exact, segments, index + 1)) ?? (node.param && match(node.param, segments, index + 1));
  return found ?? node.catchAll ?? node.optionalCatchAll;
}

/** "app/(dashboard)/dashboard/orders/[id]" -> "/dashboard/orders/[id]"; undefined for a folder Next does not route. */
function routeOf(folders: readonly string[]): string | undefined {
  if (folders.some((folder) => folder.startsWith("@") || folder.startsWith("_"))) return undefined;
  return "/" + folders.filter((folder) => !(folder.startsWith("(") && folder.endsWith(")"))).join("/");
}

const ROUTE_FILE = /^(page|route)\.(tsx?|jsx?|mdx?)$/;

function scanAppFolder(dir: string, folders: string[] = [], out: string[] = []): string[] {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory()) scanAppFolder(path.join(dir, entry.name), [...folders, entry.name], out);
    else if (ROUTE_FILE.test(entry.name)) {
      const route = routeOf(folders);
      if (route) out.push(route);
    }
  }
  return out;
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(path.join(dir, entry.name), `${prefix}/${entry.name}`) : [`${prefix}/${entry.name}`],
  );
}

/**
 * The app's routes as found under `root` (the folder the server runs in): the app/ folder's
 * and the build manifest's together. A standalone output holds only the part of app/ that
 * Next traced (files a route reads), so neither source alone is whole everywhere; a dev
 * server's manifest lists only the routes compiled so far.
 */
export function loadAppRoutes(root: string = process.cwd()): string[] {
  const appDir = path.join(root, "app");
  const fromFolder = existsSync(appDir) ? scanAppFolder(appDir) : [];
  const manifest = path.join(root, ".next", "server", "app-paths-manifest.json");
  if (!existsSync(manifest)) return fromFolder;
  const entries = Object.keys(JSON.parse(readFileSync(manifest, "utf8")) as Record<string, string>);
  const fromManifest = entries.flatMap((entry) => {
    const folders = entry.split("/").filter(Boolean);
    folders.pop(); // "page" or "route"
    const route = routeOf(folders);
    return route ? [route] : [];
  });
  return [...new Set([...fromFolder, ...fromManifest])];
}

let table: RouteTable | undefined;

/**
 * Reads the app's routes from the folder the server serves (the working directory), once. The web
 * server calls it as it starts, after it has moved into that folder (a standalone start from another
 * directory chdirs there): read earlier, from wherever `node web.mjs` was started, every route would
 * log as [unmatched].
 */
export function loadRouteClasses(): RouteTable {
  return (table ??= buildRouteTable(loadAppRoutes(), listFiles(path.join(process.cwd(), "public"))));
}

/** The route class of a path, from this process's app. */
export function routeClassOf(pathname: string): string {
  return loadRouteClasses().classify(pathname);
}
