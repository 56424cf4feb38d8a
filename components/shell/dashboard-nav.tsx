"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { cn } from "@/components/ui/cn";

export interface NavItem {
  href: string;
  label: string;
}

/** Section tabs under the dashboard header; the current one is marked for screen readers too. */
export function DashboardNav({ items }: { items: NavItem[] }) {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard" className="-mb-px flex gap-1 overflow-x-auto">
      {items.map((item) => {
        // A section's root (/dashboard, /admin) is current only on itself; others also on their sub-pages.
        const isRoot = items.some((other) => other.href.startsWith(`${item.href}/`));
        const active = isRoot ? pathname === item.href : pathname === item.href || pathname.startsWith(`${item.href}/`);
        return (
          <Link
            key={item.href}
            href={item.href}
            aria-current={active ? "page" : undefined}
            className={cn(
              "rounded-t-md border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors",
              active ? "border-brand text-ink" : "border-transparent text-muted hover:border-line-strong hover:text-ink",
            )}
          >
            {item.label}
          </Link>
        );
      })}
    </nav>
  );
}
