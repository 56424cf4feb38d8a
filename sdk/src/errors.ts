import type { components } from "./generated/openapi.js";

// Every error the API answers has the body {"error": {code, message, request_id, details?}};
// PartnerApiError carries it, so callers branch on `code`.

export type ErrorCode = components["schemas"]["Error"]["error"]["code"];
export type ErrorDetail = NonNullable<components["schemas"]["Error"]["error"]["details"]>[number];

export class PartnerApiError extends Error {
  override readonly name = "PartnerApiError";

  constructor(
    /** HTTP status. */
    readonly status: number,
    /** The envelope's stable code; `unexpected_response` when the body was not the envelope (a proxy's page, say). */
    readonly code: ErrorCode | "unexpected_response",
    message: string,
    /** X-Request-Id of the failed request: quote it to support. */
    readonly requestId: string | null,
    /** One entry per invalid field, on validation_error. */
    readonly details: ErrorDetail[] = [],
    /** Seconds the server asked to wait (429). */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(`${status} ${code}: ${message}`);
  }
}

/** A non-2xx answer as a PartnerApiError; `body` is the parsed JSON, or the text when it was not JSON. */
export function errorFromBody(status: number, headers: Headers, body: unknown): PartnerApiError {
  const retryAfter = parseRetryAfter(headers.get("retry-after"));
  const requestId = headers.get("x-request-id");
  const error = typeof body === "object" && body !== null ? (body as { error?: Record<string, unknown> }).error : undefined;
  if (error && typeof error.code === "string" && typeof error.message === "string") {
    const details = Array.isArray(error.details) ? (error.details as ErrorDetail[]) : [];
    const id = typeof error.request_id === "string" ? error.request_id : requestId;
    return new PartnerApiError(status, error.code as ErrorCode, error.message, id, details, retryAfter);
  }
  const text = typeof body === "string" ? body : JSON.stringify(body ?? "");
  return new PartnerApiError(status, "unexpected_response", text.slice(0, 200) || `HTTP ${status}`, requestId, [], retryAfter);
}

/** Retry-After as seconds: an integer, or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === "") return null;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}
