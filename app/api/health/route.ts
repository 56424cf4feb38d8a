// GET /api/health - liveness once the database answers
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { AppError } from "@/server/errors";
import { errorResponse, jsonResponse, requestIdFor } from "@/server/http/respond";
import { logError } from "@/server/log";
import { methodsNotAllowed } from "@/server/http/partner-route";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const requestId = requestIdFor(request);
  try {
    await getDb().execute(sql`select 1`);
    return jsonResponse({ status: "ok" }, 200, { "x-request-id": requestId });
  } catch (error) {
    logError(`${requestId} health`, error);
    const unavailable = new AppError("internal_error", "the database is not answering");
    return errorResponse(unavailable, requestId, {}, 503);
  }
}

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
