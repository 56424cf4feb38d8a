// * /api/<unknown> - 404 not_found in the JSON envelope for any path no API route serves
import { AppError } from "@/server/errors";
import { errorResponse, requestIdFor } from "@/server/http/respond";

export const dynamic = "force-dynamic";

async function notFound(request: Request): Promise<Response> {
  const path = new URL(request.url).pathname;
  return errorResponse(new AppError("not_found", `no such endpoint: ${request.method} ${path}`), requestIdFor(request));
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE, notFound as OPTIONS };
