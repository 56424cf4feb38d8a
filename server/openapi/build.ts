import { webhookOperations } from "./webhooks";
import { z } from "zod";
import { errorBodySchema } from "@/server/contracts/common";
import { rateClasses, type EndpointContract } from "@/server/http/contract";
import { errorCodes, type ErrorCode } from "@/server/errors";
import { apiDescription } from "./description";

// The OpenAPI 3.1 document, built from the endpoint contracts with zod's own
// JSON Schema generator (draft 2020-12, the dialect OpenAPI 3.1 uses). Inputs
// (path, query, body) are described as the client sends them (io "input"),
// responses as the server writes them (io "output"). Schemas carrying
// `.meta({ id })` become components.schemas entries.

export type Json = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  servers: { url: string; description?: string }[];
  tags: { name: string; description?: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, Record<string, Json>>;
  /** What the service POSTs to partners (OpenAPI 3.1 `webhooks`). */
  webhooks: Record<string, Json>;
  components: {
    securitySchemes: Record<string, Json>;
    schemas: Record<string, Json>;
    headers: Record<string, Json>;
    parameters: Record<string, Json>;
  };
}

export interface BuildOptions {
  contracts: readonly EndpointContract[];
  serverUrl: string;
  version?: string;
}

export const API_VERSION = "1.0.0";
export const OPENAPI_PATH = "/api/partner/v1/openapi.json";

const tagDescriptions: Record<string, string> = {
  Discovery: "Search the inventory, read one domain, check availability and prices. Scope `search`, rate class `search`.",
  Meta: "The API reference itself.",
  Payments: "Notifications from the payment processor (Stripe) that hosted checkout pays through. Not for partners: authenticated by Stripe's signature.",
};

const securitySchemes: Record<string, Json> = {
  ServiceKeyId: {
    type: "apiKey",
    in: "header",
    name: "X-Service-Key-Id",
    description: "Public key id of the credential: `pk_sandbox_` or `pk_live_` + 24 base62 characters. Selects the environment.",
  },
  ServiceTimestamp: {
    type: "apiKey",
    in: "header",
    name: "X-Service-Timestamp",
    description: "Unix time in whole seconds (UTC); must be within 300 s of server time.",
  },
  ServiceNonce: {
    type: "apiKey",
    in: "header",
    name: "X-Service-Nonce",
    description: "Unique per request (UUID v4 recommended); remembered for 600 s.",
  },
  ServiceSignature: {
    type: "apiKey",
    in: "header",
    name: "X-Service-Signature",
    description: "`v1=` + lowercase hex HMAC-SHA256 of the canonical string (see the API description), keyed with the secret.",
  },
};

/** All four headers together: one requirement object lists them (logical AND). */
const signedSecurity = [Object.fromEntries(Object.keys(securitySchemes).map((name) => [name, [] as string[]]))];

const headers: Record<string, Json> = {
  "X-Request-Id": {
    description: "Request id: the incoming X-Request-Id when well-formed, else a generated one. Quote it to support.",
    schema: { type: "string" },
  },
  "RateLimit-Limit": {
    description: "Requests per minute allowed in this operation's rate-limit class.",
    schema: { type: "integer" },
  },
  "RateLimit-Remaining": {
    description: "Requests that may be sent right now in this class.",
    schema: { type: "integer" },
  },
  "RateLimit-Reset": {
    description: "Seconds until the full quota of this class is available again.",
    schema: { type: "integer" },
  },
  "Retry-After": {
    description: "Whole seconds to wait before retrying.",
    schema: { type: "integer" },
  },
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const rateLimitHeaders = {
  "RateLimit-Limit": headerRef("RateLimit-Limit"),
  "RateLimit-Remaining": headerRef("RateLimit-Remaining"),
  "RateLimit-Reset": headerRef("RateLimit-Reset"),
};

const parameters: Record<string, Json> = {
  RequestId: {
    name: "X-Request-Id",
    in: "header",
    required: false,
    description: "Optional client request id (`[A-Za-z0-9._:-]`, 1-128 characters), echoed in the response.",
    schema: { type: "string", pattern: "^[A-Za-z0-9._:-]{1,128}$" },
  },
};

/** Codes every signed operation can answer, besides its own. */
const signedRouteErrors: readonly ErrorCode[] = [
  "missing_credentials",
  "missing_signature_headers",
  "invalid_signature",
  "invalid_timestamp",
  "replay_detected",
  "ip_not_allowed",
  "partner_suspended",
  "forbidden",
  "rate_limited",
  "internal_error",
];

const statusText: Record<number, string> = {
  400: "Invalid request",
  401: "Authentication failed",
  403: "Not allowed for this credential",
  404: "Not found",
  409: "Conflict",
  413: "Body too large",
  422: "Unprocessable",
  429: "Rate limit exceeded",
  500: "Unexpected server error",
};

/**
 * Turns zod schemas into JSON Schema fragments, moving named schemas into
 * components.schemas. An input-side variant that differs from the output-side
 * schema of the same id is stored as `<id>Input`.
 */
class SchemaCollector {
  readonly components: Record<string, Json> = {};
  private readonly io = new Map<string, "input" | "output">();

  convert(schema: z.ZodType, io: "input" | "output"): Json {
    const generated = z.toJSONSchema(schema, {
      target: "draft-2020-12",
      io,
      unrepresentable: "any",
      override: ({ jsonSchema }) => {
        // Responses may gain fields; clients must not reject unknown ones.
        if (io === "output" && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
      },
    }) as Json;
    const { $schema: _dialect, $defs, ...root } = generated;
    const defs = ($defs ?? {}) as Record<string, Json>;
    const names = new Map<string, string>();
    for (const id of Object.keys(defs)) names.set(id, this.nameFor(id, io, defs[id] as Json));
    for (const [id, def] of Object.entries(defs)) {
      const name = names.get(id) as string;
      this.components[name] ??= rewriteRefs(def, names) as Json;
      this.io.set(name, io);
    }
    return rewriteRefs(root, names) as Json;
  }

  private nameFor(id: string, io: "input" | "output", def: Json): string {
    const existing = this.components[id];
    if (!existing || this.io.get(id) === io) return id;
    const same = JSON.stringify(existing) === JSON.stringify(rewriteRefs(def, new Map([[id, id]])));
    return same ? id : `${id}${io === "input" ? "Input" : "Output"}`;
  }
}

function rewriteRefs(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteRefs(item, names));
  if (value === null || typeof value !== "object") return value;
  const out: Json = {};
  for (const [key, item] of Object.entries(value as Json)) {
    if (key === "$ref" && typeof item === "string" && item.startsWith("#/$defs/")) {
      const id = item.slice("#/$defs/".length);
      out[key] = `#/components/schemas/${names.get(id) ?? id}`;
    } else {
      out[key] = rewriteRefs(item, names);
    }
  }
  return out;
}

/** Path or query object schema -> OpenAPI parameter objects, one per property. */
function objectParameters(collector: SchemaCollector, schema: z.ZodType, location: "path" | "query"): Json[] {
  const json = collector.convert(schema, "input");
  const properties = (json.properties ?? {}) as Record<string, Json>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, examples, ...propertySchema } = property;
    return {
      name,
      in: location,
      required: location === "path" || required.has(name),
      ...(typeof description === "string" ? { description } : {}),
      ...(Array.isArray(examples) && examples.length > 0 ? { example: examples[0] } : {}),
      schema: propertySchema,
    };
  });
}

function errorCodesOf(contract: EndpointContract): ErrorCode[] {
  const codes = new Set<ErrorCode>([...signedRouteErrors, ...(contract.errors ?? [])]);
  if (contract.params || contract.query || contract.body) codes.add("validation_error");
  if (contract.body) codes.add("payload_too_large");
  if (contract.requiredHeaders?.some((h) => h.name.toLowerCase() === "idempotency-key")) codes.add("missing_idempotency_key");
  return [...codes];
}

function errorResponses(codes: ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCodes[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<string, Json> = {};
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) {
    const list = (byStatus.get(status) ?? []).map((code) => `\`${code}\``).join(", ");
    responses[String(status)] = {
      description: `${statusText[status] ?? "Error"}: ${list}.`,
      headers: {
        "X-Request-Id": headerRef("X-Request-Id"),
        // 401 and 403 are decided before a rate-limit token is taken.
        ...(status === 401 || status === 403 ? {} : rateLimitHeaders),
        ...(status === 429 ? { "Retry-After": headerRef("Retry-After") } : {}),
      },
      content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
    };
  }
  return responses;
}

function operationFor(collector: SchemaCollector, contract: EndpointContract): Json {
  const params: Json[] = [
    ...(contract.params ? objectParameters(collector, contract.params, "path") : []),
    ...(contract.query ? objectParameters(collector, contract.query, "query") : []),
    ...(contract.requiredHeaders ?? []).map((header) => ({
      name: header.name,
      in: "header",
      required: true,
      description: header.description,
      schema: { type: "string" },
    })),
    { $ref: "#/components/parameters/RequestId" },
  ];
  const perMinute = rateClasses[contract.rateClass];
  const scopeText = contract.scopes.map((scope) => `\`${scope}\``).join(" or ");
  const status = contract.successStatus ?? 200;
  return {
    operationId: contract.operationId,
    tags: [contract.tag],
    summary: contract.summary,
    description: [
      contract.description ?? contract.summary,
      `Requires scope ${scopeText}. Rate-limit class \`${contract.rateClass}\` (${perMinute} requests per minute per credential).`,
    ].join("\n\n"),
    "x-scopes": [...contract.scopes],
    "x-rate-limit-class": contract.rateClass,
    "x-rate-limit-per-minute": perMinute,
    security: signedSecurity,
    parameters: params,
    ...(contract.body
      ? { requestBody: { required: true, content: { "application/json": { schema: collector.convert(contract.body, "input") } } } }
      : {}),
    responses: {
      [String(status)]: {
        description: contract.summary,
        headers: { "X-Request-Id": headerRef("X-Request-Id"), ...rateLimitHeaders },
        content: { "application/json": { schema: collector.convert(contract.response, "output") } },
      },
      ...errorResponses(errorCodesOf(contract)),
    },
  };
}

/** The public, unsigned operation serving this document. */
function openApiOperation(): Json {
  return {
    operationId: "getOpenApiDocument",
    tags: ["Meta"],
    summary: "This OpenAPI 3.1 document",
    description: "Public: no signature, no rate limit. Cached for 5 minutes (`Cache-Control: public, max-age=300`).",
    security: [],
    responses: {
      "200": {
        description: "The OpenAPI document.",
        headers: { "X-Request-Id": headerRef("X-Request-Id") },
        content: { "application/json": { schema: { type: "object" } } },
      },
    },
  };
}

/** Stripe's signed notifications (not a partner operation: Stripe-Signature, not the service's signature). */
export const STRIPE_WEBHOOK_PATH = "/api/payments/stripe/webhook";

function stripeWebhookOperation(): Json {
  return {
    operationId: "receiveStripeWebhook",
    tags: ["Payments"],
    summary: "Stripe's event notifications (hosted checkout payments and disputes)",
    description:
      "Called by Stripe, never by partners. The raw body is verified with the Stripe SDK's `webhooks.constructEvent` against " +
      "`STRIPE_WEBHOOK_SECRET` (then `STRIPE_TEST_WEBHOOK_SECRET`, for sandbox checkout on Stripe's test mode) and the SDK's default " +
      "tolerance of 300 s; a missing, wrong or stale `Stripe-Signature` is 400 `validation_error` and changes nothing.\n\n" +
      "Handled: `payment_intent.succeeded` records the checkout session's order (PAID, or MANUAL_REVIEW above the risk threshold; " +
      "commission, referral attribution, `order.paid` event) exactly once per intent, however often and in whatever order Stripe " +
      "delivers it (deduplicated by event id and by intent); a success for a domain sold meanwhile is refunded through Stripe. " +
      "`payment_intent.payment_failed` records nothing (the buyer may try again on the same intent). `charge.dispute.created` holds " +
      "the order in MANUAL_REVIEW and the partner's commission (`order.disputed`); `charge.dispute.closed` won releases both " +
      "(`order.dispute_won`), lost reverses the sale (REFUNDED, commission reversed, `order.refunded`). Every other type: 200, ignored.\n\n" +
      "503 `payments_unavailable` when no Stripe settings are configured; 500 when the event could not be processed (Stripe retries).",
    security: [],
    parameters: [{ name: "Stripe-Signature", in: "header", required: true, schema: { type: "string" }, description: "`t=<unix seconds>,v1=<hex HMAC-SHA256>`, as Stripe signs." }],
    requestBody: { required: true, content: { "application/json": { schema: { type: "object", description: "A Stripe Event object, verified on its raw bytes." } } } },
    responses: {
      "200": {
        description: "Acknowledged: handled, a duplicate of an event already handled, or a type the service ignores.",
        headers: { "X-Request-Id": headerRef("X-Request-Id") },
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["received", "event_id", "result"],
              properties: {
                received: { const: true },
                event_id: { type: "string" },
                result: { enum: ["handled", "duplicate", "ignored"] },
              },
            },
          },
        },
      },
      ...errorResponses(["validation_error", "payments_unavailable", "internal_error"]),
    },
  };
}

export function buildOpenApiDocument(options: BuildOptions): OpenApiDocument {
  const collector = new SchemaCollector();
  collector.convert(errorBodySchema, "output"); // components.schemas.Error, referenced by every error response
  const paths: Record<string, Record<string, Json>> = {};
  const seen = new Set<string>();
  for (const contract of options.contracts) {
    if (seen.has(contract.operationId)) throw new Error(`duplicate operationId ${contract.operationId}`);
    seen.add(contract.operationId);
    const item = (paths[contract.path] ??= {});
    const method = contract.method.toLowerCase();
    if (item[method]) throw new Error(`two contracts for ${contract.method} ${contract.path}`);
    item[method] = operationFor(collector, contract);
  }
  paths[OPENAPI_PATH] = { get: openApiOperation() };
  paths[STRIPE_WEBHOOK_PATH] = { post: stripeWebhookOperation() };
  const webhooks = webhookOperations((schema) => collector.convert(schema, "output"));

  const tagNames = [...new Set([...options.contracts.map((c) => c.tag), "Meta", "Payments"])];
  return {
    openapi: "3.1.0",
    info: { title: "Partner Domain Marketplace API", version: options.version ?? API_VERSION, description: apiDescription },
    servers: [{ url: options.serverUrl, description: "Sandbox and live share this address; the credential selects the environment." }],
    tags: tagNames.map((name) => ({ name, ...(tagDescriptions[name] ? { description: tagDescriptions[name] } : {}) })),
    security: signedSecurity,
    paths,
    webhooks,
    components: { securitySchemes, schemas: collector.components, headers, parameters },
  };
}
