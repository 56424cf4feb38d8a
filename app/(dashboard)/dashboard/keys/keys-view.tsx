"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import {
  Alert,
  Badge,
  Button,
  buttonClasses,
  Checkbox,
  ConfirmDialog,
  CopyButton,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  EmptyState,
  ErrorState,
  LoadingRows,
  PageHeader,
  RelativeTime,
  Tooltip,
  useToast,
} from "@/components/ui";
import type { Environment } from "@/db/schema";
import type { Scope } from "@/server/http/contract";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { AllowListDialog, CreateKeyDialog, RollKeyDialog } from "./key-dialogs";

// API keys of the selected environment: create (secret shown once), roll with a
// grace, restrict to addresses, revoke. ?revoked=1 also lists revoked keys.

export type ApiKey = inferRouterOutputs<AppRouter>["keys"]["list"][number];

export interface KeysViewProps {
  environment: Environment;
  canRead: boolean;
  canChange: boolean;
  liveApproved: boolean;
  scopeDescriptions: Record<Scope, string>;
}

export function KeysView({ environment, canRead, canChange, liveApproved, scopeDescriptions }: KeysViewProps) {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(["revoked"] as const);
  const includeRevoked = filters.revoked === "1";
  const keys = useQuery({ ...trpc.keys.list.queryOptions({ includeRevoked }), enabled: canRead });
  const mayCreate = canChange && (environment === "sandbox" || liveApproved);
  const create = mayCreate ? <CreateKeyDialog environment={environment} scopeDescriptions={scopeDescriptions} /> : null;

  return (
    <div className="space-y-6">
      <PageHeader
        title="API keys"
        description={`Keys sign your server's requests to the ${environment} API. The key id names the key; the secret signs, and never leaves your server.`}
        actions={create}
      />
      {!canRead ? (
        <Alert tone="info" title="Your role does not see API keys">
          The finance role sees orders and money but not keys; ask an owner of your organisation.
        </Alert>
      ) : (
        <>
          {environment === "live" && !liveApproved ? (
            <Alert tone="info" title="Live keys need production access">
              Request it on the <Link href="/dashboard/organisation" className="font-medium underline">Organisation</Link> page; once staff approve, you
              can create live keys here.
            </Alert>
          ) : null}
          {!canChange ? (
            <Alert tone="info" title="You can look but not change keys">
              Only owners and developers create, roll or revoke keys.
            </Alert>
          ) : null}
          <div className="flex items-center justify-end">
            <Checkbox
              id="show-revoked"
              checked={includeRevoked}
              onCheckedChange={(checked) => setFilters({ revoked: checked ? "1" : "" })}
              label="Show revoked keys"
            />
          </div>
          {keys.isPending ? (
            <LoadingRows label="Loading your keys…" rows={3} />
          ) : keys.isError ? (
            <ErrorState title="We couldn't load your keys" error={keys.error} onRetry={() => keys.refetch()} />
          ) : keys.data.length === 0 ? (
            <EmptyState
              title={`No ${environment} keys yet`}
              description={
                environment === "sandbox"
                  ? "Create a sandbox key to make your first signed call; sandbox keys see test inventory and move no money."
                  : "Live keys sell real domains for real money. Create one when your integration works in sandbox."
              }
              action={create}
            />
          ) : (
            <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label={`${environment} API keys`}>
              {keys.data.map((key) => (
                <KeyRow key={key.keyId} apiKey={key} canChange={canChange} scopeDescriptions={scopeDescriptions} />
              ))}
            </ul>
          )}
        </>
      )}
    </div>
  );
}

function KeyRow({ apiKey, canChange, scopeDescriptions }: { apiKey: ApiKey; canChange: boolean; scopeDescriptions: Record<Scope, string> }) {
  const revoked = apiKey.status === "revoked";
  return (
    <li className="flex flex-wrap items-start gap-x-6 gap-y-3 px-4 py-4 sm:px-5" data-testid="key-row" data-key-id={apiKey.keyId}>
      <div className="min-w-0 flex-1 basis-72 space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <span className="font-medium text-ink">{apiKey.name ?? "Unnamed key"}</span>
          {revoked ? <Badge tone="danger">Revoked</Badge> : <Badge tone="success">Active</Badge>}
          {apiKey.previousSecretExpiresAt ? (
            <Badge tone="warning" data-testid="grace-badge">
              Old secret valid until <RelativeTime value={apiKey.previousSecretExpiresAt} />
            </Badge>
          ) : null}
        </div>
        <div className="flex min-w-0 items-center gap-1">
          <code className="truncate font-mono text-xs text-muted">{apiKey.keyId}</code>
          <CopyButton value={apiKey.keyId} label={`Copy key id ${apiKey.keyId}`} />
        </div>
        <ul className="flex flex-wrap gap-1" aria-label="Scopes">
          {apiKey.scopes.map((scope) => (
            <li key={scope}>
              <Tooltip content={scopeDescriptions[scope]}>
                <button type="button" className="rounded-md" aria-label={`${scope}: ${scopeDescriptions[scope]}`}>
                  <Badge tone="brand">{scope}</Badge>
                </button>
              </Tooltip>
            </li>
          ))}
        </ul>
      </div>
      <dl className="grid min-w-0 flex-1 basis-72 grid-cols-2 gap-x-4 gap-y-2 text-sm sm:grid-cols-3">
        <div>
          <dt className="text-xs text-faint">Created</dt>
          <dd>
            <RelativeTime value={apiKey.createdAt} />
          </dd>
        </div>
        <div>
          <dt className="text-xs text-faint">Last used</dt>
          <dd data-testid="last-used">
            {apiKey.lastUsedAt ? <RelativeTime value={apiKey.lastUsedAt} /> : "Never"}
            {apiKey.lastUsedIp ? <span className="block truncate font-mono text-xs text-muted">{apiKey.lastUsedIp}</span> : null}
          </dd>
        </div>
        <div>
          <dt className="text-xs text-faint">Requests, 24 h</dt>
          <dd>
            <Link href={`/dashboard/requests?key=${encodeURIComponent(apiKey.keyId)}`} className="rounded-sm font-medium text-brand hover:text-brand-hover" data-testid="requests-24h">
              {apiKey.requests24h.toLocaleString("en-US")}
            </Link>
          </dd>
        </div>
        <div className="col-span-2 sm:col-span-3">
          <dt className="text-xs text-faint">Allowed addresses</dt>
          <dd className="break-words font-mono text-xs text-muted" data-testid="allow-list">
            {apiKey.allowedCidrs.length ? apiKey.allowedCidrs.join(", ") : "Any address"}
          </dd>
        </div>
        {revoked && apiKey.revokedAt ? (
          <div className="col-span-2 sm:col-span-3">
            <dt className="text-xs text-faint">Revoked</dt>
            <dd>
              <RelativeTime value={apiKey.revokedAt} />
            </dd>
          </div>
        ) : null}
      </dl>
      {canChange && !revoked ? <KeyActions apiKey={apiKey} /> : null}
    </li>
  );
}

type Open = "roll" | "allow" | null;

function KeyActions({ apiKey }: { apiKey: ApiKey }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [open, setOpen] = useState<Open>(null);
  const revoke = useMutation(trpc.keys.revoke.mutationOptions());
  const label = apiKey.name ?? apiKey.keyId;
  return (
    <div className="flex items-center gap-2">
      <DropdownMenu>
        <DropdownMenuTrigger className={buttonClasses({ variant: "secondary", size: "sm" })} aria-label={`Manage ${label}`}>
          Manage
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => setOpen("roll")}>Roll secret…</DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setOpen("allow")}>Edit allowed addresses…</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <ConfirmDialog
        trigger={
          <Button variant="ghost" size="sm" aria-label={`Revoke ${label}`}>
            Revoke
          </Button>
        }
        title={`Revoke ${label}?`}
        description={
          <p>
            Every request signed with <code className="font-mono text-xs">{apiKey.keyId}</code> fails with 401 from now on, including during a
            roll&apos;s grace. This cannot be undone; create a new key to replace it.
          </p>
        }
        confirmLabel="Revoke key"
        onConfirm={async () => {
          await revoke.mutateAsync({ keyId: apiKey.keyId });
          toast({ title: `${label} revoked`, tone: "success" });
          await queryClient.invalidateQueries({ queryKey: trpc.keys.pathKey() });
        }}
      />
      <RollKeyDialog apiKey={apiKey} open={open === "roll"} onOpenChange={(next) => setOpen(next ? "roll" : null)} />
      <AllowListDialog apiKey={apiKey} open={open === "allow"} onOpenChange={(next) => setOpen(next ? "allow" : null)} />
    </div>
  );
}
