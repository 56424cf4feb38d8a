import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { StaffOrders } from "./staff-orders";

export const metadata: Metadata = { title: "Orders" };

export default function AdminOrdersPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading orders…" rows={6} />}>
      <StaffOrders />
    </Suspense>
  );
}
