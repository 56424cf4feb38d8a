import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";
import { OrdersList } from "./orders-list";

export const metadata: Metadata = { title: "Orders" };

export default async function OrdersPage() {
  const user = await requireSessionUser("/dashboard/orders");
  if (user.role !== "partner") notFound();
  const environment = await getDashboardEnvironment();
  return (
    // The list reads its filters from the query string; keyed by environment so the header's switch starts it afresh.
    <Suspense fallback={<LoadingRows label="Loading orders…" rows={6} />}>
      <OrdersList key={environment} environment={environment} canChange={user.partnerRole !== "viewer"} />
    </Suspense>
  );
}
