import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDb } from "@/db/client";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { can } from "@/server/auth/partner-roles";
import { requireSessionUser } from "@/server/auth/session";
import { getOrganisationOrThrow } from "@/server/services/account";
import { scopeDescriptions } from "@/server/services/keys";
import { KeysView } from "./keys-view";

export const metadata: Metadata = { title: "API keys" };

export default async function KeysPage() {
  const user = await requireSessionUser("/dashboard/keys");
  if (user.role !== "partner" || !user.partnerId) notFound();
  const [environment, organisation] = await Promise.all([getDashboardEnvironment(), getOrganisationOrThrow(getDb(), user.partnerId)]);
  return (
    <Suspense fallback={<LoadingRows label="Loading your keys…" rows={4} />}>
      {/* Keyed by environment: the header's switch remounts the list with fresh queries. */}
      <KeysView
        key={environment}
        environment={environment}
        canRead={can(user.partnerRole, "readIntegration")}
        canChange={can(user.partnerRole, "changeIntegration")}
        liveApproved={Boolean(organisation.liveApprovedAt)}
        scopeDescriptions={scopeDescriptions}
      />
    </Suspense>
  );
}
