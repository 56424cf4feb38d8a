import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { OAuthClients } from "./oauth-clients";

export const metadata: Metadata = { title: "OAuth clients" };

export default function AdminOAuthPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading OAuth clients…" rows={6} />}>
      <OAuthClients />
    </Suspense>
  );
}
