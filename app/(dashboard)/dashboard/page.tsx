import type { Metadata } from "next";
import { OPENAPI_URL } from "@/components/shell/brand";
import { buttonClasses, Card, CardContent, CardDescription, CardHeader, CardTitle, CodeBlock, PageHeader } from "@/components/ui";
import { can } from "@/server/auth/partner-roles";
import { requireSessionUser } from "@/server/auth/session";
import { PartnerOverview } from "./partner-overview";

export const metadata: Metadata = { title: "Dashboard" };

export default async function DashboardPage() {
  const user = await requireSessionUser("/dashboard");

  if (user.role === "partner" && user.partnerId) return <PartnerOverview canChange={can(user.partnerRole, "changeIntegration")} />;

  if (user.role === "admin") {
    return (
      <div className="space-y-8">
        <PageHeader title="Admin" description="Operate partners, inventory, orders and settlements." />
        <Card data-testid="admin-placeholder">
          <CardHeader>
            <CardTitle>Admin console</CardTitle>
            <CardDescription>
              Partner approval, credentials, inventory, order transfers, settlement runs, brokerage and OAuth
              revocation will live here. Until then, use the operations CLI:
            </CardDescription>
          </CardHeader>
          <CardContent>
            <CodeBlock tone="light">npm run --silent admin -- help</CodeBlock>
          </CardContent>
        </Card>
      </div>
    );
  }

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
          <a href={OPENAPI_URL} className={buttonClasses({ variant: "secondary" })}>
            API reference
          </a>
        </CardContent>
      </Card>
    </div>
  );
}
