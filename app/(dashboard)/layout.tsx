import type { ReactNode } from "react";
import { DashboardHeader } from "@/components/shell/dashboard-header";
import type { NavItem } from "@/components/shell/dashboard-nav";
import { can, type PartnerPermission } from "@/server/auth/partner-roles";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";

// Everything under (dashboard) needs a signed-in user. Pages still check roles
// themselves (and tRPC procedures enforce them): a layout does not re-run on
// client navigation, so it cannot be the only guard.

/** The partner's pages, each shown to the roles that may read it (server/auth/partner-roles.ts). */
const partnerNav: Array<NavItem & { needs: PartnerPermission }> = [
  { href: "/dashboard", label: "Overview", needs: "readMoney" },
  { href: "/dashboard/orders", label: "Orders", needs: "readMoney" },
  { href: "/dashboard/finance", label: "Finance", needs: "readMoney" },
  { href: "/dashboard/links", label: "Links", needs: "readMoney" },
  { href: "/dashboard/brokerage", label: "Brokerage", needs: "readMoney" },
  { href: "/dashboard/keys", label: "API keys", needs: "readIntegration" },
  { href: "/dashboard/webhooks", label: "Webhooks", needs: "readIntegration" },
  { href: "/dashboard/events", label: "Events", needs: "readIntegration" },
  { href: "/dashboard/requests", label: "Request log", needs: "readIntegration" },
  { href: "/dashboard/sandbox", label: "Simulators", needs: "readIntegration" },
  { href: "/docs/api", label: "API reference", needs: "readIntegration" },
  { href: "/dashboard/organisation", label: "Organisation", needs: "readMoney" },
  { href: "/dashboard/team", label: "Team", needs: "readMoney" },
];

const navByRole: Record<"partner" | "admin" | "customer", NavItem[]> = {
  partner: partnerNav,
  admin: [{ href: "/dashboard", label: "Overview" }],
  customer: [{ href: "/dashboard", label: "Account" }],
};

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireSessionUser("/dashboard");
  const environment = user.role === "partner" ? await getDashboardEnvironment() : undefined;
  const nav =
    user.role === "partner"
      ? partnerNav.filter((item) => can(user.partnerRole, item.needs)).map(({ href, label }) => ({ href, label }))
      : navByRole[user.role];
  return (
    <>
      <DashboardHeader user={user} nav={nav} environment={environment} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10">
        {children}
      </main>
    </>
  );
}
