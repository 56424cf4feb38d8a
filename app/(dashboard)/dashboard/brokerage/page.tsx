import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDb } from "@/db/client";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";
import { BROKERAGE_FEE_BPS } from "@/server/contracts/brokerage";
import { getOrganisationOrThrow } from "@/server/services/account";
import { BrokerageConsole } from "./brokerage-console";

export const metadata: Metadata = { title: "Brokerage" };

export default async function BrokeragePage() {
  const user = await requireSessionUser("/dashboard/brokerage");
  if (user.role !== "partner" || !user.partnerId) notFound();
  const [environment, organisation] = await Promise.all([getDashboardEnvironment(), getOrganisationOrThrow(getDb(), user.partnerId)]);
  return (
    // The console reads its filter and the open case from the query string.
    <Suspense fallback={<LoadingRows label="Loading brokerage cases…" rows={5} />}>
      <BrokerageConsole
        key={environment}
        environment={environment}
        canCreate={user.partnerRole !== "viewer"}
        feeBps={{ ...BROKERAGE_FEE_BPS }}
        shareBps={organisation.rates.brokerageShareBps}
      />
    </Suspense>
  );
}
