import { optionsHandler, protectedResourceHandler } from "@/server/oauth/http";

// RFC 9728 metadata of the MCP server (resource = {MCP_URL}/mcp).
export const dynamic = "force-dynamic";
export const GET = () => protectedResourceHandler("mcp");
export const OPTIONS = optionsHandler;
