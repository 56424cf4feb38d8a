// GET|POST /api/auth/* - next-auth endpoints (session, csrf, credentials callback, sign-out)
import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { getAuthOptions } from "@/server/auth/options";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// Options are resolved per request (not at import) so `next build` needs no settings.
function handler(req: NextRequest, context: RouteContext): Promise<Response> {
  return NextAuth(req, context, getAuthOptions());
}

export { handler as GET, handler as POST };
