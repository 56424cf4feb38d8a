import { authorizationServerMetadataHandler, optionsHandler } from "@/server/oauth/http";

// RFC 8414 authorization server metadata (same document at both well-known paths).
export const dynamic = "force-dynamic";
export const GET = authorizationServerMetadataHandler;
export const OPTIONS = optionsHandler;
