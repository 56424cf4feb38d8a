// GET /metrics - Prometheus metrics of this web server (bearer METRICS_TOKEN; 404 in production without one):
// one process's, or with WEB_CONCURRENCY > 1 every worker's added up (server/observability/cluster-metrics.ts)
import { getDb } from "@/db/client";
import { getEnv } from "@/server/env";
import { AppError } from "@/server/errors";
import { errorResponse, requestIdFor } from "@/server/http/respond";
import { methodsNotAllowed } from "@/server/http/partner-route";
import { refreshDatabaseGauges } from "@/server/observability/database-gauges";
import { metricsExposition } from "@/server/observability/cluster-metrics";
import { scrapeRefusal } from "@/server/observability/metrics";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const env = getEnv();
  const refusal = scrapeRefusal(env, request.headers.get("authorization"));
  if (refusal) return errorResponse(refusal, requestIdFor(request));
  await refreshDatabaseGauges(getDb(), env.DB_POOL_MAX);
  try {
    const { contentType, body } = await metricsExposition();
    return new Response(body, { headers: { "content-type": contentType, "cache-control": "no-store" } });
  } catch (error) {
    // A cluster's primary that does not answer: the scrape fails (Prometheus records up 0) rather than half the figures.
    return errorResponse(new AppError("internal_error", (error as Error).message), requestIdFor(request), {}, 503);
  }
}

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
