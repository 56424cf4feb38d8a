import { methodsNotAllowed } from "@/server/http/partner-route";
import { optionsHandler, registerHandler } from "@/server/oauth/http";

// RFC 7591 dynamic client registration (public clients only).
export const dynamic = "force-dynamic";
export const POST = registerHandler;
export const OPTIONS = optionsHandler;

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
