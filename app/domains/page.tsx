import type { Metadata } from "next";
import Link from "next/link";
import { SiteFooter } from "@/components/shell/site-footer";
import { SiteHeader } from "@/components/shell/site-header";
import { Badge, Button, Card, EmptyState, inputClasses } from "@/components/ui";
import { headers } from "next/headers";
import { getDb } from "@/db/client";
import { hasSessionCookie } from "@/server/auth/session";
import { searchDomains } from "@/server/services/discovery";
import { listFeaturedDomains, NO_PARTNER, STOREFRONT_ENVIRONMENT } from "@/server/services/storefront";
import { formatMoney } from "../checkout/format";
import { retryInWords, takeStorefrontSearch } from "@/server/http/abuse-limits";
import { clientIp } from "@/server/http/client-ip";

// GET /domains?q=... - the marketplace storefront: search the inventory (the
// same search partners call) and open a domain to buy it. A GET form, so it
// works without JavaScript.

export const metadata: Metadata = { title: "Buy a domain" };
export const dynamic = "force-dynamic";

const SEARCH_LIMIT = 12;

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

interface Row {
  name: string;
  priceCents: number;
  currency: string;
  vertical: string | null;
  available: boolean;
}

export default async function DomainsPage({ searchParams }: { searchParams: SearchParams }) {
  const raw = (await searchParams).q;
  const q = (typeof raw === "string" ? raw : "").trim().slice(0, 200);
  const db = getDb();
  const limited = q ? await takeStorefrontSearch(db, clientIp(await headers())) : undefined;
  const busy = limited && !limited.allowed ? limited.retryAfterSeconds : undefined;
  const [signedIn, rows] = await Promise.all([
    hasSessionCookie(),
    q && busy === undefined
      ? searchDomains(db, { environment: STOREFRONT_ENVIRONMENT, partnerId: NO_PARTNER, q, limit: SEARCH_LIMIT }).then((r) =>
          r.hits.map((h): Row => ({ name: h.name, priceCents: h.priceCents, currency: h.currency, vertical: h.vertical, available: h.available })),
        )
      : q
        ? Promise.resolve([] as Row[])
        : listFeaturedDomains(db).then((list) => list.map((d): Row => ({ ...d, available: true }))),
  ]);
  return (
    <>
      <SiteHeader signedIn={signedIn} />
      <main id="main" className="flex-1">
        <section className="border-b border-line bg-surface">
          <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6 sm:py-16">
            <Badge tone="brand">Marketplace</Badge>
            <h1 className="mt-4 text-3xl font-semibold tracking-tight text-balance text-ink sm:text-4xl">Find a domain for your next idea</h1>
            <p className="mt-3 max-w-2xl text-muted">
              Premium names at a fixed price. Pay by card and the domain is transferred to you.
            </p>
            <form role="search" action="/domains" method="get" className="mt-8 flex max-w-2xl flex-col gap-3 sm:flex-row">
              <label htmlFor="q" className="sr-only">
                Search domains
              </label>
              <input id="q" name="q" type="search" defaultValue={q} placeholder="Try “coffee”, “law firm” or “pizza.io”" maxLength={200}
                className={`${inputClasses} h-11 text-base`} />
              <Button type="submit" size="lg">
                Search
              </Button>
            </form>
          </div>
        </section>
        <section aria-labelledby="results-title" className="mx-auto max-w-6xl px-4 py-10 sm:px-6">
          <h2 id="results-title" className="text-lg font-semibold tracking-tight text-ink">
            {q ? `Results for “${q}”` : "Featured domains"}
          </h2>
          {busy !== undefined ? (
            <EmptyState className="mt-6" title="Too many searches from your network" description={`Searches are limited to keep the marketplace fast for everyone. ${retryInWords(busy)}`} />
          ) : rows.length === 0 ? (
            <EmptyState className="mt-6" title="No domains match your search" description="Try a shorter word, a synonym, or leave out the extension." />
          ) : (
            <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3" data-testid="domain-results">
              {rows.map((row) => (
                <li key={row.name}>
                  <Card className="flex h-full flex-col p-5 transition-shadow hover:shadow-raised">
                    <div className="flex items-start justify-between gap-3">
                      <Link href={`/domains/${encodeURIComponent(row.name)}`} className="font-semibold [overflow-wrap:anywhere] text-ink hover:text-brand">
                        {row.name}
                      </Link>
                      {row.available ? null : <Badge tone="warning">Reserved</Badge>}
                    </div>
                    {row.vertical ? <p className="mt-1 text-xs text-muted capitalize">{row.vertical}</p> : null}
                    <p className="mt-4 text-lg font-semibold text-ink">{formatMoney(row.priceCents, row.currency)}</p>
                  </Card>
                </li>
              ))}
            </ul>
          )}
          <p className="mt-8 text-xs text-faint">The storefront currently lists the sandbox inventory: pay with test cards only.</p>
        </section>
      </main>
      <SiteFooter />
    </>
  );
}
