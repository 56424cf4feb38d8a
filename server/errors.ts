// One error type for the whole service, mapped once to HTTP status and tRPC code.
// Services throw AppError; transports translate it and never invent their own.

export const errorCodes = {
  validation_error: { status: 400, trpc: "BAD_REQUEST" },
  missing_idempotency_key: { status: 400, trpc: "BAD_REQUEST" },
  invalid_signature: { status: 401, trpc: "UNAUTHORIZED" },
  missing_credentials: { status: 401, trpc: "UNAUTHORIZED" },
  missing_signature_headers: { status: 401, trpc: "UNAUTHORIZED" },
  invalid_timestamp: { status: 401, trpc: "UNAUTHORIZED" },
  replay_detected: { status: 401, trpc: "UNAUTHORIZED" },
  invalid_token: { status: 401, trpc: "UNAUTHORIZED" },
  unauthorized: { status: 401, trpc: "UNAUTHORIZED" },
  forbidden: { status: 403, trpc: "FORBIDDEN" },
  ip_not_allowed: { status: 403, trpc: "FORBIDDEN" },
  partner_suspended: { status: 403, trpc: "FORBIDDEN" },
  not_found: { status: 404, trpc: "NOT_FOUND" },
  method_not_allowed: { status: 405, trpc: "METHOD_NOT_SUPPORTED" },
  conflict: { status: 409, trpc: "CONFLICT" },
  payload_too_large: { status: 413, trpc: "PAYLOAD_TOO_LARGE" },
  price_mismatch: { status: 422, trpc: "UNPROCESSABLE_CONTENT" },
  quote_expired: { status: 422, trpc: "UNPROCESSABLE_CONTENT" },
  rate_limited: { status: 429, trpc: "TOO_MANY_REQUESTS" },
  internal_error: { status: 500, trpc: "INTERNAL_SERVER_ERROR" },
  /** Live payments are not configured (no STRIPE_* settings): nothing that would take money is created. */
  payments_unavailable: { status: 503, trpc: "SERVICE_UNAVAILABLE" },
} as const;

export type ErrorCode = keyof typeof errorCodes;

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers (Retry-After, WWW-Authenticate). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }

  get status(): number {
    return errorCodes[this.code].status;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export function notFound(what: string): AppError {
  return new AppError("not_found", `${what} not found`);
}

/** The JSON body of DECISIONS "Errors". */
export function errorBody(error: AppError, requestId: string) {
  return {
    error: {
      code: error.code,
      message: error.message,
      request_id: requestId,
      ...(error.details ? { details: error.details } : {}),
    },
  };
}

/** zod issues -> `details` entries such as `{path: "buyer.email"}`. */
export function validationError(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
  prefix?: string,
): AppError {
  const details = issues.map((issue) => ({
    path: [prefix, ...issue.path.map(String)].filter(Boolean).join("."),
    message: issue.message,
  }));
  const first = details[0];
  const summary = first ? `${first.path || "body"}: ${first.message}` : "invalid request";
  return new AppError("validation_error", summary, details);
}

/** PostgreSQL unique_violation (23505), as raised through postgres.js or wrapped by Drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") return true;
  }
  return false;
}
