import { readFile } from "node:fs/promises";
import path from "node:path";
import { OPENAPI_PATH } from "./build";

// The API reference page: Scalar's standalone bundle rendering the served
// OpenAPI document. Everything comes from this origin: the page, the bundle
// (read from the installed @scalar/api-reference package, not a CDN) and the
// document. Scalar's web fonts, telemetry and request proxy are switched off,
// and /docs/api's Content-Security-Policy (next.config.mjs) allows only 'self'.

export const REFERENCE_SCRIPT_PATH = "/docs/api/scalar.js";
/** Loads the bundle and updates the status line (an inline script would break the page's CSP). */
export const REFERENCE_LOADER_PATH = "/docs/api/loader.js";

/**
 * Where `npm ci` puts the bundle. The route is static, so `next build` reads it and the built
 * output carries it: the package is a devDependency, absent from production installs and images.
 */
export const SCALAR_BUNDLE_FILE = path.join("node_modules", "@scalar", "api-reference", "dist", "browser", "standalone.js");

/**
 * Scalar's default light theme fails axe in a few places: contrast of muted text and
 * HTTP-method labels, code examples that scroll without being focusable, and the
 * editable auth-header combobox (no aria-expanded). Darker colours, wrapping code,
 * and no auth form: the page documents the signature scheme; it sends no requests.
 */
const accessibleCss = `
.light-mode {
  --scalar-color-2: #555555;
  --scalar-color-3: #5e5e5e;
  --scalar-color-green: #047857;
  --scalar-color-blue: #1d4ed8;
  --scalar-color-orange: #a14a06;
  --scalar-color-red: #b91c1c;
  --scalar-color-yellow: #7a4a00;
  --scalar-color-purple: #6d28d9;
}
.light-mode .language-json .hljs-literal, .light-mode .language-json .hljs-number { color: #1d4ed8; }
code.hljs.custom-scroll { overflow: visible !important; white-space: pre-wrap; overflow-wrap: anywhere; }
section:has(.code-input-lite__editor[role="combobox"]) { display: none; }
`;

const configuration = {
  url: OPENAPI_PATH,
  withDefaultFonts: false,
  telemetry: false,
  // The hosted API client (client.scalar.com) would fetch our document from another origin.
  hideClientButton: true,
  showDeveloperTools: "never",
  agent: { disabled: true },
  mcp: { disabled: true },
  documentDownloadType: "json",
  theme: "default",
  forceDarkModeState: "light",
  hideDarkModeToggle: true,
  customCss: accessibleCss,
  metaData: { title: "API reference · Domain Marketplace" },
};

/** The status line before Scalar renders: plain, readable at phone width, gone once the bundle runs. */
const statusCss = `
#reference-status { font: 16px/1.5 system-ui, sans-serif; color: #1f2937; max-width: 40rem; margin: 3rem auto; padding: 0 1.25rem; }
#reference-status h1 { font-size: 1.5rem; margin: 0 0 0.5rem; }
#reference-status a { color: #1d4ed8; }
#reference-status .failed, #reference-status[data-state="failed"] [role="status"] { display: none; }
#reference-status[data-state="failed"] .failed { display: block; }
#reference-status[data-state="ready"] { display: none; }
`;

/**
 * Adds the bundle to the page and reports on it: Scalar mounts itself when the bundle runs, so
 * the status line goes then; a bundle that fails to arrive leaves a sentence and a link instead of
 * a blank page.
 */
export function referenceLoaderScript(): string {
  return `(() => {
  const status = document.getElementById("reference-status");
  const line = status && status.querySelector('[role="status"]');
  const script = document.createElement("script");
  script.src = ${JSON.stringify(REFERENCE_SCRIPT_PATH)};
  script.onload = () => { if (status) status.dataset.state = "ready"; };
  script.onerror = () => {
    if (!status) return;
    status.dataset.state = "failed";
    if (line) line.textContent = "";
    status.querySelector(".failed").setAttribute("role", "alert");
  };
  document.body.appendChild(script);
})();
`;
}

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/'/g, "&#39;").replace(/</g, "&lt;");

export function referencePageHtml(): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>API reference · Domain Marketplace</title>
    <meta name="description" content="Partner API reference: signed requests, endpoints, errors and webhooks." />
  </head>
  <body>
    <style>${statusCss}</style>
    <main id="reference-status" data-state="loading">
      <h1>API reference</h1>
      <p role="status" aria-live="polite">Loading the API reference…</p>
      <p class="failed">The API reference could not load. <a href="/docs/api">Try again</a>, or read the OpenAPI document itself at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</p>
      <noscript><p>The API reference needs JavaScript. The OpenAPI document itself is at <a href="${OPENAPI_PATH}">${OPENAPI_PATH}</a>.</p></noscript>
    </main>
    <script id="api-reference" data-url="${OPENAPI_PATH}" data-configuration='${escapeAttribute(JSON.stringify(configuration))}'></script>
    <script src="${REFERENCE_LOADER_PATH}"></script>
  </body>
</html>
`;
}

let bundle: Promise<Buffer> | undefined;

/** The Scalar bundle, read once per process. */
export function readScalarBundle(): Promise<Buffer> {
  bundle ??= readFile(path.join(process.cwd(), SCALAR_BUNDLE_FILE)).catch((error: unknown) => {
    bundle = undefined;
    throw error;
  });
  return bundle;
}
