import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { InventoryImport } from "./inventory-import";

export const metadata: Metadata = { title: "Import listings" };

export default function AdminInventoryImportPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading…" rows={4} />}>
      <InventoryImport />
    </Suspense>
  );
}
