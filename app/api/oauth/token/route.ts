import { methodsNotAllowed } from "@/server/http/partner-route";
import { optionsHandler, tokenHandler } from "@/server/oauth/http";

// OAuth 2.1 token endpoint: authorization_code (PKCE S256) and refresh_token.
export const dynamic = "force-dynamic";
export const POST = tokenHandler;
export const OPTIONS = optionsHandler;

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
