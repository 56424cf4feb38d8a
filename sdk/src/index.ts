// @pdm/partner-sdk: a typed client of the Partner Domain Marketplace API.
export { createPartnerClient, unwrap } from "./client.js";
export type * from "./client.js";
export { PartnerApiError, parseRetryAfter, type ErrorCode, type ErrorDetail } from "./errors.js";
export { paginate, type CursorPath, type PageItem, type PageQuery } from "./pagination.js";
export { canonicalQuery, canonicalString, signRequest, type Credentials, type SignInput } from "./signing.js";
export { backoffDelay, createTransport, type RetryInfo, type RetryOptions, type TransportOptions } from "./transport.js";
export { standardWebhooksKey, verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookEvent } from "./webhooks.js";
export type { components, operations, paths } from "./generated/openapi.js";
