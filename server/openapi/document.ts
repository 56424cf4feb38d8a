import { partnerContracts } from "@/server/contracts";
import { getEnv } from "@/server/env";
import { buildOpenApiDocument, type OpenApiDocument } from "./build";

// The served document: built once per process from every partner contract.

let cached: { json: string; document: OpenApiDocument } | undefined;

export function getOpenApiDocument(): OpenApiDocument {
  return (cached ??= build()).document;
}

/** The serialised document, so each request does not re-stringify it. */
export function getOpenApiJson(): string {
  return (cached ??= build()).json;
}

function build() {
  const document = buildOpenApiDocument({ contracts: partnerContracts, serverUrl: getEnv().APP_URL });
  return { document, json: JSON.stringify(document) };
}
