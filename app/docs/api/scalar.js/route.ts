// GET /docs/api/scalar.js - Scalar's standalone bundle, served from this origin (no CDN at run time)
import { readScalarBundle } from "@/server/openapi/reference-page";

export async function GET(): Promise<Response> {
  const body = await readScalarBundle();
  return new Response(new Uint8Array(body), {
    headers: { "content-type": "text/javascript; charset=utf-8", "cache-control": "public, max-age=86400" },
  });
}

// Built once at `next build`: the page and the bundle do not change while the server runs.
export const dynamic = "force-static";
