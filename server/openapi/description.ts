import { rateClasses } from "@/server/http/contract";
import { NONCE_TTL_MS, TIMESTAMP_SKEW_SECONDS } from "@/server/http/authenticate";

// The prose of the API reference: the conventions every endpoint shares, stated
// once and precisely enough to write a client from. Decisions the spec leaves
// open are recorded here (and in each operation's description).

const nonceSeconds = NONCE_TTL_MS / 1000;

export const apiDescription = `
The partner interface of the domain marketplace: search the inventory, read prices and
availability, sell domains (merchant-of-record orders or hosted checkout), and read
settlements, referrals, brokerage cases and events.

## Environments

Sandbox and live share this base address; the credential chooses the environment.
Key ids are \`pk_sandbox_\` or \`pk_live_\` followed by 24 base62 characters (\`[0-9A-Za-z]\`);
secrets are \`sk_sandbox_\` / \`sk_live_\` followed by 40 base62 characters and are shown once,
at creation. Every read and write is partitioned by environment: a sandbox key sees only
the sandbox inventory (synthetic test domains and prices) and sandbox orders, quotes,
events and settlements; a live key only live ones. Live keys are issued after the
partner's production access is approved.

## Signing requests

Every request except \`GET /api/partner/v1/openapi.json\` carries four headers (names are
case-insensitive):

| Header | Value |
|---|---|
| \`X-Service-Key-Id\` | The credential's key id. |
| \`X-Service-Timestamp\` | Unix time in whole **seconds**, UTC, as decimal digits. |
| \`X-Service-Nonce\` | A fresh unique value per request (UUID v4 recommended), 1-128 visible ASCII characters. |
| \`X-Service-Signature\` | \`v1=\` followed by the lowercase hex HMAC-SHA256 of the canonical string, keyed with the secret's UTF-8 bytes. |

The secret itself never travels. The canonical string is exactly six lines joined by a
line feed (\`\\n\`, no trailing newline):

1. \`METHOD\`: the HTTP verb in uppercase.
2. \`PATH\`: the URL path as sent, starting with \`/\` and including \`/api/partner/v1\`, without the query.
3. \`QUERY\`: the canonical query (below); an empty line when there is no query.
4. \`TIMESTAMP\`: the exact text of \`X-Service-Timestamp\`.
5. \`NONCE\`: the exact text of \`X-Service-Nonce\`.
6. \`BODY_SHA256\`: lowercase hex SHA-256 of the raw body bytes exactly as sent; for GET, HEAD
   or no body, the hash of empty input
   (\`e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855\`).

Canonical query:

- Split the raw query into \`key=value\` pairs and decode them exactly as WHATWG
  \`URLSearchParams\` does: \`+\` is a space, percent escapes are decoded as UTF-8, a malformed
  \`%\` escape stays literal, a pair without \`=\` has an empty value.
- Sort the pairs by key, then by value, comparing the decoded strings by UTF-16 code
  units (JavaScript's default string order). Repeated keys keep all their values.
- Encode each key and value with \`encodeURIComponent\`, additionally escaping \`!\`, \`'\`,
  \`(\`, \`)\` and \`*\` as \`%21\`, \`%27\`, \`%28\`, \`%29\`, \`%2A\` (uppercase hex), join each pair
  as \`key=value\` and the pairs with \`&\`.

Example: \`GET /api/partner/v1/domains/search?q=pizza%20shop&limit=3\` signed at
\`1767225600\` with nonce \`6f1c0a52-3b7e-4d7e-9a51-2d0c8f1e9b44\` has the canonical string

\`\`\`
GET
/api/partner/v1/domains/search
limit=3&q=pizza%20shop
1767225600
6f1c0a52-3b7e-4d7e-9a51-2d0c8f1e9b44
e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
\`\`\`

Replay protection: the timestamp must be within ${TIMESTAMP_SKEW_SECONDS} seconds of server time
either way. A nonce is remembered per credential for ${nonceSeconds} seconds (twice the skew
window) once its signature has verified, so no nonce can be replayed while its timestamp
is acceptable; every retry must be signed again with a fresh nonce.

Signature checks run in this order and stop at the first failure:

1. no \`X-Service-Key-Id\` -> 401 \`missing_credentials\`;
2. any other of the four headers missing -> 401 \`missing_signature_headers\`;
3. unknown or revoked key id -> 401 \`invalid_signature\`;
4. timestamp malformed or outside the window -> 401 \`invalid_timestamp\`;
5. signature mismatch -> 401 \`invalid_signature\`;
6. the key has an IP allow-list and the caller's address is not in it -> 403 \`ip_not_allowed\`;
7. staff have suspended the partner account -> 403 \`partner_suspended\` (every key, both
   environments, until reinstated; only a correctly signed request is told);
8. nonce already seen -> 401 \`replay_detected\`;
9. credential lacks the operation's scope -> 403 \`forbidden\`;
10. rate limit exceeded -> 429 \`rate_limited\`;
11. then the endpoint's own validation (400 \`validation_error\`) and logic.

Rolling a key (dashboard or \`npm run partner -- keys roll\`) issues a new secret for the same
key id. With a grace period (1 hour, 24 hours or 7 days) the old secret keeps verifying
until the grace ends, so servers can be updated one by one; rolling again or revoking
ends the grace at once.

Every signed request whose key id is known is kept 30 days in the dashboard's request log
(time, key, method, path, status, error code, request id, latency, client address). For
sandbox keys only, a request refused at steps 4, 5 or 8 also records the canonical string the
server computed and which part failed, so the dashboard can show what to fix; nothing of the
kind is stored for live keys.

Scopes: \`search\`, \`embed\`, \`buy\`, \`broker\`, \`refer\`, \`report\`, \`webhook\`, granted per
credential. Each operation lists the scopes it accepts in \`x-scopes\`; holding any one of
them is enough.

## Errors

Every error, on every endpoint and status, has the body

\`\`\`json
{"error": {"code": "validation_error", "message": "domain: must be a domain name such as example.com",
           "request_id": "req_...", "details": [{"path": "domain", "message": "..."}]}}
\`\`\`

\`code\` is stable and is what clients branch on; \`message\` is for humans; \`details\` appears
on \`validation_error\` with one entry per invalid field, \`path\` naming the field as sent
(\`domain\`, \`buyer.email\`). Statuses: 400 \`validation_error\` (also a body that is not JSON)
and \`missing_idempotency_key\`; 401 for the signature codes above; 403 \`forbidden\`, \`ip_not_allowed\` and \`partner_suspended\`;
404 \`not_found\` (also any unknown path under the API, and another partner's object, whose
existence is never revealed); 405 \`method_not_allowed\` (with \`Allow\`); 409 \`conflict\`;
413 \`payload_too_large\` (bodies over 1 MiB); 422 \`price_mismatch\`, \`quote_expired\`;
429 \`rate_limited\`; 500 \`internal_error\` (retry with exponential back-off); 503
\`payments_unavailable\` (POST /checkout-session with a live key while the service has no live
payment processor configured; nothing was created).

Every response carries \`X-Request-Id\`: a well-formed incoming \`X-Request-Id\`
(\`[A-Za-z0-9._:-]\`, 1-128 characters) is echoed, otherwise one is generated.

## Rate limits

Limits are per credential and per class, as a smoothly refilling bucket:
\`search\` ${rateClasses.search}/min (discovery), \`write\` ${rateClasses.write}/min (quotes, orders,
checkout sessions, refunds, brokerage and link creation), \`reporting\` ${rateClasses.reporting}/min
(everything else, events and \`/me/*\` included). Each operation names its class in
\`x-rate-limit-class\`. Every signed response that passed authentication carries
\`RateLimit-Limit\` (requests per minute of the class), \`RateLimit-Remaining\` (requests that
may be sent right now) and \`RateLimit-Reset\` (seconds until the full quota is back); a 429
also carries \`Retry-After\` in whole seconds.

## Conventions

- Money is an integer number of minor units (\`*_cents\`) next to a three-letter uppercase
  ISO 4217 \`currency\`; never a float. Inventory is priced in USD unless a listing says otherwise.
- Times are ISO 8601 UTC strings. Date filters are \`from\` (inclusive) and \`to\` (exclusive),
  each an ISO 8601 date or date-time in UTC.
- Lists take \`limit\` (default 20, max 100) and \`cursor\`, and answer
  \`{"data": [...], "next_cursor": "<opaque>" | null}\`; pass \`next_cursor\` back as \`cursor\`
  until it is null. \`GET /events\` answers \`{"events": [...], "next_cursor": ...}\` with
  \`after_id\` (exclusive) and \`limit\` (default 50, max 200), in ascending id order.
- Domain names in input are case-insensitive; a trailing dot is ignored and
  internationalised names are converted to punycode. Output names are lowercase ASCII.
- Request bodies are JSON (\`Content-Type: application/json\`); unknown fields are ignored.
  Responses may gain new fields over time; clients must ignore fields they do not know.
- \`POST /orders\` requires \`Idempotency-Key\`: the key is scoped to the partner and
  environment and kept 24 hours; the same key with the same body (SHA-256 of the raw
  bytes) replays the stored response, a different body gets 409 \`conflict\`.
`.trim();
