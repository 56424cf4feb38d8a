"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Badge, Button, CopyButton, Input, Label, PagedList, PageHeader, RelativeTime, Select } from "@/components/ui";
import { RevokeClient } from "./revoke-oauth";

// OAuth clients registered by agents (RFC 7591), newest first: search by name,
// client_id or redirect URI, filter active/revoked, both in the URL.

const KEYS = ["q", "status"] as const;

export function OAuthClients() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(KEYS);
  const [q, setQ] = useState(filters.q);
  const input = useMemo(
    () => ({
      q: filters.q || undefined,
      status: filters.status === "active" || filters.status === "revoked" ? (filters.status as "active" | "revoked") : undefined,
      limit: 25,
    }),
    [filters.q, filters.status],
  );
  const list = useInfiniteQuery(trpc.admin.oauth.list.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const rows = list.data?.pages.flatMap((page) => page.clients) ?? [];
  const onSearch = (event: FormEvent) => {
    event.preventDefault();
    setFilters({ q: q.trim() });
  };
  return (
    <div className="space-y-6">
      <PageHeader title="OAuth clients" description="Agents and apps that registered themselves to act for our users, newest first." />
      <form onSubmit={onSearch} className="flex flex-wrap items-end gap-2" aria-label="Search OAuth clients">
        <div className="min-w-0 flex-1 basis-56 space-y-1.5 sm:max-w-md">
          <Label htmlFor="oauth-q">Name, client_id or redirect URI</Label>
          <Input id="oauth-q" value={q} onChange={(event) => setQ(event.target.value)} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="oauth-status">Status</Label>
          <Select id="oauth-status" value={filters.status} onChange={(event) => setFilters({ status: event.target.value })}>
            <option value="">Any</option>
            <option value="active">Active</option>
            <option value="revoked">Revoked</option>
          </Select>
        </div>
        <Button type="submit">Search</Button>
      </form>
      <PagedList
        query={list}
        count={rows.length}
        loading="Loading OAuth clients…"
        errorTitle="We couldn't load the OAuth clients"
        empty={{ title: filters.q || filters.status ? "No clients match" : "No OAuth clients yet", description: filters.q || filters.status ? "Change or clear the search." : "Clients appear here once an agent registers at /api/oauth/register." }}
      >
        <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="OAuth clients">
          {rows.map((client) => {
            const name = client.name ?? "Unnamed client";
            return (
              <li
                key={client.id}
                className="flex flex-wrap items-start gap-x-6 gap-y-2 px-4 py-3"
                data-testid="staff-oauth-client"
                data-client-id={client.id}
                data-status={client.revokedAt ? "revoked" : "active"}
              >
                <div className="min-w-0 flex-1 basis-72 space-y-1">
                  <div className="flex flex-wrap items-center gap-2">
                    <Link href={`/admin/oauth/${client.id}`} className="font-medium break-all text-ink hover:text-brand">
                      {name}
                    </Link>
                    {client.revokedAt ? <Badge tone="danger">Revoked</Badge> : <Badge tone="success">Active</Badge>}
                  </div>
                  <div className="flex items-center gap-1">
                    <code className="truncate font-mono text-xs text-muted">{client.id}</code>
                    <CopyButton value={client.id} label={`Copy client_id of ${name}`} />
                  </div>
                  <div className="text-xs break-all text-muted">
                    {client.redirectUris[0]}
                    {client.redirectUris.length > 1 ? ` and ${client.redirectUris.length - 1} more` : ""}
                  </div>
                </div>
                <div className="space-y-1 text-xs">
                  <dl className="grid grid-cols-3 gap-x-4 gap-y-1">
                    <div>
                      <dt className="text-faint">Grants</dt>
                      <dd className="text-sm text-ink tabular-nums" data-testid="active-grants">
                        {client.activeGrants}
                      </dd>
                    </div>
                    <div>
                      <dt className="text-faint">Users</dt>
                      <dd className="text-sm text-ink tabular-nums">{client.activeUsers}</dd>
                    </div>
                    <div>
                      <dt className="text-faint">Tokens</dt>
                      <dd className="text-sm text-ink tabular-nums">{client.activeTokens}</dd>
                    </div>
                  </dl>
                  <p className="text-muted">
                    registered <RelativeTime value={client.createdAt} /> · last used {client.lastUsedAt ? <RelativeTime value={client.lastUsedAt} /> : "never"}
                  </p>
                </div>
                {client.revokedAt ? null : (
                  <RevokeClient
                    clientId={client.id}
                    name={name}
                    trigger={
                      <Button variant="ghost" size="sm" aria-label={`Revoke ${name}`}>
                        Revoke
                      </Button>
                    }
                  />
                )}
              </li>
            );
          })}
        </ul>
      </PagedList>
    </div>
  );
}
