import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { Suspense } from "react";
import { LoadingRows } from "@/components/ui";
import { can } from "@/server/auth/partner-roles";
import { requireSessionUser } from "@/server/auth/session";
import { TeamView } from "./team-view";

export const metadata: Metadata = { title: "Team" };

export default async function TeamPage() {
  const user = await requireSessionUser("/dashboard/team");
  if (user.role !== "partner") notFound();
  return (
    <Suspense fallback={<LoadingRows label="Loading your team…" rows={4} />}>
      <TeamView canManage={can(user.partnerRole, "manageTeam")} selfId={user.id} />
    </Suspense>
  );
}
