import { z } from "zod";
import { defineEndpoint } from "@/server/http/contract";
import { RISK_THRESHOLD_CENTS } from "./orders";
import { currencyCode, domainNameInput, moneyCents, timestamp } from "./common";

// Hosted checkout (SPEC "Non-MoR flow"): a partner creates a session, sends the
// buyer to `checkout_url`, and the service collects payment there.

export const CHECKOUT_SESSION_TTL_DAYS = 7;

const httpUrl = z
  .url({ protocol: /^https?$/, error: "must be an absolute http or https URL" })
  .max(2000)
  .optional();

export const createCheckoutSessionBody = z.strictObject({
  domain: domainNameInput,
  return_url: httpUrl.describe(
    "Absolute http(s) URL, at most 2,000 characters. After a successful payment the buyer is redirected here with " +
      "`order_id=<public_id>` added to the query; without it the buyer sees the service's confirmation page.",
  ),
  cancel_url: httpUrl.describe("Absolute http(s) URL, at most 2,000 characters, shown to the buyer as a way back to the partner's site."),
  buyer_email: z.email().max(254).optional().describe("Prefills the buyer's email on the hosted page; the buyer may change it."),
});

export const checkoutSessionSchema = z
  .object({
    checkout_session_id: z.string().describe("Session id (`cs_...`), time-ordered."),
    checkout_url: z
      .string()
      .describe(
        "`{APP_URL}/checkout?pt=<token>`: the hosted payment page. `pt` is a signed, tamper-evident token binding the " +
          "session, partner, environment, domain, price, currency and expiry; an altered token shows an error page " +
          "and charges nothing. Treat it as opaque.",
      ),
    domain: z.string(),
    sale_price_cents: moneyCents.describe("The listing price when the session was created; the buyer pays exactly this."),
    currency: currencyCode,
    expires_at: timestamp.describe(`Creation time plus ${CHECKOUT_SESSION_TTL_DAYS} days; after it the page says the link expired.`),
  })
  .meta({ id: "CheckoutSession" });

export const createCheckoutSessionEndpoint = defineEndpoint({
  operationId: "createCheckoutSession",
  method: "POST",
  path: "/api/partner/v1/checkout-session",
  tag: "Hosted checkout",
  summary: "Create a hosted checkout link for one domain",
  description:
    "Creates a checkout session for a listed, available domain at its current listing price and returns the hosted " +
    `page's \`checkout_url\`, valid ${CHECKOUT_SESSION_TTL_DAYS} days. Any partner whose credential holds scope ` +
    "`embed` may create sessions, merchant-of-record or not; the buyer pays the service on the hosted page, so the sale " +
    "is a hosted-checkout sale (`channel` `checkout`) either way.\n\n" +
    "A session does not reserve the domain: it stays on the market until a buyer pays. If it is sold or reserved " +
    "before that, the hosted page tells the buyer it is no longer available and charges nothing. On payment, in one " +
    "transaction: the order is recorded as `PAID` (channel `checkout`, attributed to the partner and environment, " +
    "commission at the partner's sale rate), an `order.paid` event carries `data.order`, the partner's commission is " +
    "accrued in the commission ledger (paid out at settlement, see GET /payouts), the domain is marked sold and the " +
    "session completes. A session is paid at most once: a repeated submission shows the completed order and never " +
    `charges twice. A sale above the risk threshold (${RISK_THRESHOLD_CENTS} minor units) is recorded as \`MANUAL_REVIEW\` ` +
    "(the buyer has paid; clearing the review returns it to `PAID`), still with `order.paid`.\n\n" +
    "Sandbox sessions use test cards: 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined " +
    "(`card_declined`), 4000 0000 0000 9995 is declined (`insufficient_funds`); any future expiry and any 3-digit " +
    "CVC. Live sessions pay through Stripe: the hosted page collects the card in Stripe's Payment Element (card data " +
    "never reaches the service), one PaymentIntent per session, and the sale is recorded from Stripe's signed webhook " +
    "(POST /api/payments/stripe/webhook). Two buyers may pay for one domain at once: the first payment to succeed " +
    "buys it, a later one is refunded automatically and its page says why.\n\n" +
    "404 `not_found`: the domain is not listed in the credential's environment. 409 `conflict`: already sold, or " +
    "held by an order or by another partner's unexpired quote. 503 `payments_unavailable`: a live key, and live " +
    "payments are not configured on the service (no Stripe settings); nothing is created.",
  scopes: ["embed"],
  rateClass: "write",
  body: createCheckoutSessionBody,
  response: checkoutSessionSchema,
  successStatus: 201,
  errors: ["validation_error", "not_found", "conflict", "payments_unavailable"],
});

export const checkoutContracts = [createCheckoutSessionEndpoint] as const;
