import Link from "next/link";
import type { Environment } from "@/db/schema";
import type { SessionUser } from "@/server/auth/session";
import { Badge } from "@/components/ui/badge";
import { DashboardNav, type NavItem } from "./dashboard-nav";
import { EnvironmentSwitch } from "./environment-switch";
import { Logo } from "./logo";
import { SignOutButton } from "./sign-out-button";

const roleLabels: Record<SessionUser["role"], string> = { partner: "Partner", admin: "Admin", customer: "Customer" };

export function DashboardHeader({ user, nav, environment }: { user: SessionUser; nav: NavItem[]; environment?: Environment }) {
  return (
    <header className="border-b border-line bg-surface">
      {environment === "sandbox" ? (
        <div className="bg-warning-soft px-4 py-1 text-center text-xs font-medium text-warning-ink" data-testid="sandbox-banner">
          Sandbox: test keys, test data, no real money
        </div>
      ) : null}
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex h-16 items-center justify-between gap-3">
          <Link href="/dashboard" className="flex shrink-0 rounded-md">
            <Logo compact suffix={user.role === "admin" ? "Admin" : "Partners"} />
          </Link>
          <div className="flex min-w-0 items-center gap-2 sm:gap-3">
            {environment ? <EnvironmentSwitch environment={environment} /> : null}
            <div className="flex min-w-0 items-center gap-2 max-sm:hidden">
              <span className="max-w-[12rem] truncate text-sm text-muted sm:max-w-xs" data-testid="signed-in-email">
                {user.email}
              </span>
              <Badge>{roleLabels[user.role]}</Badge>
            </div>
            <SignOutButton />
          </div>
        </div>
        <DashboardNav items={nav} />
      </div>
    </header>
  );
}
