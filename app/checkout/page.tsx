import type { Metadata } from "next";
import { Badge, Card, Code } from "@/components/ui";
import { getDb } from "@/db/client";
import { notFound } from "next/navigation";
import { checkoutTokenStatus, getCheckoutView, returnUrlWithOrder, verifyCheckoutToken } from "@/server/services/checkout";
import { intentProviderFor, openIntentPayment, settleReturningIntent, type IntentPayment } from "@/server/services/checkout-intents";
import { logError } from "@/server/log";
import { CheckoutMessage, CheckoutShell } from "./checkout-shell";
import { CheckoutForm } from "./checkout-form";
import { StripePaymentForm } from "./stripe-payment-form";
import { countries, formatMoney } from "./format";

// GET /checkout?pt=... - the hosted payment page (no login). The token is
// verified server-side before anything is shown; states other than "open"
// never reach the payment form, so nothing can be charged from them.
// Live (and sandbox on Stripe's test mode): rendering the open page creates or
// reuses the session's one PaymentIntent; Stripe's redirect back lands here
// and the outcome shown is the intent's status read on the server, never the
// redirect's query parameters.

export const metadata: Metadata = { title: "Checkout", robots: { index: false, follow: false } };
export const dynamic = "force-dynamic";

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CheckoutPage({ searchParams }: { searchParams: SearchParams }) {
  const pt = (await searchParams).pt;
  const token = typeof pt === "string" ? pt : null;
  let view = await getCheckoutView(getDb(), token);
  if (view.kind === "invalid") {
    // proxy.ts set the status (400, 404, 410); an expired link says so even when its session is gone,
    // and a well-signed, unexpired token naming no session we have is a plain 404.
    const status = checkoutTokenStatus(token);
    const claims = verifyCheckoutToken(token);
    if (status === 410 && claims) view = { kind: "expired", domain: claims.domain, cancelUrl: null };
    else if (status === 200) notFound();
  }
  let live: Live = null;
  if (view.kind === "unavailable" || view.kind === "expired") {
    // This buyer's own payment may have gone through just as the page closed: read it before saying "nothing was charged".
    const status = await settleReturningIntent(getDb(), token).catch((error: unknown) => {
      logError("checkout returning intent", error);
      return null;
    });
    if (status === "succeeded") view = await getCheckoutView(getDb(), token);
    else if (status === "processing") return <CheckoutShell>{processing(view.domain)}</CheckoutShell>;
  }
  if (view.kind === "open") {
    const { session } = view;
    try {
      // Throws payments_unavailable for a live link made while Stripe was configured, after it was switched off.
      const provider = intentProviderFor(session);
      if (provider) {
        live = { payment: await openIntentPayment(getDb(), session, provider), testMode: session.environment === "sandbox" };
        // A success is recorded by now (here, or by the webhook earlier): show the outcome instead of the form.
        if (live.payment.status === "succeeded") view = await getCheckoutView(getDb(), token);
      }
    } catch (error) {
      logError(`checkout ${session.id} payment intent`, error);
      live = "unreachable";
    }
  }
  return <CheckoutShell>{render(view, typeof pt === "string" ? pt : "", live)}</CheckoutShell>;
}

function processing(domain: string) {
  return (
    <CheckoutMessage tone="warning" eyebrow="Payment processing" title="Your payment is being processed" testId="checkout-processing">
      <p>
        Your bank is confirming the payment for <strong className="text-ink">{domain}</strong>. This page updates when it is done; you can also reload it.
      </p>
      <meta httpEquiv="refresh" content="5" />
    </CheckoutMessage>
  );
}

/** The intent-based payment of an open page: null for the sandbox's own card form. */
type Live = { payment: IntentPayment; testMode: boolean } | "unreachable" | null;

function render(view: Awaited<ReturnType<typeof getCheckoutView>>, token: string, live: Live) {
  switch (view.kind) {
    case "invalid":
      return (
        <CheckoutMessage tone="danger" eyebrow="Invalid link" title="This checkout link is not valid" testId="checkout-invalid">
          <p>The link is incomplete or has been altered. Nothing was charged.</p>
          <p>Go back to the site that sent you here and open the checkout again.</p>
        </CheckoutMessage>
      );
    case "expired":
      return (
        <CheckoutMessage tone="warning" eyebrow="Link expired" title="This checkout link has expired" testId="checkout-expired"
          action={view.cancelUrl ? { href: view.cancelUrl, label: "Back to the seller" } : undefined}>
          <p>
            Checkout links are valid for 7 days. Ask the seller for a new link to buy <strong className="text-ink">{view.domain}</strong>.
            Nothing was charged.
          </p>
        </CheckoutMessage>
      );
    case "unavailable":
      return (
        <CheckoutMessage tone="warning" eyebrow="No longer available" title={`${view.domain} is no longer available`} testId="checkout-unavailable"
          action={view.cancelUrl ? { href: view.cancelUrl, label: "Back to the seller" } : { href: "/domains", label: "Browse other domains" }}>
          <p>Someone else bought or reserved this domain first. Nothing was charged.</p>
        </CheckoutMessage>
      );
    case "refunded":
      return (
        <CheckoutMessage tone="warning" eyebrow="Payment refunded" title={`${view.domain} was sold to someone else`} testId="checkout-refunded"
          action={view.cancelUrl ? { href: view.cancelUrl, label: "Back to the seller" } : { href: "/domains", label: "Browse other domains" }}>
          <p>Another buyer completed their payment for this domain a moment before yours went through.</p>
          <p>Your payment is being refunded in full to the same card; banks usually show it within 5-10 business days.</p>
        </CheckoutMessage>
      );
    case "paid":
      return (
        <CheckoutMessage tone="success" eyebrow="Payment complete" title={`${view.domain} is yours`} testId="checkout-paid"
          action={view.returnUrl ? { href: returnUrlWithOrder(view.returnUrl, view.orderId), label: "Return to the seller" } : undefined}>
          <p>This checkout is paid. We will email transfer instructions to you.</p>
          <p>
            Order <Code data-testid="order-id">{view.orderId}</Code>
          </p>
        </CheckoutMessage>
      );
    case "open": {
      const { session } = view;
      if (live === "unreachable") {
        return (
          <CheckoutMessage tone="danger" eyebrow="Temporarily unavailable" title="Payments are temporarily unavailable" testId="checkout-processor-down">
            <p>We could not reach our payment processor. Nothing was charged. Reload this page in a minute to try again.</p>
          </CheckoutMessage>
        );
      }
      if (live?.payment.status === "processing") return processing(session.domain);
      const price = formatMoney(session.salePriceCents, session.currency);
      const sandbox = session.environment === "sandbox";
      return (
        <div className="grid gap-8 lg:grid-cols-[1fr_1.1fr] lg:items-start">
          <section aria-labelledby="summary-title">
            <div className="flex flex-wrap items-center gap-2">
              <h1 id="summary-title" className="text-sm font-semibold text-muted">
                Order summary
              </h1>
              {sandbox ? <Badge tone="warning">{live ? "Sandbox · Stripe test mode" : "Sandbox · test cards only"}</Badge> : null}
            </div>
            <Card className="mt-3 p-6">
              <p className="text-xs font-medium tracking-wide text-faint uppercase">Domain</p>
              <p className="mt-1 text-xl font-semibold tracking-tight [overflow-wrap:anywhere] text-ink sm:text-2xl" data-testid="checkout-domain">
                {session.domain}
              </p>
              <dl className="mt-6 space-y-3 border-t border-line pt-4 text-sm">
                <div className="flex justify-between gap-4">
                  <dt className="text-muted">Price</dt>
                  <dd className="text-ink">{price}</dd>
                </div>
                <div className="flex justify-between gap-4 border-t border-line pt-3 text-base font-semibold">
                  <dt className="text-ink">Total due</dt>
                  <dd className="text-ink" data-testid="checkout-price">
                    {price} <span className="text-xs font-medium text-muted">{session.currency}</span>
                  </dd>
                </div>
              </dl>
              {view.partnerName ? (
                <p className="mt-6 rounded-lg bg-subtle px-3 py-2 text-sm text-muted" data-testid="checkout-partner">
                  Sold through <span className="font-medium text-ink">{view.partnerName}</span>
                </p>
              ) : null}
            </Card>
            <p className="mt-4 text-xs text-faint">
              Payment is collected by Domain Marketplace. The domain is transferred to you after payment.
              {session.cancelUrl ? (
                <>
                  {" "}
                  <a href={session.cancelUrl} className="font-medium text-brand hover:underline">
                    Cancel and return to the seller
                  </a>
                </>
              ) : null}
            </p>
          </section>
          <section aria-labelledby="pay-title">
            <Card className="p-6 sm:p-8">
              <h2 id="pay-title" className="text-lg font-semibold tracking-tight text-ink">
                {live ? "Pay" : "Pay with card"}
              </h2>
              <div className="mt-5">
                {live ? (
                  <StripePaymentForm token={token} publishableKey={live.payment.publishableKey} clientSecret={live.payment.clientSecret} priceLabel={price}
                    countries={countries} defaultEmail={view.buyerEmail ?? undefined} lastError={live.payment.lastError} testMode={live.testMode} />
                ) : (
                  <CheckoutForm token={token} priceLabel={price} countries={countries} defaultEmail={view.buyerEmail ?? undefined} sandbox={sandbox} />
                )}
              </div>
            </Card>
          </section>
        </div>
      );
    }
  }
}
