"use client";

import { useQuery } from "@tanstack/react-query";
import { Suspense } from "react";
import { useTRPC } from "@/app/providers";
import { API_REFERENCE_URL } from "@/components/shell/brand";
import { HomeFigures } from "./home-figures";
import { FirstKeyOffer, OnboardingChecklist } from "./onboarding";
import {
  Alert,
  Badge,
  Button,
  buttonClasses,
  PageHeader,
  Skeleton,
  Stat,
} from "@/components/ui";

const numberFormat = new Intl.NumberFormat("en-US");

const paymentModels = {
  mor: { label: "Merchant of record", hint: "You charge buyers and record sales with POST /orders." },
  non_mor: { label: "Hosted checkout", hint: "Buyers pay on our checkout page; you earn commission." },
} as const;

export function PartnerOverview({ canChange }: { canChange: boolean }) {
  const trpc = useTRPC();
  const overview = useQuery(trpc.account.overview.queryOptions());
  // Until sandbox onboarding is done the checklist leads; then the figures do (same query as the checklist's).
  const onboarding = useQuery(trpc.account.onboarding.queryOptions());
  const onboarded = onboarding.data?.every((step) => step.done) ?? false;

  if (overview.isPending) {
    return (
      <div className="space-y-8" aria-busy="true">
        <span className="sr-only">Loading your dashboard…</span>
        <div className="space-y-2">
          <Skeleton className="h-8 w-64" />
          <Skeleton className="h-4 w-48" />
        </div>
        <div className="grid gap-4 sm:grid-cols-3">
          {[0, 1, 2].map((key) => (
            <Skeleton key={key} className="h-28 rounded-xl" />
          ))}
        </div>
      </div>
    );
  }

  if (overview.isError) {
    return (
      <Alert tone="danger" title="We couldn't load your dashboard">
        <p>{overview.error.message}</p>
        <Button variant="secondary" size="sm" className="mt-3" onClick={() => void overview.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }

  const { partner, credentials, sandboxInventoryCount } = overview.data;
  const model = paymentModels[partner.paymentModel];
  return (
    <div className="space-y-8">
      <PageHeader
        title={<span data-testid="partner-name">{partner.name}</span>}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone="brand" data-testid="payment-model">
              {model.label}
            </Badge>
            {partner.isAffiliate ? <Badge tone="success">Affiliate</Badge> : null}
            {partner.liveApproved ? <Badge tone="info">Live approved</Badge> : <Badge>Sandbox only</Badge>}
            <span className="text-faint">{model.hint}</span>
          </span>
        }
        actions={
          <a href={API_REFERENCE_URL} className={buttonClasses({ variant: "secondary" })}>
            API reference
          </a>
        }
      />

      {credentials.sandbox === 0 ? <FirstKeyOffer canCreate={canChange} /> : null}

      {onboarded ? null : <OnboardingChecklist />}

      {/* The period is in the URL (useSearchParams), which needs a boundary of its own. */}
      <Suspense fallback={<Skeleton className="h-64 rounded-xl" />}>
        <HomeFigures />
      </Suspense>

      <dl className="grid gap-4 sm:grid-cols-3">
        <Stat
          testId="sandbox-inventory"
          label="Sandbox inventory"
          value={<span data-value={sandboxInventoryCount}>{numberFormat.format(sandboxInventoryCount)}</span>}
          hint="Test domains your sandbox keys can search and buy"
        />
        <Stat
          testId="sandbox-keys"
          label="Sandbox keys"
          value={numberFormat.format(credentials.sandbox)}
          hint="Active credentials in sandbox"
        />
        <Stat
          testId="live-keys"
          label="Live keys"
          value={numberFormat.format(credentials.live)}
          hint={
            credentials.live
              ? "Active credentials in production"
              : partner.liveApproved
                ? "Production access approved"
                : "Available after production approval"
          }
        />
      </dl>

      {onboarded ? <OnboardingChecklist /> : null}
    </div>
  );
}
