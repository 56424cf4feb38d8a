// GET /dashboard/export/{list} - the dashboard's CSV download of one list, streamed
//
// Signed in with the dashboard session (no API key); the partner, role and
// environment (the header's sandbox/live switch) are resolved as for tRPC.
// Viewers may download; buyer email and name are masked for them.
//
// Each list takes the filter parameters of its REST list, parsed by the same zod
// schema (limit and cursor are ignored: the export pages itself, 1,000 rows a
// batch). Dates are ISO 8601 dates (midnight UTC) or date-times; `from` is
// inclusive, `to` exclusive, so a page that shows an inclusive "to" day passes
// the day after it. Comma-separated values mean "any of".
//
//   orders        status (EXTERNALLY_PAID,PAID,MANUAL_REVIEW,TRANSFER_IN_PROGRESS,TRANSFER_COMPLETED,SETTLED,REFUNDED,CANCELLED),
//                 channel (mor,checkout,marketplace), domain (exact), q (part of the domain), from, to   - on created_at
//   transactions  status, payment_model (mor,checkout,marketplace), from, to                          - on created_at
//   settlements   currency (e.g. USD), from, to - on period_start; merchant-of-record partners only (else 403)
//   payouts       kind (commission,brokerage,referral), from, to                                   - on created_at
//   commissions   state (accrued,pending,paid_out,reversed), from, to - on created_at; affiliate accounts only (else 403)
//
// Answers: 200 text/csv (UTF-8, RFC 4180, CRLF, header row; amounts in decimal
// currency units beside a `currency` column; text cells that a spreadsheet would
// run as a formula start with an apostrophe), attachment named
// {list}-{environment}-{YYYY-MM-DD}.csv. Errors are JSON as on the partner API:
// 400 validation_error (bad filter), 401 unauthorized, 403 forbidden, 404 unknown list.
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { getSessionUser } from "@/server/auth/session";
import { getDb } from "@/db/client";
import { clock } from "@/server/clock";
import { AppError } from "@/server/errors";
import { errorResponse, requestIdFor } from "@/server/http/respond";
import { exportListNames, isExportList, startExport } from "@/server/services/exports";
import { getPartnerTraitsOrThrow } from "@/server/services/order-console";

export const dynamic = "force-dynamic";

export async function GET(request: Request, context: { params: Promise<{ list: string }> }): Promise<Response> {
  const requestId = requestIdFor(request);
  try {
    const { list } = await context.params;
    if (!isExportList(list)) throw new AppError("not_found", `no export named ${list}; one of ${exportListNames.join(", ")}`);
    const user = await getSessionUser();
    if (!user) throw new AppError("unauthorized", "Sign in to download exports.");
    if (user.role !== "partner" || !user.partnerId) throw new AppError("forbidden", "Exports are for partner accounts.");
    const db = getDb();
    const [environment, partner] = await Promise.all([getDashboardEnvironment(), getPartnerTraitsOrThrow(db, user.partnerId)]);
    const started = await startExport(db, {
      list,
      reader: { partnerId: user.partnerId, environment, paymentModel: partner.paymentModel, isAffiliate: partner.isAffiliate, viewer: user.partnerRole === "viewer" },
      params: new URL(request.url).searchParams,
      now: clock.now(),
      logTag: `${requestId} export ${list}`,
    });
    return new Response(started.stream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${started.filename}"`,
        "cache-control": "no-store",
        "x-content-type-options": "nosniff",
        "x-request-id": requestId,
      },
    });
  } catch (error) {
    return errorResponse(error, requestId);
  }
}
