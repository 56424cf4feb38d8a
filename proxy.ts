import { NextResponse, type NextRequest } from "next/server";
import { isWellFormedProgressToken } from "@/server/services/brokerage";
import { checkoutTokenStatus } from "@/server/services/checkout";

// Pages reached by a token in the URL answer with the status the token deserves
// (400 malformed, 404 unknown or altered, 410 expired), not 200, while still
// showing the page that explains it: the same page, rewritten with a status.
// Only these paths run through here; API routes never pay for it.

export function proxy(request: NextRequest): NextResponse {
  const { pathname, searchParams } = request.nextUrl;
  let status = 200;
  if (pathname === "/checkout") status = checkoutTokenStatus(searchParams.get("pt"));
  else if (pathname.startsWith("/brokerage/")) {
    const token = decodeURIComponent(pathname.slice("/brokerage/".length));
    if (!isWellFormedProgressToken(token)) status = 400;
  }
  return status === 200 ? NextResponse.next() : NextResponse.rewrite(request.nextUrl, { status });
}

export const config = { matcher: ["/checkout", "/brokerage/:token*"] };
