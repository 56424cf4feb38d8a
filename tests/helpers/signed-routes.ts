import type { EndpointContract } from "@/server/http/contract";
import type { RouteHandler } from "@/server/http/partner-route";
import * as availability from "@/app/api/partner/v1/availability/route";
import * as domain from "@/app/api/partner/v1/domains/[name]/route";
import * as search from "@/app/api/partner/v1/domains/search/route";
import * as pricing from "@/app/api/partner/v1/pricing/route";
import * as events from "@/app/api/partner/v1/events/route";
import * as quotes from "@/app/api/partner/v1/quotes/route";
import * as orders from "@/app/api/partner/v1/orders/route";
import * as order from "@/app/api/partner/v1/orders/[public_id]/route";
import * as refunds from "@/app/api/partner/v1/refunds/route";
import * as settlements from "@/app/api/partner/v1/settlements/route";
import * as transactions from "@/app/api/partner/v1/transactions/route";
import * as payouts from "@/app/api/partner/v1/payouts/route";
import * as webhooks from "@/app/api/partner/webhooks/route";
import * as brokerage from "@/app/api/partner/v1/brokerage/route";
import * as brokerageCase from "@/app/api/partner/v1/brokerage/[case_id]/route";
import * as brokerageEligibility from "@/app/api/partner/v1/brokerage/eligibility/route";
import * as checkoutSession from "@/app/api/partner/v1/checkout-session/route";
import * as links from "@/app/api/partner/v1/links/route";
import * as meClicks from "@/app/api/partner/v1/me/clicks/route";
import * as meSales from "@/app/api/partner/v1/me/sales/route";
import * as meCommissions from "@/app/api/partner/v1/me/commissions/route";
import * as mePayouts from "@/app/api/partner/v1/me/payouts/route";
import * as analytics from "@/app/api/partner/v1/analytics/route";
import { partnerContracts } from "@/server/contracts";
import { getDb } from "@/db/client";
import { addDomain } from "@/server/services/inventory";
import { uniqueSuffix } from "./partner";

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
  /** Extra request headers beyond the four signature headers (e.g. Idempotency-Key). */
  headers?: Record<string, string>;
  /** Runs once before the table (e.g. lists the domain a write sample buys). */
  setup?: () => Promise<void>;
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
  { operationId: "listSettlements", handler: settlements.GET, method: "GET", url: "/api/partner/v1/settlements?limit=5", okStatus: 200 },
  { operationId: "listTransactions", handler: transactions.GET, method: "GET", url: "/api/partner/v1/transactions?limit=5&status=SETTLED", okStatus: 200 },
  { operationId: "listPayouts", handler: payouts.GET, method: "GET", url: "/api/partner/v1/payouts?limit=5", okStatus: 200 },
  ...commerceSamples(),
  ...checkoutSamples(),
  ...webhookSamples(),
  ...brokerageSamples(),
  ...referralSamples(),
];

/** Register, read, deactivate (in that order, so GET and DELETE find the endpoint). A public IP literal needs no DNS. */
function webhookSamples(): SignedRouteSample[] {
  const url = "/api/partner/webhooks";
  const body = { url: "https://93.184.215.14/auth-table-webhooks", secret: "auth-table-webhook-secret-0123456789" };
  return [
    { operationId: "registerWebhook", handler: webhooks.PUT, method: "PUT", url, body, okStatus: 200 },
    { operationId: "getWebhook", handler: webhooks.GET, method: "GET", url, okStatus: 200 },
    { operationId: "deactivateWebhook", handler: webhooks.DELETE, method: "DELETE", url, okStatus: 200 },
  ];
}

/** Quotes and orders need listed domains of their own; a repeated order request replays (same key and body). */
function commerceSamples(): SignedRouteSample[] {
  const suffix = uniqueSuffix();
  const quoteDomain = `auth-table-quote-${suffix}.com`;
  const orderDomain = `auth-table-order-${suffix}.com`;
  const list = (name: string) => addDomain(getDb(), { environment: "sandbox", name, priceCents: 12_345 }).then(() => undefined);
  return [
    { operationId: "createQuote", handler: quotes.POST, method: "POST", url: "/api/partner/v1/quotes", body: { domain: quoteDomain }, setup: () => list(quoteDomain), okStatus: 201 },
    {
      operationId: "createOrder",
      handler: orders.POST,
      method: "POST",
      url: "/api/partner/v1/orders",
      body: { domain: orderDomain, expected_price: 12_345, currency: "USD", buyer: { email: "buyer@test.example" } },
      headers: { "Idempotency-Key": `auth-table-${suffix}` },
      setup: () => list(orderDomain),
      okStatus: 201,
    },
    { operationId: "listOrders", handler: orders.GET, method: "GET", url: "/api/partner/v1/orders?limit=5&status=EXTERNALLY_PAID", okStatus: 200 },
    {
      operationId: "getOrder",
      handler: order.GET,
      method: "GET",
      url: "/api/partner/v1/orders/ord_0000000000000000000000",
      params: { public_id: "ord_0000000000000000000000" },
      okStatus: 404,
    },
    { operationId: "createRefund", handler: refunds.POST, method: "POST", url: "/api/partner/v1/refunds", body: { order_id: "ord_0000000000000000000000" }, okStatus: 404 },
  ];
}

/** A hosted checkout link for a listed domain of its own (sessions hold nothing, so repeats succeed). */
function checkoutSamples(): SignedRouteSample[] {
  const name = `auth-table-checkout-${uniqueSuffix()}.com`;
  return [
    {
      operationId: "createCheckoutSession",
      handler: checkoutSession.POST,
      method: "POST",
      url: "/api/partner/v1/checkout-session",
      body: { domain: name, return_url: "https://partner.example/thanks" },
      setup: () => addDomain(getDb(), { environment: "sandbox", name, priceCents: 12_345 }).then(() => undefined),
      okStatus: 201,
    },
  ];
}

/**
 * A `.test` name never resolves (the site probe answers without DNS). The POST
 * sample names a listed domain, so every correctly signed call is the same 409
 * (a 201 could not repeat: the first case stays open).
 */
function brokerageSamples(): SignedRouteSample[] {
  const listed = `auth-table-brokerage-${uniqueSuffix()}.com`;
  const body = { domain: listed, tier: "managed", buyer_email: "buyer@test.example", budget: 100_000 };
  return [
    {
      operationId: "getBrokerageEligibility",
      handler: brokerageEligibility.GET,
      method: "GET",
      url: "/api/partner/v1/brokerage/eligibility?domain=auth-table-brokerage.test",
      okStatus: 200,
    },
    {
      operationId: "createBrokerageCase",
      handler: brokerage.POST,
      method: "POST",
      url: "/api/partner/v1/brokerage",
      body,
      setup: () => addDomain(getDb(), { environment: "sandbox", name: listed, priceCents: 12_345 }).then(() => undefined),
      okStatus: 409,
    },
    {
      operationId: "getBrokerageCase",
      handler: brokerageCase.GET,
      method: "GET",
      url: "/api/partner/v1/brokerage/bc_0000000000000000000000",
      params: { case_id: "bc_0000000000000000000000" },
      okStatus: 404,
    },
    { operationId: "listBrokerageCases", handler: brokerage.GET, method: "GET", url: "/api/partner/v1/brokerage?limit=5&status=OPEN", okStatus: 200 },
  ];
}

/**
 * The table's partner must be an affiliate for these to succeed (referral needs
 * an affiliate account): see samplePartnerOptions.
 */
function referralSamples(): SignedRouteSample[] {
  return [
    { operationId: "createLink", handler: links.POST, method: "POST", url: "/api/partner/v1/links", body: { type: "generic", label: "auth table" }, okStatus: 201 },
    { operationId: "listLinks", handler: links.GET, method: "GET", url: "/api/partner/v1/links?limit=5", okStatus: 200 },
    { operationId: "getReferralClicks", handler: meClicks.GET, method: "GET", url: "/api/partner/v1/me/clicks?interval=day", okStatus: 200 },
    { operationId: "listReferralSales", handler: meSales.GET, method: "GET", url: "/api/partner/v1/me/sales?limit=5", okStatus: 200 },
    { operationId: "listCommissions", handler: meCommissions.GET, method: "GET", url: "/api/partner/v1/me/commissions?limit=5", okStatus: 200 },
    { operationId: "listReferralPayouts", handler: mePayouts.GET, method: "GET", url: "/api/partner/v1/me/payouts?limit=5", okStatus: 200 },
    { operationId: "getReferralAnalytics", handler: analytics.GET, method: "GET", url: "/api/partner/v1/analytics?from=2020-01-01", okStatus: 200 },
  ];
}

/** Options of the partner the shared table signs as: an affiliate, so the referral samples succeed. */
export const samplePartnerOptions = { isAffiliate: true } as const;

export function contractFor(operationId: string): EndpointContract {
  const contract = partnerContracts.find((c) => c.operationId === operationId);
  if (!contract) throw new Error(`no contract with operationId ${operationId}`);
  return contract;
}
