// GET /api/partner/v1/openapi.json - the OpenAPI 3.1 document of the partner API (public, unsigned)
import { errorResponse, requestIdFor } from "@/server/http/respond";
import { methodsNotAllowed } from "@/server/http/partner-route";
import { getOpenApiJson } from "@/server/openapi/document";

export async function GET(request: Request): Promise<Response> {
  const requestId = requestIdFor(request);
  try {
    return new Response(getOpenApiJson(), {
      status: 200,
      headers: {
        "content-type": "application/json; charset=utf-8",
        "cache-control": "public, max-age=300",
        "x-request-id": requestId,
      },
    });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}

export const { POST, PUT, PATCH, DELETE } = methodsNotAllowed(["GET"]);
