// GET /docs/api/loader.js - loads the Scalar bundle and keeps the page's status line true:
// "loading" while the 4.8 MB bundle arrives, gone once it runs, a way out if it fails.
import { referenceLoaderScript } from "@/server/openapi/reference-page";

export function GET(): Response {
  return new Response(referenceLoaderScript(), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=300" },
  });
}

export const dynamic = "force-static";
