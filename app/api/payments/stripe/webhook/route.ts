// POST /api/payments/stripe/webhook - Stripe's signed notifications: payments, disputes
import { getDb } from "@/db/client";
import { isAppError, AppError } from "@/server/errors";
import { BODY_LIMITS, readBodyLimited } from "@/server/http/body";
import { errorResponse, jsonResponse, requestIdFor } from "@/server/http/respond";
import { methodsNotAllowed } from "@/server/http/partner-route";
import { logError } from "@/server/log";
import { receiveStripeWebhook } from "@/server/services/checkout-intents";

export const dynamic = "force-dynamic";

// The signature covers the exact bytes Stripe sent: the body is read raw, never parsed first.
export async function POST(request: Request) {
  const requestId = requestIdFor(request);
  try {
    // Stripe's events are a few KiB; the partner API's 1 MiB cap is ample.
    const raw = await readBodyLimited(request, BODY_LIMITS.partner);
    const body = await receiveStripeWebhook(getDb(), raw, request.headers.get("stripe-signature"));
    return jsonResponse(body, 200, { "x-request-id": requestId });
  } catch (error) {
    if (isAppError(error)) return errorResponse(error, requestId, {}, error.status);
    logError("stripe webhook", error, { requestId });
    // 500: Stripe retries with backoff; nothing was recorded for this event id.
    return errorResponse(new AppError("internal_error", "the event could not be processed; it will be retried"), requestId, {}, 500);
  }
}

export const { GET, PUT, PATCH, DELETE } = methodsNotAllowed(["POST"]);
