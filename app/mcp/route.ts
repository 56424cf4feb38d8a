// POST /mcp - the MCP tool server (stateless Streamable HTTP), tool search_domain
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getDb } from "@/db/client";
import { BODY_LIMITS, readBodyLimited } from "@/server/http/body";
import { errorResponse, requestIdFor } from "@/server/http/respond";
import { identifyPublicCaller } from "@/server/public/caller";
import { publicCorsHeaders, publicPreflight } from "@/server/public/cors";
import { createPublicMcpServer } from "@/server/public/mcp-server";
import { methodsNotAllowed } from "@/server/http/partner-route";

// GET (server-initiated SSE stream) and DELETE (session end) do not exist in
// stateless mode; Next.js answers them 405, which MCP clients expect.

const MCP_HEADERS = ["mcp-protocol-version", "mcp-session-id", "last-event-id"];

export async function POST(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  const headers = { ...publicCorsHeaders(MCP_HEADERS), "x-request-id": requestId };
  try {
    // Bounded before any other work; the transport then reads the buffered copy.
    const body = await readBodyLimited(request, BODY_LIMITS.mcp);
    const db = getDb();
    const caller = await identifyPublicCaller(db, request, "mcp");
    const server = createPublicMcpServer(db, caller);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: BODY_LIMITS.mcp,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(new Request(request.url, { method: "POST", headers: request.headers, body: body as Uint8Array<ArrayBuffer> }));
    // With JSON responses the body is complete once handleRequest resolves.
    await server.close();
    return withHeaders(response, headers);
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}

export function OPTIONS(): Response {
  return publicPreflight(MCP_HEADERS);
}

function withHeaders(response: Response, headers: Record<string, string>): Response {
  const merged = new Headers(response.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers: merged });
}

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
