// GET /api/health/live - liveness: the process answers (no database; restart it only when this fails)
import { jsonResponse, requestIdFor } from "@/server/http/respond";
import { methodsNotAllowed } from "@/server/http/partner-route";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  return jsonResponse({ status: "ok" }, 200, { "x-request-id": requestIdFor(request) });
}

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
