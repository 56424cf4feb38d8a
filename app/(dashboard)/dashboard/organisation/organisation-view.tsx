"use client";

import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/providers";
import {
  Alert,
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  CopyButton,
  ErrorState,
  LoadingRows,
  PageHeader,
  RelativeTime,
} from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { ProductionAccess } from "./production-access";

// The partner's organisation as staff set it up (read-only: payment model and
// rates are agreed with the partner team), and the request for production access.

export type Organisation = inferRouterOutputs<AppRouter>["account"]["organisation"];

const paymentModels = {
  non_mor: { label: "Hosted checkout", meaning: "Buyers pay on our checkout page; you earn a commission on each sale." },
  mor: { label: "Merchant of record", meaning: "You charge buyers yourself and record each sale with POST /orders." },
} as const;

const percent = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
/** Basis points as a percentage: 1250 -> "12.5%". */
const bpsToPercent = (bps: number) => `${percent.format(bps / 100)}%`;

export function OrganisationView() {
  const trpc = useTRPC();
  const organisation = useQuery(trpc.account.organisation.queryOptions());
  const me = useQuery(trpc.account.me.queryOptions());

  return (
    <div className="space-y-8">
      <PageHeader title="Organisation" description="Your partner account, its commercial terms and access to production." />
      {organisation.isPending ? (
        <LoadingRows label="Loading your organisation…" rows={6} />
      ) : organisation.isError ? (
        <ErrorState title="We couldn't load your organisation" error={organisation.error} onRetry={() => organisation.refetch()} />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          {organisation.data.suspendedAt ? (
            <Alert tone="danger" title="Your account is suspended" className="lg:col-span-2" data-testid="suspended">
              Since {new Date(organisation.data.suspendedAt).toUTCString()}: {organisation.data.suspendedReason}. API keys get 403{" "}
              <code>partner_suspended</code> and checkout links take no payments until our team reinstates the account; orders already paid,
              settlements and payouts go on. Reply to our email or write to support to resolve it.
            </Alert>
          ) : null}
          <OrganisationCard organisation={organisation.data} />
          <ProductionAccess organisation={organisation.data} viewer={me.data?.partnerRole !== "owner"} />
        </div>
      )}
    </div>
  );
}

function OrganisationCard({ organisation }: { organisation: Organisation }) {
  const model = paymentModels[organisation.paymentModel];
  const { rates } = organisation;
  return (
    <Card data-testid="organisation-card">
      <CardHeader>
        <CardTitle>{organisation.name}</CardTitle>
        <CardDescription>Rates and payment model are set with our partner team.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="divide-y divide-line text-sm">
          <Row label="Partner ID">
            <span className="-my-1.5 flex min-w-0 items-center gap-1">
              <code className="truncate font-mono text-[0.8125rem]" data-testid="partner-id">
                {organisation.id}
              </code>
              <CopyButton value={organisation.id} label="Copy partner id" />
            </span>
          </Row>
          <Row label="Contact email">
            <span className="break-all">{organisation.email}</span>
          </Row>
          <Row label="Payment model">
            <span>
              <span className="font-medium" data-testid="payment-model">
                {model.label}
              </span>
              <span className="mt-0.5 block text-xs text-muted">{model.meaning}</span>
            </span>
          </Row>
          <Row label="Affiliate">
            {organisation.isAffiliate ? (
              <Badge tone="success">Affiliate</Badge>
            ) : (
              <Badge>Not an affiliate</Badge>
            )}
          </Row>
          <Row label="Sale commission">
            <Rate value={bpsToPercent(rates.saleCommissionBps)} meaning="of each sale through your hosted checkout links" />
          </Row>
          <Row label="Referral commission">
            <Rate value={bpsToPercent(rates.referralCommissionBps)} meaning="of storefront sales from your referral links" />
          </Row>
          <Row label="Brokerage share">
            <Rate value={bpsToPercent(rates.brokerageShareBps)} meaning="of our brokerage fee on cases you bring" />
          </Row>
          <Row label="Created">
            <RelativeTime value={organisation.createdAt} />
          </Row>
        </dl>
      </CardContent>
    </Card>
  );
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-3 first:pt-0 last:pb-0 sm:grid-cols-[10rem_1fr] sm:gap-4">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 text-ink">{children}</dd>
    </div>
  );
}

function Rate({ value, meaning }: { value: string; meaning: string }) {
  return (
    <span>
      <span className="font-semibold tabular-nums">{value}</span> <span className="text-xs text-muted">{meaning}</span>
    </span>
  );
}
