import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { StaffPayouts } from "./staff-payouts";

export const metadata: Metadata = { title: "Payouts" };

export default function AdminPayoutsPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading payouts…" rows={6} />}>
      <StaffPayouts />
    </Suspense>
  );
}
