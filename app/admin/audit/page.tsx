import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { AuditViewer } from "./audit-viewer";

export const metadata: Metadata = { title: "Audit log" };

export default function AdminAuditPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading the audit log…" rows={8} />}>
      <AuditViewer />
    </Suspense>
  );
}
