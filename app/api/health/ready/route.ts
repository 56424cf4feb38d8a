// GET /api/health/ready - readiness: 200 once the database answers and has every migration this build ships, else 503
import { getDb } from "@/db/client";
import { AppError } from "@/server/errors";
import { errorResponse, jsonResponse, requestIdFor } from "@/server/http/respond";
import { methodsNotAllowed } from "@/server/http/partner-route";
import { checkReadiness } from "@/server/observability/readiness";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const requestId = requestIdFor(request);
  const readiness = await checkReadiness(getDb());
  if (readiness.ready) return jsonResponse({ status: "ready" }, 200, { "x-request-id": requestId });
  const details = (readiness.pendingMigrations ?? []).map((tag) => ({ path: "migrations", message: `${tag} is not applied` }));
  const notReady = new AppError("internal_error", `not ready: ${readiness.reason}`, details.length ? details : undefined);
  return errorResponse(notReady, requestId, {}, 503);
}

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
