import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDb } from "@/db/client";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";
import { getAffiliateStatus } from "@/server/services/referrals";
import { AffiliateRequired } from "./affiliate-required";
import { LinksConsole } from "./links-console";

export const metadata: Metadata = { title: "Referral links" };

export default async function LinksPage() {
  const user = await requireSessionUser("/dashboard/links");
  if (user.role !== "partner" || !user.partnerId) notFound();
  // The affiliate rule decides the whole page, so it is read here for the first paint;
  // every links.* procedure enforces it again (requireAffiliate, as REST does).
  const [environment, affiliate] = await Promise.all([getDashboardEnvironment(), getAffiliateStatus(getDb(), user.partnerId)]);
  if (!affiliate.isAffiliate) return <AffiliateRequired />;
  return (
    <Suspense fallback={<LoadingRows label="Loading referral links…" rows={6} />}>
      {/* Keyed by environment: the header's switch remounts the console with fresh queries. */}
      <LinksConsole
        key={environment}
        environment={environment}
        canCreate={user.partnerRole !== "viewer"}
        referralCommissionBps={affiliate.referralCommissionBps}
      />
    </Suspense>
  );
}
