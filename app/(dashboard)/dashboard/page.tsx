import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { API_REFERENCE_URL } from "@/components/shell/brand";
import { buttonClasses, Card, CardContent, CardDescription, CardHeader, CardTitle, PageHeader } from "@/components/ui";
import { can } from "@/server/auth/partner-roles";
import { requireSessionUser } from "@/server/auth/session";
import { PartnerOverview } from "./partner-overview";

export const metadata: Metadata = { title: "Dashboard" };

export default async function DashboardPage() {
  const user = await requireSessionUser("/dashboard");

  if (user.role === "partner" && user.partnerId) return <PartnerOverview canChange={can(user.partnerRole, "changeIntegration")} />;

  // Staff work in the admin console.
  if (user.role === "admin") redirect("/admin");

  return (
    <div className="space-y-8">
      <PageHeader title="Your account" description={user.email} />
      <Card>
        <CardHeader>
          <CardTitle>Marketplace account</CardTitle>
          <CardDescription>
            This account signs in to apps that use the public domain search. It has no partner dashboard.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <a href={API_REFERENCE_URL} className={buttonClasses({ variant: "secondary" })}>
            API reference
          </a>
        </CardContent>
      </Card>
    </div>
  );
}
