import { methodsNotAllowed } from "@/server/http/partner-route";
import { optionsHandler, protectedResourceHandler } from "@/server/oauth/http";

// RFC 9728 metadata of the MCP server (resource = {MCP_URL}/mcp).
export const dynamic = "force-dynamic";
export const GET = () => protectedResourceHandler("mcp");
export const OPTIONS = optionsHandler;

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
