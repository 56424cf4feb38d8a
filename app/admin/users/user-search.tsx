"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Button, Input, Label, PagedList, PageHeader, RelativeTime, Select } from "@/components/ui";
import { AddStaffDialog } from "./add-staff-dialog";
import { UserBadges } from "./user-badges";

// Everyone who signs in, newest first: ?q= (email, name or id), ?role=,
// ?status= and ?partner= in the URL. Each row opens the user's page, where the
// actions are.

const KEYS = ["q", "role", "status", "partner"] as const;
const roles = ["admin", "partner", "customer"] as const;

export function UserSearch() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(KEYS);
  const [q, setQ] = useState(filters.q);
  const input = useMemo(
    () => ({
      q: filters.q || undefined,
      role: roles.find((r) => r === filters.role),
      status: filters.status === "active" || filters.status === "disabled" ? (filters.status as "active" | "disabled") : undefined,
      partnerId: filters.partner || undefined,
      limit: 25,
    }),
    [filters.q, filters.role, filters.status, filters.partner],
  );
  const list = useInfiniteQuery(trpc.admin.users.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const rows = list.data?.pages.flatMap((page) => page.users) ?? [];
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ q: q.trim() });
  };
  return (
    <div className="space-y-6">
      <PageHeader title="Users" description="Everyone who signs in: staff, partners' teams and marketplace customers, newest first." actions={<AddStaffDialog />} />
      <form onSubmit={onSearch} className="grid gap-3 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter users">
        <div className="space-y-1.5">
          <Label htmlFor="user-q">Email, name or id</Label>
          <Input id="user-q" value={q} onChange={(event) => setQ(event.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="user-role">Role</Label>
          <Select id="user-role" value={filters.role} onChange={(event) => setFilters({ role: event.target.value })}>
            <option value="">Any role</option>
            <option value="admin">Staff</option>
            <option value="partner">Partner</option>
            <option value="customer">Customer</option>
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="user-status">Status</Label>
          <Select id="user-status" value={filters.status} onChange={(event) => setFilters({ status: event.target.value })}>
            <option value="">Active and disabled</option>
            <option value="active">Active</option>
            <option value="disabled">Disabled</option>
          </Select>
        </div>
        <div className="flex items-end gap-2">
          <Button type="submit">Search</Button>
          {filters.partner ? (
            <Button variant="ghost" onClick={() => setFilters({ partner: "" })}>
              Any partner
            </Button>
          ) : null}
        </div>
      </form>
      <PagedList
        query={list}
        count={rows.length}
        loading="Loading users…"
        errorTitle="We couldn't load users"
        empty={{ title: "No users match", description: "Search by part of the email or name, or change the filters." }}
      >
        <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="Users">
          {rows.map((user) => (
            <li key={user.id} className="flex flex-wrap items-center gap-x-4 gap-y-1 px-4 py-3" data-testid="staff-user" data-user-id={user.id}>
              <div className="min-w-0 flex-1 basis-64">
                <Link href={`/admin/users/${user.id}`} className="font-medium break-all text-ink hover:text-brand">
                  {user.email}
                </Link>
                <div className="text-xs break-words text-muted">
                  {user.name ? `${user.name} · ` : ""}
                  {user.partner ? (
                    <>
                      <Link href={`/admin/partners/${user.partner.id}`} className="text-brand underline underline-offset-2 hover:text-brand-hover">
                        {user.partner.name}
                      </Link>
                      {" · "}
                    </>
                  ) : null}
                  joined <RelativeTime value={user.createdAt} />
                </div>
              </div>
              <UserBadges role={user.role} partnerRole={user.partnerRole} disabledAt={user.disabledAt} />
            </li>
          ))}
        </ul>
      </PagedList>
    </div>
  );
}
