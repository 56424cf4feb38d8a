import type { z } from "zod";
import type { ErrorCode } from "@/server/errors";

// An endpoint's contract: the one description that the route wrapper uses to
// authenticate, limit and parse, and that the OpenAPI document is built from.

export const scopes = ["search", "embed", "buy", "broker", "refer", "report", "webhook"] as const;
export type Scope = (typeof scopes)[number];

/** Rate-limit classes of DECISIONS "Lists, cursors, dates, limits" (requests per minute). */
export const rateClasses = { search: 60, write: 20, reporting: 30 } as const;
export type RateClass = keyof typeof rateClasses;

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface EndpointContract<
  TParams extends z.ZodType = z.ZodType,
  TQuery extends z.ZodType = z.ZodType,
  TBody extends z.ZodType = z.ZodType,
  TResponse extends z.ZodType = z.ZodType,
> {
  /** Stable name, used as the OpenAPI operationId. */
  operationId: string;
  method: HttpMethod;
  /** Full path in OpenAPI form, e.g. `/api/partner/v1/domains/{name}`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** The credential must hold at least one of these. */
  scopes: readonly Scope[];
  rateClass: RateClass;
  params?: TParams;
  query?: TQuery;
  body?: TBody;
  /** Headers the endpoint requires beyond the four signature headers. */
  requiredHeaders?: readonly { name: string; description: string }[];
  response: TResponse;
  successStatus?: 200 | 201 | 202;
  /** Endpoint-specific errors beyond the authentication ones every signed route has. */
  errors?: readonly ErrorCode[];
}

/** Identity helper that keeps the literal schema types. */
export function defineEndpoint<
  TParams extends z.ZodType = z.ZodNever,
  TQuery extends z.ZodType = z.ZodNever,
  TBody extends z.ZodType = z.ZodNever,
  TResponse extends z.ZodType = z.ZodType,
>(contract: EndpointContract<TParams, TQuery, TBody, TResponse>) {
  return contract;
}
