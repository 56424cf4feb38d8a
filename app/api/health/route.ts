// GET /api/health - liveness once the database answers
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { AppError, errorBody } from "@/server/errors";
import { newId } from "@/server/ids";

export const dynamic = "force-dynamic";

export async function GET(request: Request) {
  const incoming = request.headers.get("x-request-id");
  const requestId = incoming && /^[A-Za-z0-9._:-]{1,128}$/.test(incoming) ? incoming : newId("request");
  const headers = { "cache-control": "no-store", "x-request-id": requestId };
  try {
    await getDb().execute(sql`select 1`);
    return Response.json({ status: "ok" }, { headers });
  } catch (error) {
    console.error(`[${requestId}] health check: database unavailable`, error);
    const body = errorBody(new AppError("internal_error", "the database is not answering"), requestId);
    return Response.json(body, { status: 503, headers });
  }
}
