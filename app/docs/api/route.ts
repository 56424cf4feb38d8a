// GET /docs/api - the partner API reference, rendered by Scalar from the OpenAPI document
import { referencePageHtml } from "@/server/openapi/reference-page";

export function GET(): Response {
  return new Response(referencePageHtml(), {
    headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=300" },
  });
}

// Built once at `next build`: the page and the bundle do not change while the server runs.
export const dynamic = "force-static";
