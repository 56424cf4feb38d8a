import type { ReactNode } from "react";
import { DashboardHeader } from "@/components/shell/dashboard-header";
import type { NavItem } from "@/components/shell/dashboard-nav";
import { getDashboardEnvironment } from "@/server/auth/dashboard-environment";
import { requireSessionUser } from "@/server/auth/session";

// Everything under (dashboard) needs a signed-in user. Pages still check roles
// themselves (and tRPC procedures enforce them): a layout does not re-run on
// client navigation, so it cannot be the only guard.

const navByRole: Record<"partner" | "admin" | "customer", NavItem[]> = {
  partner: [
    { href: "/dashboard", label: "Overview" },
    { href: "/dashboard/finance", label: "Finance" },
    { href: "/dashboard/keys", label: "API keys" },
    { href: "/dashboard/webhooks", label: "Webhooks" },
    { href: "/dashboard/events", label: "Events" },
    { href: "/dashboard/requests", label: "Request log" },
    { href: "/dashboard/organisation", label: "Organisation" },
  ],
  admin: [{ href: "/dashboard", label: "Overview" }],
  customer: [{ href: "/dashboard", label: "Account" }],
};

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const user = await requireSessionUser("/dashboard");
  const environment = user.role === "partner" ? await getDashboardEnvironment() : undefined;
  return (
    <>
      <DashboardHeader user={user} nav={navByRole[user.role]} environment={environment} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10">
        {children}
      </main>
    </>
  );
}
