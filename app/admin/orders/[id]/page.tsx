import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { StaffOrderDetail } from "./staff-order-detail";

export const metadata: Metadata = { title: "Order" };

export default async function AdminOrderPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingRows label="Loading the order…" rows={6} />}>
      <StaffOrderDetail id={id} />
    </Suspense>
  );
}
