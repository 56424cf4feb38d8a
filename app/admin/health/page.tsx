import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { HealthView } from "./health-view";

export const metadata: Metadata = { title: "Health" };

export default function AdminHealthPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading health figures…" rows={6} />}>
      <HealthView />
    </Suspense>
  );
}
