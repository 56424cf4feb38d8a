// POST /api/domain/search - public domain search; real prices with a valid bearer token, masked without
import { getDb } from "@/db/client";
import { AppError, validationError } from "@/server/errors";
import { errorResponse, jsonResponse, requestIdFor } from "@/server/http/respond";
import { admitPublicCaller } from "@/server/public/caller";
import { publicSearchInput, type PublicSearchInput } from "@/server/public/contract";
import { publicCorsHeaders, publicPreflight } from "@/server/public/cors";
import { rateLimitHeaders } from "@/server/http/rate-limit";
import { searchPublicDomains } from "@/server/public/search";

const MAX_BODY_BYTES = 8 * 1024;

export async function POST(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  let headers: Record<string, string> = { ...publicCorsHeaders(), "x-request-id": requestId };
  try {
    const db = getDb();
    const caller = await admitPublicCaller(db, request, "app");
    headers = { ...headers, ...rateLimitHeaders(caller.rateLimit) };
    const input = await readBody(request);
    return jsonResponse(await searchPublicDomains(db, { ...input, priced: caller.priced }), 200, headers);
  } catch (error) {
    return errorResponse(error, requestId, headers);
  }
}

async function readBody(request: Request): Promise<PublicSearchInput> {
  const raw = await request.text();
  if (Buffer.byteLength(raw) > MAX_BODY_BYTES) throw new AppError("payload_too_large", `body must be at most ${MAX_BODY_BYTES} bytes`);
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
