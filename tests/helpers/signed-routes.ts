import type { EndpointContract } from "@/server/http/contract";
import type { RouteHandler } from "@/server/http/partner-route";
import * as availability from "@/app/api/partner/v1/availability/route";
import * as domain from "@/app/api/partner/v1/domains/[name]/route";
import * as search from "@/app/api/partner/v1/domains/search/route";
import * as pricing from "@/app/api/partner/v1/pricing/route";
import * as events from "@/app/api/partner/v1/events/route";
import { partnerContracts } from "@/server/contracts";

// Every signed endpoint with a request that succeeds for a credential holding
// all scopes. The shared authentication table (auth-table.test.ts) runs each
// of its cases against every entry; a new endpoint adds one line here, and the
// completeness test fails until it does.

export interface SignedRouteSample {
  operationId: string;
  handler: RouteHandler;
  method: string;
  url: string;
  params?: Record<string, string>;
  body?: unknown;
  /** Status of the correctly signed request (the sample may target a missing resource). */
  okStatus: number;
}

export const signedRoutes: SignedRouteSample[] = [
  { operationId: "searchDomains", handler: search.GET, method: "GET", url: "/api/partner/v1/domains/search?q=lawyer", okStatus: 200 },
  {
    operationId: "getDomain",
    handler: domain.GET,
    method: "GET",
    url: "/api/partner/v1/domains/no-such-domain-zz.com",
    params: { name: "no-such-domain-zz.com" },
    okStatus: 404,
  },
  { operationId: "getAvailability", handler: availability.GET, method: "GET", url: "/api/partner/v1/availability?domain=no-such-domain-zz.com", okStatus: 200 },
  { operationId: "getPricing", handler: pricing.GET, method: "GET", url: "/api/partner/v1/pricing?domain=no-such-domain-zz.com", okStatus: 404 },
  { operationId: "listEvents", handler: events.GET, method: "GET", url: "/api/partner/v1/events?limit=5", okStatus: 200 },
];

export function contractFor(operationId: string): EndpointContract {
  const contract = partnerContracts.find((c) => c.operationId === operationId);
  if (!contract) throw new Error(`no contract with operationId ${operationId}`);
  return contract;
}
