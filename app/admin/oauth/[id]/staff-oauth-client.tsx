"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/app/providers";
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  CopyButton,
  EmptyState,
  ErrorState,
  LoadingRows,
  RelativeTime,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "@/components/ui";
import { RevokeClient, RevokeUser } from "../revoke-oauth";

// One OAuth client for staff: what it registered, and its grants by user
// (scopes, first consent, last refresh, when access ends), each revocable for
// this client or everywhere; the client itself revocable with all its tokens.

export function StaffOAuthClient({ id }: { id: string }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.admin.oauth.get.queryOptions({ id }));
  if (detail.isPending) return <LoadingRows label="Loading the OAuth client…" rows={6} />;
  if (detail.isError) return <ErrorState title="We couldn't load this OAuth client" error={detail.error} onRetry={() => detail.refetch()} />;
  const { client, users, truncated } = detail.data;
  const name = client.name ?? "Unnamed client";
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link href="/admin/oauth" className="text-sm text-muted hover:text-ink">
          ← All OAuth clients
        </Link>
        <div className="flex flex-wrap items-start justify-between gap-3">
          <h1 className="text-2xl font-semibold tracking-tight break-all text-ink">{name}</h1>
          {client.revokedAt ? null : <RevokeClient clientId={client.id} name={name} trigger={<Button variant="danger">Revoke client</Button>} />}
        </div>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          {client.revokedAt ? (
            <Badge tone="danger" data-testid="client-status">
              Revoked
            </Badge>
          ) : (
            <Badge tone="success" data-testid="client-status">
              Active
            </Badge>
          )}
          <code className="font-mono text-xs break-all text-muted">{client.id}</code>
          <CopyButton value={client.id} label="Copy client_id" />
        </div>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Registration</CardTitle>
          <CardDescription>
            <Link href={`/admin/audit?targetId=${client.id}`} className="text-brand hover:text-brand-hover">
              Audit log of this client
            </Link>
          </CardDescription>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3 text-sm sm:grid-cols-2">
            <div className="sm:col-span-2">
              <dt className="text-xs text-faint">Redirect URIs</dt>
              <dd>
                <ul className="space-y-0.5 font-mono text-xs break-all">
                  {client.redirectUris.map((uri) => (
                    <li key={uri}>{uri}</li>
                  ))}
                </ul>
              </dd>
            </div>
            <div>
              <dt className="text-xs text-faint">Scopes it may ask for</dt>
              <dd>{client.scope ?? "—"}</dd>
            </div>
            <div>
              <dt className="text-xs text-faint">Registered</dt>
              <dd>
                <RelativeTime value={client.createdAt} />
              </dd>
            </div>
            {client.clientUri ? (
              <div>
                <dt className="text-xs text-faint">Home page (as registered)</dt>
                <dd className="break-all">{client.clientUri}</dd>
              </div>
            ) : null}
            {client.software ? (
              <div>
                <dt className="text-xs text-faint">Software</dt>
                <dd className="break-all">{client.software}</dd>
              </div>
            ) : null}
            {client.revokedAt ? (
              <div>
                <dt className="text-xs text-faint">Revoked</dt>
                <dd>
                  <RelativeTime value={client.revokedAt} />
                </dd>
              </div>
            ) : null}
          </dl>
        </CardContent>
      </Card>
      <section aria-labelledby="grants-heading" className="space-y-3">
        <h2 id="grants-heading" className="text-base font-semibold text-ink">
          Grants by user
        </h2>
        {users.length === 0 ? (
          <EmptyState title="No one has granted this client access" description="A grant appears once a user consents on the authorization page." />
        ) : (
          <div className="rounded-xl border border-line bg-surface">
            <Table aria-label={`Grants to ${name}`}>
              <THead>
                <tr>
                  <TH>User</TH>
                  <TH>Scopes</TH>
                  <TH>Grants</TH>
                  <TH>First consent</TH>
                  <TH>Last refresh</TH>
                  <TH>Access until</TH>
                  {/* relative: keeps the absolutely placed sr-only text inside the scrolling table, not widening the page */}
                  <TH className="relative">
                    <span className="sr-only">Actions</span>
                  </TH>
                </tr>
              </THead>
              <TBody>
                {users.map((user) => (
                  <TR key={user.userId} data-testid="oauth-grant" data-email={user.email}>
                    <TD className="min-w-48 break-all">{user.email}</TD>
                    <TD className="text-xs">{user.scopes.length ? user.scopes.join(" ") : <span className="text-faint">none active</span>}</TD>
                    <TD className="tabular-nums">
                      {user.activeGrants} active
                      {user.grants > user.activeGrants ? <span className="text-faint"> of {user.grants}</span> : null}
                    </TD>
                    <TD className="whitespace-nowrap">
                      <RelativeTime value={user.issuedAt} />
                    </TD>
                    <TD className="whitespace-nowrap">
                      <RelativeTime value={user.lastRefreshAt} />
                    </TD>
                    <TD className="whitespace-nowrap">
                      {user.expiresAt ? <RelativeTime value={user.expiresAt} /> : <Badge tone={user.lastRevokedAt ? "danger" : "neutral"}>{user.lastRevokedAt ? "Revoked" : "Expired"}</Badge>}
                    </TD>
                    <TD>
                      <div className="flex flex-wrap justify-end gap-1">
                        {user.activeTokens > 0 ? (
                          <RevokeUser
                            email={user.email}
                            client={{ id: client.id, name }}
                            trigger={
                              <Button variant="ghost" size="sm" aria-label={`Revoke here for ${user.email}`}>
                                Revoke here
                              </Button>
                            }
                          />
                        ) : null}
                        <RevokeUser
                          email={user.email}
                          trigger={
                            <Button variant="ghost" size="sm" aria-label={`Revoke everywhere for ${user.email}`}>
                              Revoke everywhere
                            </Button>
                          }
                        />
                      </div>
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          </div>
        )}
        {truncated ? <p className="text-xs text-muted">The 200 most recently active users are shown.</p> : null}
      </section>
    </div>
  );
}
