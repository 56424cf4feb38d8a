import Link from "next/link";
import type { SessionUser } from "@/server/auth/session";
import { Badge } from "@/components/ui/badge";
import { DashboardNav, type NavItem } from "./dashboard-nav";
import { Logo } from "./logo";
import { SignOutButton } from "./sign-out-button";

const roleLabels: Record<SessionUser["role"], string> = { partner: "Partner", admin: "Admin", customer: "Customer" };

export function DashboardHeader({ user, nav }: { user: SessionUser; nav: NavItem[] }) {
  return (
    <header className="border-b border-line bg-surface">
      <div className="mx-auto max-w-6xl px-4 sm:px-6">
        <div className="flex h-16 items-center justify-between gap-4">
          <Link href="/dashboard" className="flex rounded-md" aria-label="Dashboard home">
            <Logo compact suffix={user.role === "admin" ? "Admin" : "Partners"} />
          </Link>
          <div className="flex min-w-0 items-center gap-3">
            <div className="flex min-w-0 items-center gap-2">
              <span className="max-w-[12rem] truncate text-sm text-muted sm:max-w-xs" data-testid="signed-in-email">
                {user.email}
              </span>
              <Badge className="max-sm:hidden">{roleLabels[user.role]}</Badge>
            </div>
            <SignOutButton />
          </div>
        </div>
        <DashboardNav items={nav} />
      </div>
    </header>
  );
}
