"use client";

import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useTRPC } from "@/app/providers";
import {
  Alert,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Code,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  LoadingRows,
  PageHeader,
  RelativeTime,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
  useToast,
} from "@/components/ui";
import { partnerRoles, roleDescriptions, roleLabels, type PartnerRole } from "@/server/auth/partner-roles";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { InviteDialog } from "./invite-dialog";

// The organisation's team (owners manage it) and its audit log.

type Team = inferRouterOutputs<AppRouter>["team"]["list"];

export function TeamView({ canManage, selfId }: { canManage: boolean; selfId: string }) {
  return (
    <div className="space-y-8">
      <PageHeader
        title="Team"
        description="Who can sign in to your organisation's dashboard, what each of them may do, and what they did."
        actions={canManage ? <InviteDialog /> : null}
      />
      {canManage ? (
        <>
          <Members selfId={selfId} />
          <AuditLog />
        </>
      ) : (
        <Alert tone="info" title="Only owners manage the team">
          Ask an owner of your organisation to invite people, change roles or show you the audit log.
        </Alert>
      )}
      <RoleGuide />
    </div>
  );
}

function Members({ selfId }: { selfId: string }) {
  const trpc = useTRPC();
  const team = useQuery(trpc.team.list.queryOptions());
  return (
    <section aria-labelledby="members-heading" className="space-y-3">
      <h2 id="members-heading" className="text-base font-semibold text-ink">
        Members
      </h2>
      {team.isPending ? (
        <LoadingRows label="Loading members…" rows={3} />
      ) : team.isError ? (
        <ErrorState title="We couldn't load your team" error={team.error} onRetry={() => team.refetch()} />
      ) : (
        <>
          <MemberTable members={team.data.members} selfId={selfId} />
          <Invitations invitations={team.data.invitations} />
        </>
      )}
    </section>
  );
}

function MemberTable({ members, selfId }: { members: Team["members"]; selfId: string }) {
  // A list rather than a table: at phone width each member wraps onto two lines.
  return (
    <ul className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="Team members">
      {members.map((member) => (
        <li key={member.userId} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3" data-testid="member-row">
          <div className="min-w-0 flex-1 basis-56">
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-medium text-ink">{member.name ?? member.email}</span>
              {member.userId === selfId ? <Badge>You</Badge> : null}
            </div>
            <div className="text-xs break-words text-muted">
              {member.name ? `${member.email} · ` : null}joined <RelativeTime value={member.joinedAt} />
            </div>
          </div>
          <div className="flex items-center gap-2">
            <RoleSelect member={member} />
            <RemoveMember member={member} self={member.userId === selfId} />
          </div>
        </li>
      ))}
    </ul>
  );
}

function useTeamRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.team.pathKey() });
}

function RoleSelect({ member }: { member: Team["members"][number] }) {
  const trpc = useTRPC();
  const refresh = useTeamRefresh();
  const { toast } = useToast();
  const setRole = useMutation(
    trpc.team.setRole.mutationOptions({
      onSuccess: (result) => toast({ title: `${member.email} is now ${roleLabels[result.role].toLowerCase()}`, tone: "success" }),
      onError: (error) => toast({ title: "Role not changed", description: error.message, tone: "danger" }),
      onSettled: () => refresh(),
    }),
  );
  return (
    <Select
      aria-label={`Role of ${member.email}`}
      value={member.role}
      disabled={setRole.isPending}
      containerClassName="w-36"
      onChange={(event) => setRole.mutate({ userId: member.userId, role: event.target.value as PartnerRole })}
    >
      {partnerRoles.map((role) => (
        <option key={role} value={role}>
          {roleLabels[role]}
        </option>
      ))}
    </Select>
  );
}

function RemoveMember({ member, self }: { member: Team["members"][number]; self: boolean }) {
  const trpc = useTRPC();
  const refresh = useTeamRefresh();
  const { toast } = useToast();
  const remove = useMutation(trpc.team.remove.mutationOptions());
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Remove ${member.email}`}>
          Remove
        </Button>
      }
      title={self ? "Remove yourself from the team?" : `Remove ${member.email}?`}
      description={
        <p>
          {self ? "You" : "They"} will be signed out at once and can no longer open this dashboard. The audit log keeps what{" "}
          {self ? "you" : "they"} did. Invite the address again to bring {self ? "you" : "them"} back.
        </p>
      }
      confirmLabel="Remove member"
      onConfirm={async () => {
        await remove.mutateAsync({ userId: member.userId });
        toast({ title: `${member.email} removed`, tone: "success" });
        await refresh();
      }}
    />
  );
}

function Invitations({ invitations }: { invitations: Team["invitations"] }) {
  const trpc = useTRPC();
  const refresh = useTeamRefresh();
  const revoke = useMutation(trpc.team.revokeInvitation.mutationOptions());
  if (invitations.length === 0) return null;
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold text-ink">Open invitations</h3>
      <ul className="divide-y divide-line rounded-xl border border-line" aria-label="Open invitations">
        {invitations.map((invitation) => (
          <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3" data-testid="invitation-row">
            <div className="min-w-0">
              <div className="text-sm font-medium break-all text-ink">{invitation.email}</div>
              <div className="text-xs text-muted">
                {roleLabels[invitation.role]} · expires <RelativeTime value={invitation.expiresAt} />
                {invitation.invitedBy ? ` · invited by ${invitation.invitedBy}` : null}
              </div>
            </div>
            <ConfirmDialog
              trigger={
                <Button variant="ghost" size="sm" aria-label={`Revoke the invitation of ${invitation.email}`}>
                  Revoke
                </Button>
              }
              title={`Revoke the invitation of ${invitation.email}?`}
              description={<p>The link stops working at once. You can invite the address again later.</p>}
              confirmLabel="Revoke invitation"
              onConfirm={async () => {
                await revoke.mutateAsync({ id: invitation.id });
                await refresh();
              }}
            />
          </li>
        ))}
      </ul>
    </div>
  );
}

function AuditLog() {
  const trpc = useTRPC();
  const audit = useInfiniteQuery(
    trpc.team.audit.infiniteQueryOptions({ limit: 25 }, { getNextPageParam: (page) => page.nextCursor ?? undefined }),
  );
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <section aria-labelledby="audit-heading" className="space-y-3">
      <div>
        <h2 id="audit-heading" className="text-base font-semibold text-ink">
          Audit log
        </h2>
        <p className="text-sm text-muted">Every change made in your organisation, by your team or by marketplace staff, newest first.</p>
      </div>
      {audit.isPending ? (
        <LoadingRows label="Loading the audit log…" rows={5} />
      ) : audit.isError ? (
        <ErrorState title="We couldn't load the audit log" error={audit.error} onRetry={() => audit.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title="Nothing yet" description="Key, webhook and team changes appear here as they happen." />
      ) : (
        <>
          <Table aria-label="Audit log">
            <THead>
              <TR>
                <TH>When</TH>
                <TH className="max-sm:hidden">Who</TH>
                <TH>What</TH>
                <TH className="max-md:hidden">Target</TH>
              </TR>
            </THead>
            <TBody>
              {entries.map((entry) => (
                <TR key={entry.id} data-testid="audit-row">
                  <TD className="whitespace-nowrap">
                    <RelativeTime value={entry.createdAt} />
                  </TD>
                  <TD className="break-words max-sm:hidden">{entry.actor ?? "—"}</TD>
                  <TD>
                    <Code>{entry.action}</Code>
                    {entry.environment ? <Badge className="ml-2">{entry.environment}</Badge> : null}
                    <div className="mt-1 text-xs break-words text-muted sm:hidden">{entry.actor ?? "—"}</div>
                  </TD>
                  <TD className="max-md:hidden">
                    {entry.targetId ? <span className="font-mono text-xs break-all text-muted">{entry.targetId}</span> : "—"}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
          {audit.hasNextPage ? (
            <Button variant="secondary" onClick={() => void audit.fetchNextPage()} disabled={audit.isFetchingNextPage}>
              {audit.isFetchingNextPage ? "Loading…" : "Show older entries"}
            </Button>
          ) : null}
        </>
      )}
    </section>
  );
}

function RoleGuide() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Roles</CardTitle>
        <CardDescription>What each role may do in the dashboard; the API itself is governed by each key&apos;s scopes.</CardDescription>
      </CardHeader>
      <CardContent>
        <dl className="grid gap-3 sm:grid-cols-2">
          {partnerRoles.map((role) => (
            <div key={role}>
              <dt className="text-sm font-medium text-ink">{roleLabels[role]}</dt>
              <dd className="text-sm text-muted">{roleDescriptions[role]}</dd>
            </div>
          ))}
        </dl>
      </CardContent>
    </Card>
  );
}
