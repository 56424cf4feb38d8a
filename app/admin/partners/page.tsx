import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { PartnerSearch } from "./partner-search";

export const metadata: Metadata = { title: "Partners" };

export default function AdminPartnersPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading partners…" rows={6} />}>
      <PartnerSearch />
    </Suspense>
  );
}
