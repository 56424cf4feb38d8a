import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { AccessRequests } from "./access-requests";

export const metadata: Metadata = { title: "Access requests" };

export default function AccessRequestsPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading access requests…" rows={4} />}>
      <AccessRequests />
    </Suspense>
  );
}
