import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { getSessionUser } from "@/server/auth/session";
import { StaffUser } from "./staff-user";

export const metadata: Metadata = { title: "User" };

export default async function AdminUserPage({ params }: { params: Promise<{ id: string }> }) {
  // The layout has checked staff; the session is memoised per request, so this is no second read.
  const [{ id }, me] = await Promise.all([params, getSessionUser()]);
  return (
    <Suspense fallback={<LoadingRows label="Loading the user…" rows={6} />}>
      <StaffUser id={id} selfId={me?.id ?? null} />
    </Suspense>
  );
}
