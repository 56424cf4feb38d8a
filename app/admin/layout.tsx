import type { Metadata } from "next";
import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardHeader } from "@/components/shell/dashboard-header";
import type { NavItem } from "@/components/shell/dashboard-nav";
import { requireSessionUser } from "@/server/auth/session";

// The admin console: staff only. Anyone else signed in gets the not-found page
// (the console's existence is not advertised); the tRPC procedures behind it
// check the role again, since a layout does not re-run on client navigation.

export const metadata: Metadata = { title: { template: "%s · Admin", default: "Admin" } };

const nav: NavItem[] = [
  { href: "/admin", label: "Overview" },
  { href: "/admin/partners", label: "Partners" },
  { href: "/admin/orders", label: "Orders" },
  { href: "/admin/inventory", label: "Inventory" },
  { href: "/admin/settlements", label: "Settlements" },
  { href: "/admin/payouts", label: "Payouts" },
  { href: "/admin/brokerage", label: "Brokerage" },
  { href: "/admin/access-requests", label: "Access requests" },
  { href: "/admin/oauth", label: "OAuth" },
  { href: "/admin/health", label: "Health" },
  { href: "/admin/users", label: "Users" },
  { href: "/admin/audit", label: "Audit log" },
];

export default async function AdminLayout({ children }: { children: ReactNode }) {
  const user = await requireSessionUser("/admin");
  if (user.role !== "admin") notFound();
  return (
    <>
      <DashboardHeader user={user} nav={nav} />
      <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10">
        {children}
      </main>
    </>
  );
}
