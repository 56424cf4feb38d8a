// GET /r/{code} - public referral link: count the click, set the attribution cookie, redirect
import { getDb } from "@/db/client";
import { getEnv } from "@/server/env";
import { ATTRIBUTION_COOKIE, ATTRIBUTION_MAX_AGE_SECONDS, followLink } from "@/server/services/referrals";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ code: string }> }): Promise<Response> {
  const { code } = await context.params;
  const followed = await followLink(getDb(), {
    code,
    cookie: readCookie(request.headers.get("cookie"), ATTRIBUTION_COOKIE),
    userAgent: request.headers.get("user-agent"),
  });
  if (!followed) return notFoundPage();
  const secure = getEnv().APP_URL.startsWith("https:") ? "; Secure" : "";
  return new Response(null, {
    status: 302,
    headers: {
      // Relative, so the browser stays on the host that received (and now holds) the cookie.
      location: followed.link.target,
      "set-cookie": `${ATTRIBUTION_COOKIE}=${followed.cookie}; Path=/; Max-Age=${ATTRIBUTION_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax${secure}`,
      "cache-control": "no-store",
      "referrer-policy": "strict-origin-when-cross-origin",
    },
  });
}

function readCookie(header: string | null, name: string): string | undefined {
  for (const part of header?.split(";") ?? []) {
    const index = part.indexOf("=");
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim();
  }
  return undefined;
}

function notFoundPage(): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Link not found</title></head>
<body style="font-family:system-ui,sans-serif;display:flex;min-height:100vh;align-items:center;justify-content:center;margin:0;text-align:center">
<main><p style="color:#4f46e5;font-weight:600">404</p><h1>Link not found</h1><p>This referral link does not exist.</p><p><a href="/domains">Browse domains</a></p></main></body></html>`;
  return new Response(html, { status: 404, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
