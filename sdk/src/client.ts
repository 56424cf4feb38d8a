import createClient, { type Client } from "openapi-fetch";
import { errorFromBody } from "./errors.js";
import type { operations, paths } from "./generated/openapi.js";
import { paginate, type CursorPath, type PageItem, type PageQuery } from "./pagination.js";
import { createTransport, type TransportOptions } from "./transport.js";

// The partner client: openapi-fetch over the generated `paths`, sending through
// the signing and retrying transport. The named methods cover the common flow
// and throw PartnerApiError on any non-2xx; `api` is the full typed client for
// every other operation (it returns {data, error, response} as openapi-fetch does).

export interface PartnerClientOptions extends TransportOptions {
  /** The service's address, e.g. https://marketplace.example (no /api/partner/v1). */
  baseUrl: string;
}

type Json<R> = R extends { content: { "application/json": infer T } } ? T : never;
type Ok<O> = O extends { responses: infer R } ? (R extends { 200: infer A } ? Json<A> : R extends { 201: infer B } ? Json<B> : never) : never;
type Body<O> = O extends { requestBody: { content: { "application/json": infer T } } } ? T : never;
type Query<O> = O extends { parameters: { query?: infer Q } } ? NonNullable<Q> : never;

export type SearchResult = Ok<operations["searchDomains"]>;
export type Domain = Ok<operations["getDomain"]>;
export type Availability = Ok<operations["getAvailability"]>;
export type Pricing = Ok<operations["getPricing"]>;
export type QuoteInput = Body<operations["createQuote"]>;
export type Quote = Ok<operations["createQuote"]>;
export type OrderInput = Body<operations["createOrder"]>;
export type Order = Ok<operations["createOrder"]>;
export type OrderDetail = Ok<operations["getOrder"]>;
export type OrderQuery = Query<operations["listOrders"]>;
export type OrderPage = Ok<operations["listOrders"]>;
export type Event = Ok<operations["listEvents"]>["events"][number];
export type WebhookInput = Body<operations["registerWebhook"]>;
export type WebhookEndpoint = Ok<operations["registerWebhook"]>;

/** Resolves the data of a 2xx, throws PartnerApiError for anything else. */
async function unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFromBody(response.status, response.headers, error);
  return data as T;
}

export function createPartnerClient(options: PartnerClientOptions) {
  const api: Client<paths> = createClient<paths>({ baseUrl: options.baseUrl.replace(/\/+$/, ""), fetch: createTransport(options) });

  return {
    api,
    searchDomains: (q: string, query: Omit<Query<operations["searchDomains"]>, "q"> = {}) =>
      unwrap(api.GET("/api/partner/v1/domains/search", { params: { query: { ...query, q } } })),
    getDomain: (name: string) => unwrap(api.GET("/api/partner/v1/domains/{name}", { params: { path: { name } } })),
    getAvailability: (domain: string) => unwrap(api.GET("/api/partner/v1/availability", { params: { query: { domain } } })),
    getPricing: (domain: string) => unwrap(api.GET("/api/partner/v1/pricing", { params: { query: { domain } } })),
    createQuote: (body: QuoteInput) => unwrap(api.POST("/api/partner/v1/quotes", { body })),
    /** Records a partner-collected sale. Without `idempotencyKey` a UUID v4 is made, and kept across this call's retries. */
    createOrder: (body: OrderInput, extra: { idempotencyKey?: string } = {}) =>
      unwrap(
        api.POST("/api/partner/v1/orders", {
          body,
          // The transport fills an empty key; the generated type insists on the header.
          params: { header: (extra.idempotencyKey ? { "Idempotency-Key": extra.idempotencyKey } : {}) as { "Idempotency-Key": string } },
        }),
      ),
    getOrder: (publicId: string) => unwrap(api.GET("/api/partner/v1/orders/{public_id}", { params: { path: { public_id: publicId } } })),
    listOrders: (query: OrderQuery = {}) => unwrap(api.GET("/api/partner/v1/orders", { params: { query } })),
    /** Every order matching `query`, page after page (`limit` is the page size). */
    orders: (query: OrderQuery = {}) => paginate(api, "/api/partner/v1/orders", query),
    /** Any cursor-paged list, item by item. */
    paginate: <P extends CursorPath>(path: P, query: PageQuery<P> = {} as PageQuery<P>): AsyncGenerator<PageItem<P>> => paginate(api, path, query),
    /** The event history after `afterId` (exclusive; from the start when omitted), in order. */
    events: async function* (afterId?: string, limit?: number): AsyncGenerator<Event> {
      let after = afterId;
      for (;;) {
        const page = await unwrap(api.GET("/api/partner/v1/events", { params: { query: { after_id: after, limit } } }));
        yield* page.events;
        if (!page.next_cursor || page.events.length === 0) return;
        after = page.next_cursor;
      }
    },
    registerWebhook: (body: WebhookInput) => unwrap(api.PUT("/api/partner/webhooks", { body })),
  };
}

export type PartnerClient = ReturnType<typeof createPartnerClient>;
export { unwrap };
