import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { can } from "@/server/auth/partner-roles";
import { requireSessionUser } from "@/server/auth/session";
import { SimulatorsView } from "./simulators-view";

export const metadata: Metadata = { title: "Sandbox simulators" };

export default async function SandboxPage() {
  const user = await requireSessionUser("/dashboard/sandbox");
  if (user.role !== "partner") notFound();
  const environment = await getDashboardEnvironment();
  return (
    <Suspense fallback={<LoadingRows label="Loading the simulators…" rows={4} />}>
      <SimulatorsView key={environment} environment={environment} canRun={can(user.partnerRole, "changeIntegration")} />
    </Suspense>
  );
}
