import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requireSessionUser } from "@/server/auth/session";
import { OrganisationView } from "./organisation-view";

export const metadata: Metadata = { title: "Organisation" };

export default async function OrganisationPage() {
  const user = await requireSessionUser("/dashboard/organisation");
  if (user.role !== "partner") notFound();
  return <OrganisationView />;
}
