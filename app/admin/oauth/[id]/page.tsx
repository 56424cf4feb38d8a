import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { StaffOAuthClient } from "./staff-oauth-client";

export const metadata: Metadata = { title: "OAuth client" };

export default async function AdminOAuthClientPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <Suspense fallback={<LoadingRows label="Loading the OAuth client…" rows={6} />}>
      <StaffOAuthClient id={id} />
    </Suspense>
  );
}
