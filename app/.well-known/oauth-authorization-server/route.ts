import { methodsNotAllowed } from "@/server/http/partner-route";
import { authorizationServerMetadataHandler, optionsHandler } from "@/server/oauth/http";

// RFC 8414 authorization server metadata (same document at both well-known paths).
export const dynamic = "force-dynamic";
export const GET = authorizationServerMetadataHandler;
export const OPTIONS = optionsHandler;

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
