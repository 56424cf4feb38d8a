// GET /metrics - Prometheus metrics of this web process (bearer METRICS_TOKEN; 404 in production without one)
import { getDb } from "@/db/client";
import { getEnv } from "@/server/env";
import { errorResponse, requestIdFor } from "@/server/http/respond";
import { methodsNotAllowed } from "@/server/http/partner-route";
import { refreshDatabaseGauges } from "@/server/observability/database-gauges";
import { getMetrics, scrapeRefusal } from "@/server/observability/metrics";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const env = getEnv();
  const refusal = scrapeRefusal(env, request.headers.get("authorization"));
  if (refusal) return errorResponse(refusal, requestIdFor(request));
  await refreshDatabaseGauges(getDb(), env.DB_POOL_MAX);
  const { registry } = getMetrics();
  return new Response(await registry.metrics(), { headers: { "content-type": registry.contentType, "cache-control": "no-store" } });
}

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
