import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";
import { RequestLog } from "./request-log";

export const metadata: Metadata = { title: "Request log" };

export default async function RequestsPage() {
  const user = await requireSessionUser("/dashboard/requests");
  if (user.role !== "partner") notFound();
  const environment = await getDashboardEnvironment();
  return (
    <Suspense fallback={<LoadingRows label="Loading the request log…" rows={6} />}>
      {/* Keyed by environment: the header's switch remounts the log with fresh queries. */}
      <RequestLog key={environment} environment={environment} />
    </Suspense>
  );
}
