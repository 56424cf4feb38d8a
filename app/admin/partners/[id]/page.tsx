import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { StaffPartner } from "./staff-partner";

export const metadata: Metadata = { title: "Partner" };

export default async function AdminPartnerPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingRows label="Loading the partner…" rows={8} />}>
      <StaffPartner id={id} />
    </Suspense>
  );
}
