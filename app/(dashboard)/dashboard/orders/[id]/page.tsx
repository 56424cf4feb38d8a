import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";
import { OrderDetail } from "./order-detail";

export async function generateMetadata({ params }: { params: Promise<{ id: string }> }): Promise<Metadata> {
  return { title: `Order ${(await params).id}` };
}

export default async function OrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await requireSessionUser(`/dashboard/orders/${encodeURIComponent(id)}`);
  if (user.role !== "partner") notFound();
  const environment = await getDashboardEnvironment();
  return (
    <Suspense fallback={<LoadingRows label="Loading the order…" rows={6} />}>
      <OrderDetail key={environment} id={id} environment={environment} />
    </Suspense>
  );
}
