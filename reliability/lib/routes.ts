import type { RouteHandler } from "@/server/http/partner-route";
import * as analytics from "@/app/api/partner/v1/analytics/route";
import * as availability from "@/app/api/partner/v1/availability/route";
import * as brokerageCase from "@/app/api/partner/v1/brokerage/[case_id]/route";
import * as brokerageEligibility from "@/app/api/partner/v1/brokerage/eligibility/route";
import * as brokerage from "@/app/api/partner/v1/brokerage/route";
import * as checkoutSession from "@/app/api/partner/v1/checkout-session/route";
import * as domain from "@/app/api/partner/v1/domains/[name]/route";
import * as search from "@/app/api/partner/v1/domains/search/route";
import * as events from "@/app/api/partner/v1/events/route";
import * as links from "@/app/api/partner/v1/links/route";
import * as meClicks from "@/app/api/partner/v1/me/clicks/route";
import * as meCommissions from "@/app/api/partner/v1/me/commissions/route";
import * as mePayouts from "@/app/api/partner/v1/me/payouts/route";
import * as meSales from "@/app/api/partner/v1/me/sales/route";
import * as order from "@/app/api/partner/v1/orders/[public_id]/route";
import * as orders from "@/app/api/partner/v1/orders/route";
import * as payouts from "@/app/api/partner/v1/payouts/route";
import * as pricing from "@/app/api/partner/v1/pricing/route";
import * as quotes from "@/app/api/partner/v1/quotes/route";
import * as refunds from "@/app/api/partner/v1/refunds/route";
import * as settlements from "@/app/api/partner/v1/settlements/route";
import * as transactions from "@/app/api/partner/v1/transactions/route";
import * as webhooks from "@/app/api/partner/webhooks/route";
import * as publicSearch from "@/app/api/domain/search/route";
import * as oauthRegister from "@/app/api/oauth/register/route";
import * as oauthToken from "@/app/api/oauth/token/route";
import * as mcp from "@/app/mcp/route";
import * as unknownApi from "@/app/api/[...path]/route";

// The app's API route files behind one dispatcher, as Next routes them, so the
// reliability harnesses and tests/helpers/gate-server.ts can serve any API path
// in-process or from a plain node:http server without a Next build. A path no
// entry matches goes to the /api catch-all (404 not_found in the envelope).

type Handler = RouteHandler | ((request: Request) => Response | Promise<Response>);
type RouteModule = Partial<Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS", Handler>>;

const table: [pattern: RegExp, paramName: string | null, module: RouteModule][] = [
  [/^\/api\/partner\/v1\/analytics$/, null, analytics],
  [/^\/api\/partner\/v1\/availability$/, null, availability],
  [/^\/api\/partner\/v1\/brokerage\/eligibility$/, null, brokerageEligibility],
  [/^\/api\/partner\/v1\/brokerage\/([^/]+)$/, "case_id", brokerageCase],
  [/^\/api\/partner\/v1\/brokerage$/, null, brokerage],
  [/^\/api\/partner\/v1\/checkout-session$/, null, checkoutSession],
  [/^\/api\/partner\/v1\/domains\/search$/, null, search],
  [/^\/api\/partner\/v1\/domains\/([^/]+)$/, "name", domain],
  [/^\/api\/partner\/v1\/events$/, null, events],
  [/^\/api\/partner\/v1\/links$/, null, links],
  [/^\/api\/partner\/v1\/me\/clicks$/, null, meClicks],
  [/^\/api\/partner\/v1\/me\/commissions$/, null, meCommissions],
  [/^\/api\/partner\/v1\/me\/payouts$/, null, mePayouts],
  [/^\/api\/partner\/v1\/me\/sales$/, null, meSales],
  [/^\/api\/partner\/v1\/orders\/([^/]+)$/, "public_id", order],
  [/^\/api\/partner\/v1\/orders$/, null, orders],
  [/^\/api\/partner\/v1\/payouts$/, null, payouts],
  [/^\/api\/partner\/v1\/pricing$/, null, pricing],
  [/^\/api\/partner\/v1\/quotes$/, null, quotes],
  [/^\/api\/partner\/v1\/refunds$/, null, refunds],
  [/^\/api\/partner\/v1\/settlements$/, null, settlements],
  [/^\/api\/partner\/v1\/transactions$/, null, transactions],
  [/^\/api\/partner\/webhooks$/, null, webhooks],
  [/^\/api\/domain\/search$/, null, publicSearch],
  [/^\/api\/oauth\/register$/, null, oauthRegister],
  [/^\/api\/oauth\/token$/, null, oauthToken],
  [/^\/mcp$/, null, mcp],
];

/** Answers `request` with the route file Next would pick for its path and method. */
export async function dispatch(request: Request): Promise<Response> {
  const { pathname } = new URL(request.url);
  const method = request.method.toUpperCase() as keyof RouteModule;
  for (const [pattern, paramName, module] of table) {
    const match = pattern.exec(pathname);
    if (!match) continue;
    const handler = module[method];
    if (!handler) return new Response(null, { status: 405 });
    const params: Record<string, string> = paramName ? { [paramName]: decodeSegment(match[1]!) } : {};
    return handler(request, { params: Promise.resolve(params) });
  }
  const fallback = unknownApi[method as "GET"] ?? unknownApi.GET;
  return fallback(request);
}

/** Next hands route params decoded; a malformed escape is kept as sent. */
function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
