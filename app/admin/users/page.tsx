import type { Metadata } from "next";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { UserSearch } from "./user-search";

export const metadata: Metadata = { title: "Users" };

export default function AdminUsersPage() {
  return (
    <Suspense fallback={<LoadingRows label="Loading users…" rows={6} />}>
      <UserSearch />
    </Suspense>
  );
}
