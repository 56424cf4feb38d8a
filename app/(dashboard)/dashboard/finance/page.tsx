import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";
import { FinanceView } from "./finance-view";

export const metadata: Metadata = { title: "Finance" };

export default async function FinancePage() {
  const user = await requireSessionUser("/dashboard/finance");
  if (user.role !== "partner") notFound();
  const environment = await getDashboardEnvironment();
  return (
    <Suspense fallback={<LoadingRows label="Loading finance…" rows={6} />}>
      {/* Keyed by environment: the header's switch remounts the view with fresh queries. */}
      <FinanceView key={environment} environment={environment} />
    </Suspense>
  );
}
