// GET /api/ping - a static JSON answer with no database work: the framework's own
// floor, which bench/throughput.ts compares the signed partner routes against.
import { methodsNotAllowed } from "@/server/http/partner-route";

export const dynamic = "force-dynamic";

const body = JSON.stringify({ status: "ok" });

export function GET(): Response {
  return new Response(body, { headers: { "content-type": "application/json", "cache-control": "no-store" } });
}

// Every other method: 405 method_not_allowed in the JSON envelope, with Allow.
export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
