import Link from "next/link";
import { API_REFERENCE_URL, OPENAPI_URL, PRODUCT_NAME } from "@/components/shell/brand";
import { SiteFooter } from "@/components/shell/site-footer";
import { SiteHeader } from "@/components/shell/site-header";
import { Badge, buttonClasses, Card, Code, CodeBlock } from "@/components/ui";
import { hasSessionCookie } from "@/server/auth/session";

const features = [
  {
    title: "Merchant of record",
    body: "Charge buyers yourself, record the sale with one signed call, and we deliver the domain and settle the difference monthly.",
  },
  {
    title: "Hosted checkout",
    body: "Not set up to take payments? Create a checkout link; we collect, deliver, and pay your commission at settlement.",
  },
  {
    title: "Brokerage",
    body: "Buyer wants a domain that is not for sale? Open a case and we negotiate the acquisition. Your buyer follows progress without an account.",
  },
  {
    title: "Referral links",
    body: "Tracked links with click, sale and commission reporting, and a running commission ledger.",
  },
  {
    title: "Signed webhooks",
    body: "Order and brokerage events delivered with an HMAC signature, retried with back-off, and replayable from the event history.",
  },
  {
    title: "Sandbox and live",
    body: "Sandbox keys see a separate catalogue of test domains with synthetic prices. Live keys follow once production access is approved.",
  },
];

const steps = [
  {
    title: "Get sandbox keys",
    body: (
      <>
        Sign in and create a sandbox credential. The secret (<Code>sk_sandbox_…</Code>) is shown once; store it on your
        server.
      </>
    ),
  },
  {
    title: "Sign every request",
    body: (
      <>
        HMAC-SHA256 over method, path, query, timestamp, nonce and body hash, sent in <Code>X-Service-Signature</Code>{" "}
        with your key id, timestamp and nonce. The secret never travels.
      </>
    ),
  },
  {
    title: "Search, quote and sell",
    body: (
      <>
        Search inventory, lock a price with <Code>POST /quotes</Code>, then record the sale with{" "}
        <Code>POST /orders</Code> or send the buyer to <Code>POST /checkout-session</Code>.
      </>
    ),
  },
  {
    title: "Listen and reconcile",
    body: (
      <>
        Register a webhook, verify each delivery&apos;s signature, catch up with <Code>GET /events</Code>, and reconcile
        with monthly settlements.
      </>
    ),
  },
  {
    title: "Go live",
    body: <>When your integration passes in sandbox, request production access. Live keys use the same base URL.</>,
  },
];

const sampleRequest = `curl "$BASE_URL/api/partner/v1/domains/search?q=coffee" \\
  -H "X-Service-Key-Id: pk_sandbox_…" \\
  -H "X-Service-Timestamp: 1767225600" \\
  -H "X-Service-Nonce: 3f0c…" \\
  -H "X-Service-Signature: v1=9b1d…"`;

const sampleResponse = `{
  "query": "coffee",
  "results": [
    { "domain": "coffeecraft.com", "available": true,
      "status": "listed", "sale_price_cents": 249900,
      "currency": "USD", "tld": "com", "vertical": "food",
      "score": 0.93 }
  ]
}`;

export default async function HomePage() {
  const signedIn = await hasSessionCookie();
  return (
    <>
      <SiteHeader signedIn={signedIn} />
      <main id="main" className="flex-1">
        <section className="border-b border-line bg-surface">
          <div className="mx-auto grid max-w-6xl gap-12 px-4 py-16 sm:px-6 lg:grid-cols-[1.1fr_1fr] lg:items-center lg:py-24">
            <div>
              <Badge tone="brand">Partner program</Badge>
              <h1 className="mt-4 text-4xl font-semibold tracking-tight text-balance text-ink sm:text-5xl">
                Sell premium domains inside your product
              </h1>
              <p className="mt-5 max-w-xl text-lg text-pretty text-muted">
                {PRODUCT_NAME} gives registrars, hosts and site builders one signed API to search our inventory, quote
                firm prices, sell to their own customers and get settled every month.
              </p>
              <div className="mt-8 flex flex-wrap gap-3">
                <Link href={signedIn ? "/dashboard" : "/sign-in"} className={buttonClasses({ size: "lg" })}>
                  {signedIn ? "Open the dashboard" : "Sign in to the dashboard"}
                </Link>
                <a href={API_REFERENCE_URL} className={buttonClasses({ variant: "secondary", size: "lg" })}>
                  API reference
                </a>
              </div>
              <p className="mt-4 text-sm text-faint">
                OpenAPI 3 document at <Code>{OPENAPI_URL}</Code>
              </p>
            </div>
            <Card className="overflow-hidden shadow-raised">
              <div className="flex items-center gap-2 border-b border-line bg-subtle/60 px-4 py-2.5">
                <span className="size-2.5 rounded-full bg-line-strong" aria-hidden="true" />
                <span className="size-2.5 rounded-full bg-line-strong" aria-hidden="true" />
                <span className="size-2.5 rounded-full bg-line-strong" aria-hidden="true" />
                <span className="ml-2 text-xs font-medium text-muted">Signed request</span>
              </div>
              <div className="space-y-3 p-4">
                <CodeBlock aria-label="Example signed search request">{sampleRequest}</CodeBlock>
                <CodeBlock aria-label="Example response" tone="light">
                  {sampleResponse}
                </CodeBlock>
              </div>
            </Card>
          </div>
        </section>

        <section aria-labelledby="features-title" className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
          <h2 id="features-title" className="text-2xl font-semibold tracking-tight text-ink">
            Everything a partner needs to sell domains
          </h2>
          <p className="mt-2 max-w-2xl text-muted">
            Pick the payment model that fits your business; the same credentials, events and reports cover all of it.
          </p>
          <ul className="mt-8 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {features.map((feature) => (
              <li key={feature.title}>
                <Card className="h-full p-5">
                  <h3 className="font-semibold text-ink">{feature.title}</h3>
                  <p className="mt-2 text-sm text-muted">{feature.body}</p>
                </Card>
              </li>
            ))}
          </ul>
        </section>

        <section aria-labelledby="integrate-title" className="border-t border-line bg-surface">
          <div className="mx-auto max-w-6xl px-4 py-16 sm:px-6">
            <h2 id="integrate-title" className="text-2xl font-semibold tracking-tight text-ink">
              How partners integrate
            </h2>
            <p className="mt-2 max-w-2xl text-muted">
              Most partners go from sandbox keys to a first test order in an afternoon.
            </p>
            <ol className="mt-8 grid gap-6 md:grid-cols-2 lg:grid-cols-5">
              {steps.map((step, index) => (
                <li key={step.title} className="relative">
                  <span
                    aria-hidden="true"
                    className="flex size-8 items-center justify-center rounded-full bg-brand-soft text-sm font-semibold text-brand-ink"
                  >
                    {index + 1}
                  </span>
                  <h3 className="mt-3 font-semibold text-ink">{step.title}</h3>
                  <p className="mt-1.5 text-sm leading-relaxed text-muted">{step.body}</p>
                </li>
              ))}
            </ol>
            <div className="mt-10 flex flex-wrap gap-3">
              <a href={API_REFERENCE_URL} className={buttonClasses({ variant: "secondary" })}>
                Read the API reference
              </a>
              <Link href="/sign-in" className={buttonClasses({ variant: "ghost" })}>
                Sign in for sandbox keys →
              </Link>
            </div>
          </div>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}
