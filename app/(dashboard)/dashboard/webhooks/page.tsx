import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";
import { WebhooksConsole } from "./webhooks-console";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage() {
  const user = await requireSessionUser("/dashboard/webhooks");
  if (user.role !== "partner") notFound();
  const environment = await getDashboardEnvironment();
  return (
    // The console reads its filters and the open delivery from the query string.
    <Suspense fallback={<LoadingRows label="Loading webhooks…" />}>
      <WebhooksConsole environment={environment} />
    </Suspense>
  );
}
