// Errors of the OAuth endpoints, whose bodies follow RFC 6749 §5.2 / RFC 7591 §3.2.2
// (`{"error","error_description"}`) instead of the service-wide JSON error shape.

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "invalid_scope"
  | "invalid_target"
  | "invalid_redirect_uri"
  | "invalid_client_metadata"
  | "access_denied"
  | "unsupported_response_type"
  | "temporarily_unavailable"
  | "server_error";

export class OAuthError extends Error {
  override name = "OAuthError";
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
    readonly status = error === "invalid_client" ? 401 : error === "server_error" ? 500 : 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(`${error}: ${description}`);
  }
}

export function isOAuthError(error: unknown): error is OAuthError {
  return error instanceof OAuthError;
}
