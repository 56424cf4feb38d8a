import type { Metadata } from "next";
import Link from "next/link";
import { Card, CardContent, CardDescription, CardHeader, CardTitle, CodeBlock, PageHeader } from "@/components/ui";
import { getDb } from "@/db/client";
import { getAdminOverview } from "@/server/services/admin";

export const metadata: Metadata = { title: "Overview" };

export default async function AdminOverviewPage() {
  const overview = await getAdminOverview(getDb());
  const queues = [
    { label: "Production access requests waiting", value: overview.pendingAccessRequests, href: "/admin/access-requests?status=pending" },
    { label: "Orders held for manual review", value: overview.ordersInManualReview, href: "/admin/orders?status=MANUAL_REVIEW" },
    { label: "Open brokerage cases", value: overview.openBrokerageCases, href: "/admin/brokerage" },
    { label: "Live payouts to send", value: overview.payoutsToSend, href: "/admin/payouts" },
    { label: "Webhook endpoints failing or disabled", value: overview.failingWebhookEndpoints },
  ];
  return (
    <div className="space-y-8">
      <PageHeader
        title="Admin console"
        description={`${overview.partners.toLocaleString("en-US")} partners, ${overview.livePartners.toLocaleString("en-US")} with production access${overview.suspendedPartners ? `, ${overview.suspendedPartners.toLocaleString("en-US")} suspended` : ""}.`}
      />
      <section aria-labelledby="queues" className="space-y-3">
        <h2 id="queues" className="text-base font-semibold text-ink">
          Waiting for staff
        </h2>
        <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {queues.map((queue) => (
            <li key={queue.label}>
              <Card className="h-full">
                <CardContent className="pt-5">
                  <p className="text-sm text-muted">{queue.label}</p>
                  <p className="mt-1 text-2xl font-semibold text-ink" data-testid="queue-count">
                    {queue.href ? (
                      <Link href={queue.href} className="rounded-sm hover:text-brand">
                        {queue.value.toLocaleString("en-US")}
                      </Link>
                    ) : (
                      queue.value.toLocaleString("en-US")
                    )}
                  </p>
                </CardContent>
              </Card>
            </li>
          ))}
        </ul>
      </section>
      <Card>
        <CardHeader>
          <CardTitle>Operations CLI</CardTitle>
          <CardDescription>
            Every console action calls the same service as its CLI command; what the console does not offer yet (inventory, OAuth revocation,
            users) the CLI does.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <CodeBlock tone="light">npm run --silent admin -- help</CodeBlock>
        </CardContent>
      </Card>
    </div>
  );
}
