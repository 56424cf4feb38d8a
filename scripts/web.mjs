// npm run web: the web server alone (no workers, no migrations), run from the
// standalone output that `npm run build` made: the same file a host or the Docker
// image runs as `node web.mjs` inside that folder.
import { existsSync } from "node:fs";

const entry = new URL("../.next/standalone/web.mjs", import.meta.url);
if (!existsSync(entry)) {
  console.error("npm run web: no standalone build (.next/standalone/web.mjs); run npm run build first");
  process.exit(1);
}
await import(entry.href);
