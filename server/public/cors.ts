// CORS of the public search and the MCP endpoint: any origin, no cookies (the
// bearer token travels in Authorization), and the headers a browser client must
// read (challenge, limits, request id) exposed.

export function publicCorsHeaders(allowHeaders: string[] = []): Record<string, string> {
  return {
    "access-control-allow-origin": "*",
    "access-control-allow-methods": "POST, OPTIONS",
    "access-control-allow-headers": ["authorization", "content-type", "x-request-id", ...allowHeaders].join(", "),
    "access-control-expose-headers":
      "www-authenticate, retry-after, ratelimit-limit, ratelimit-remaining, ratelimit-reset, x-request-id, mcp-session-id",
    "access-control-max-age": "86400",
  };
}

export function publicPreflight(allowHeaders: string[] = []): Response {
  return new Response(null, { status: 204, headers: publicCorsHeaders(allowHeaders) });
}
