// GET /r/{code} - public referral link: count the click, set the attribution cookie, redirect
import { getDb } from "@/db/client";
import { getEnv } from "@/server/env";
import { ATTRIBUTION_COOKIE, ATTRIBUTION_MAX_AGE_SECONDS, followLink } from "@/server/services/referrals";
import { takeReferralClick } from "@/server/http/abuse-limits";
import { clientIp } from "@/server/http/client-ip";
import { methodsNotAllowed } from "@/server/http/partner-route";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ code: string }> }): Promise<Response> {
  const { code } = await context.params;
  const db = getDb();
  // A flood from one address is still redirected, but not counted as clicks.
  const counted = /^[0-9A-Za-z]{10}$/.test(code) && (await takeReferralClick(db, code, clientIp(request))).allowed;
  const followed = await followLink(db, {
    code,
    record: counted,
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

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
