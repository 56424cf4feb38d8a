import { AppError, errorBody } from "@/server/errors";
import { requestIdFor as requestIdFrom } from "./request-id";
import { logError } from "@/server/log";

// Response helpers shared by every JSON route: request ids and error mapping.

/** Echo a well-formed incoming X-Request-Id, else mint one. */
export function requestIdFor(request: Request): string {
  return requestIdFrom(request.headers.get("x-request-id"));
}

export function jsonResponse(body: unknown, status: number, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
  });
}

/**
 * Any thrown value -> the JSON error response. AppErrors keep their status;
 * anything else is logged with the request id and becomes 500 internal_error.
 */
export function errorResponse(
  error: unknown,
  requestId: string,
  headers: Record<string, string> = {},
  /** Overrides the code's status (health answers 503 for an unreachable database). */
  status?: number,
): Response {
  const appError = toAppError(error, requestId);
  return jsonResponse(errorBody(appError, requestId), status ?? appError.status, {
    ...headers,
    ...appError.headers,
    "x-request-id": requestId,
  });
}

export function toAppError(error: unknown, requestId: string): AppError {
  if (error instanceof AppError) return error;
  logError("unexpected error answered 500", error, { requestId });
  return new AppError("internal_error", "Something went wrong on our side; retry with exponential back-off.");
}
