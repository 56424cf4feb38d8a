// POST /api/domain/search - public domain search; real prices with a valid bearer token, masked without
import { getDb } from "@/db/client";
import { AppError, validationError } from "@/server/errors";
import { errorResponse, jsonResponse, requestIdFor } from "@/server/http/respond";
import { admitPublicCaller } from "@/server/public/caller";
import { publicSearchInput, type PublicSearchInput } from "@/server/public/contract";
import { publicCorsHeaders, publicPreflight } from "@/server/public/cors";
import { BODY_LIMITS, readTextLimited } from "@/server/http/body";
import { rateLimitHeaders } from "@/server/http/rate-limit";
import { searchPublicDomains } from "@/server/public/search";
import { methodsNotAllowed } from "@/server/http/partner-route";

export async function POST(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  let headers: Record<string, string> = { ...publicCorsHeaders(), "x-request-id": requestId };
  try {
    const db = getDb();
    const raw = await readTextLimited(request, BODY_LIMITS.publicSearch); // bounded before any other work
    const caller = await admitPublicCaller(db, request, "app");
    headers = { ...headers, ...rateLimitHeaders(caller.rateLimit) };
    const input = parseBody(raw);
    return jsonResponse(await searchPublicDomains(db, { ...input, priced: caller.priced }), 200, headers);
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}

function parseBody(raw: string): PublicSearchInput {
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new AppError("validation_error", 'body must be JSON: {"query": string, "limit"?: 1..20}', [
      { path: "body", message: "invalid JSON" },
    ]);
  }
  const parsed = publicSearchInput.safeParse(json);
  if (!parsed.success) throw validationError(parsed.error.issues);
  return parsed.data;
}

export function OPTIONS(): Response {
  return publicPreflight();
}

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
