import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { SiteFooter } from "@/components/shell/site-footer";
import { SiteHeader } from "@/components/shell/site-header";
import { Alert, Badge, Button, Card } from "@/components/ui";
import { getDb } from "@/db/client";
import { hasSessionCookie } from "@/server/auth/session";
import { isAppError } from "@/server/errors";
import { getDomainDetails, type ListingView } from "@/server/services/discovery";
import { NO_PARTNER, STOREFRONT_ENVIRONMENT } from "@/server/services/storefront";
import { formatMoney } from "../../checkout/format";
import { buyNowAction } from "../actions";
import { retryInWords } from "@/server/http/abuse-limits";

// GET /domains/{name} - one storefront listing with its price and "Buy now",
// which opens a hosted checkout session for it.

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string }>;
type SearchParams = Promise<Record<string, string | string[] | undefined>>;

async function load(name: string): Promise<ListingView | null> {
  try {
    return await getDomainDetails(getDb(), { environment: STOREFRONT_ENVIRONMENT, partnerId: NO_PARTNER, domain: decodeURIComponent(name) });
  } catch (error) {
    if (isAppError(error) && (error.code === "not_found" || error.code === "validation_error")) return null;
    throw error;
  }
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  return { title: decodeURIComponent((await params).name).toLowerCase() };
}

export default async function DomainPage({ params, searchParams }: { params: Params; searchParams: SearchParams }) {
  const [listing, signedIn, query] = await Promise.all([load((await params).name), hasSessionCookie(), searchParams]);
  if (!listing) notFound();
  const sold = listing.status === "sold";
  const facts: [string, string][] = [
    ["Extension", `.${listing.tld}`],
    ["Length", `${listing.label.length} characters`],
    ...(listing.vertical ? [["Category", listing.vertical.charAt(0).toUpperCase() + listing.vertical.slice(1)] as [string, string]] : []),
    ...(listing.registeredYear ? [["Registered", String(listing.registeredYear)] as [string, string]] : []),
  ];
  return (
    <>
      <SiteHeader signedIn={signedIn} />
      <main id="main" className="flex-1">
        <div className="mx-auto max-w-6xl px-4 py-10 sm:px-6 sm:py-14">
          <nav aria-label="Breadcrumb" className="text-sm text-muted">
            <Link href="/domains" className="hover:text-ink">
              Marketplace
            </Link>
            <span aria-hidden="true"> / </span>
            <span className="text-ink">{listing.name}</span>
          </nav>
          <div className="mt-6 grid gap-8 lg:grid-cols-[1.4fr_1fr] lg:items-start">
            <div>
              <div className="flex flex-wrap items-center gap-2">
                {sold ? <Badge tone="neutral">Sold</Badge> : listing.available ? <Badge tone="success">Available</Badge> : <Badge tone="warning">Reserved</Badge>}
                <Badge tone="warning">Sandbox</Badge>
              </div>
              <h1 className="mt-3 text-2xl font-semibold tracking-tight [overflow-wrap:anywhere] text-ink sm:text-4xl lg:text-5xl">{listing.name}</h1>
              {listing.description ? <p className="mt-4 max-w-2xl text-lg text-pretty text-muted">{listing.description}</p> : null}
              <dl className="mt-8 grid max-w-xl grid-cols-2 gap-4 sm:grid-cols-4">
                {facts.map(([term, value]) => (
                  <div key={term} className="rounded-lg border border-line bg-surface p-3">
                    <dt className="text-xs text-muted">{term}</dt>
                    <dd className="mt-1 text-sm font-medium text-ink">{value}</dd>
                  </div>
                ))}
              </dl>
            </div>
            <Card className="p-6">
              {query.unavailable ? (
                <Alert tone="danger" className="mb-4">
                  This domain can no longer be bought. It was sold or reserved a moment ago.
                </Alert>
              ) : null}
              {typeof query.busy === "string" && /^\d+$/.test(query.busy) ? (
                <Alert tone="warning" className="mb-4">
                  Too many checkouts were started from your network. {retryInWords(Number(query.busy))}
                </Alert>
              ) : null}
              {sold ? (
                <p className="text-muted">This domain has been sold.</p>
              ) : (
                <>
                  <p className="text-sm text-muted">Buy-now price</p>
                  <p className="mt-1 text-3xl font-semibold tracking-tight text-ink" data-testid="domain-price">
                    {formatMoney(listing.priceCents, listing.currency)} <span className="text-sm font-medium text-muted">{listing.currency}</span>
                  </p>
                  <form action={buyNowAction} className="mt-6">
                    <input type="hidden" name="domain" value={listing.name} />
                    <Button type="submit" size="lg" className="w-full" disabled={!listing.available}>
                      Buy now
                    </Button>
                  </form>
                  <p className="mt-3 text-xs text-faint">Secure card payment. Transfer starts once payment is confirmed.</p>
                </>
              )}
            </Card>
          </div>
        </div>
      </main>
      <SiteFooter />
    </>
  );
}
