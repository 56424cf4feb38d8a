// POST /mcp - the MCP tool server (stateless Streamable HTTP), tool search_domain
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { getDb } from "@/db/client";
import { errorResponse, requestIdFor } from "@/server/http/respond";
import { identifyPublicCaller } from "@/server/public/caller";
import { publicCorsHeaders, publicPreflight } from "@/server/public/cors";
import { createPublicMcpServer } from "@/server/public/mcp-server";

// GET (server-initiated SSE stream) and DELETE (session end) do not exist in
// stateless mode; Next.js answers them 405, which MCP clients expect.

const MCP_HEADERS = ["mcp-protocol-version", "mcp-session-id", "last-event-id"];
const MAX_BODY_BYTES = 64 * 1024;

export async function POST(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  const headers = { ...publicCorsHeaders(MCP_HEADERS), "x-request-id": requestId };
  try {
    const db = getDb();
    const caller = await identifyPublicCaller(db, request, "mcp");
    const server = createPublicMcpServer(db, caller);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
      maxRequestBodySize: MAX_BODY_BYTES,
    });
    await server.connect(transport);
    const response = await transport.handleRequest(request);
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
