import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Db } from "@/db/client";
import { AppError } from "@/server/errors";
import type { PublicCaller } from "./caller";
import { PUBLIC_SEARCH_DEFAULT_RESULTS, PUBLIC_SEARCH_MAX_RESULTS, publicSearchInputShape, publicSearchOutputShape } from "./contract";
import { takePublicRateLimit } from "./rate-limit";
import { describePublicResults, searchPublicDomains } from "./search";

// The MCP tool server: one read-only tool, search_domain, answering with the same
// results as POST /api/domain/search. Stateless: a server per HTTP request, bound
// to the caller identified (token checked in-process) before the request reached it.

export const MCP_SERVER_NAME = "partner-domain-marketplace";
export const MCP_SERVER_VERSION = "1.0.0";

const SEARCH_DOMAIN_DESCRIPTION =
  "Search the marketplace's domains for sale by keywords, a name or a URL. Returns up to " +
  `${PUBLIC_SEARCH_MAX_RESULTS} listings (default ${PUBLIC_SEARCH_DEFAULT_RESULTS}), best match first, each with ` +
  "whether it can be bought now and its buy-now price in minor units (cents) of its currency. Prices are " +
  "masked (null, price_masked true) unless the connection carries an OAuth access token with scope pricing:read.";

export function createPublicMcpServer(db: Db, caller: PublicCaller): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { instructions: "Use search_domain to find domains for sale and their prices." },
  );
  server.registerTool(
    "search_domain",
    {
      title: "Search domains for sale",
      description: SEARCH_DOMAIN_DESCRIPTION,
      inputSchema: publicSearchInputShape,
      outputSchema: publicSearchOutputShape,
      annotations: { title: "Search domains for sale", readOnlyHint: true, openWorldHint: false, idempotentHint: true },
    },
    async ({ query, limit }): Promise<CallToolResult> => {
      try {
        await takePublicRateLimit(db, caller.bucket, caller.limit);
      } catch (error) {
        if (error instanceof AppError && error.code === "rate_limited") {
          return { isError: true, content: [{ type: "text", text: error.message }] };
        }
        throw error;
      }
      const response = await searchPublicDomains(db, { query, limit, priced: caller.priced });
      return {
        content: [{ type: "text", text: describePublicResults(query, response) }],
        structuredContent: response,
      };
    },
  );
  return server;
}
