import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { StaffInventory } from "./staff-inventory";

export const metadata: Metadata = { title: "Inventory" };

export default function AdminInventoryPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading listings…" rows={6} />}>
      <StaffInventory />
    </Suspense>
  );
}
