import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { StaffCase } from "./staff-case";

export const metadata: Metadata = { title: "Brokerage case" };

export default async function AdminCasePage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingRows label="Loading the case…" rows={6} />}>
      <StaffCase id={id} />
    </Suspense>
  );
}
