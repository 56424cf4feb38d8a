import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { CaseQueue } from "./case-queue";

export const metadata: Metadata = { title: "Brokerage" };

export default function AdminBrokeragePage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading cases…" rows={6} />}>
      <CaseQueue />
    </Suspense>
  );
}
