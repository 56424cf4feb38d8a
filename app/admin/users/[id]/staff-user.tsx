"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import {
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  CopyButton,
  ErrorState,
  Label,
  LoadingRows,
  RelativeTime,
  Select,
  Textarea,
  useToast,
} from "@/components/ui";
import { partnerRoles, roleDescriptions, roleLabels, type PartnerRole } from "@/server/auth/partner-roles";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { UserBadges } from "../user-badges";

// One user for staff: who they are, their partner, and what staff may do to
// the login. Each action asks first, names its effect and needs a reason for
// the audit log. Staff cannot disable or demote themselves (the service says
// so too); another staff member has to.

type User = inferRouterOutputs<AppRouter>["admin"]["users"]["get"];

export function StaffUser({ id, selfId }: { id: string; selfId: string | null }) {
  const trpc = useTRPC();
  const user = useQuery(trpc.admin.users.get.queryOptions({ id }));
  if (user.isPending) return <LoadingRows label="Loading the user…" rows={6} />;
  if (user.isError) return <ErrorState title="We couldn't load this user" error={user.error} onRetry={() => user.refetch()} />;
  const u = user.data;
  const self = u.id === selfId;
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link href="/admin/users" className="text-sm text-muted hover:text-ink">
          ← All users
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight break-all text-ink">{u.email}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <UserBadges role={u.role} partnerRole={u.partnerRole} disabledAt={u.disabledAt} />
          {self ? <span className="text-xs text-muted">(you)</span> : null}
          <code className="font-mono text-xs break-all text-muted">{u.id}</code>
          <CopyButton value={u.id} label="Copy user id" />
        </div>
      </div>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Account</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div className="col-span-2">
                <dt className="text-xs text-faint">Name</dt>
                <dd>{u.name ?? "—"}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-xs text-faint">Partner</dt>
                <dd>
                  {u.partner ? (
                    <Link href={`/admin/partners/${u.partner.id}`} className="text-brand underline underline-offset-2 hover:text-brand-hover">
                      {u.partner.name}
                    </Link>
                  ) : (
                    "—"
                  )}
                  {u.partnerRole ? ` · ${roleLabels[u.partnerRole]}` : ""}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Joined</dt>
                <dd>
                  <RelativeTime value={u.createdAt} />
                </dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Disabled</dt>
                <dd>{u.disabledAt ? <RelativeTime value={u.disabledAt} /> : "No"}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-xs text-faint">Last sign-in</dt>
                <dd className="text-muted">Not recorded</dd>
              </div>
            </dl>
            <Link href={`/admin/audit?targetType=user&targetId=${u.id}`} className="mt-4 inline-flex text-sm text-brand hover:text-brand-hover">
              Audit log for this user
            </Link>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Access</CardTitle>
            <CardDescription>Each change signs the user out of every browser at once and goes in the audit log with your reason.</CardDescription>
          </CardHeader>
          <CardContent className="space-y-4">
            <div className="flex flex-wrap gap-2">
              <SignOutEverywhere user={u} self={self} />
              {self ? null : <DisableToggle user={u} />}
            </div>
            {self ? <p className="text-sm text-muted">You cannot disable your own account or remove your own staff role; another staff member can.</p> : <RoleChange user={u} />}
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

/** A ConfirmDialog's required reason, reset when the dialog closes. */
function useReason() {
  const [reason, setReason] = useState("");
  return { reason, setReason, ok: reason.trim().length >= 3, reset: (open: boolean) => (open ? undefined : setReason("")) };
}

function ReasonField({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Reason (required; in the audit log)</Label>
      <Textarea id={id} rows={2} value={value} onChange={(event) => onChange(event.target.value)} className="font-sans text-sm" />
    </div>
  );
}

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.users.pathKey() });
}

function SignOutEverywhere({ user, self }: { user: User; self: boolean }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { toast } = useToast();
  const r = useReason();
  const signOut = useMutation(trpc.admin.users.signOutEverywhere.mutationOptions());
  const router = useRouter();
  return (
    <ConfirmDialog
      trigger={<Button variant="secondary">Sign out everywhere</Button>}
      title={`Sign ${user.email} out everywhere?`}
      description={
        <p>
          Every browser signed in as {user.email}
          {self ? ", this one included," : ""} is signed out on its next page or request, including copied session cookies. They can sign in again with
          their password.{user.role === "customer" ? " Apps they connected with OAuth keep their tokens (oauth:revoke ends those)." : ""}
        </p>
      }
      confirmLabel="Sign out everywhere"
      confirmDisabled={!r.ok}
      onOpenChange={r.reset}
      onConfirm={async () => {
        await signOut.mutateAsync({ id: user.id, reason: r.reason.trim() });
        // This browser's own session just ended too: go where a signed-out person belongs.
        if (self) return router.replace(`/sign-in?callbackUrl=${encodeURIComponent(window.location.pathname)}`);
        toast({ title: `${user.email} is signed out everywhere`, tone: "success" });
        await refresh();
      }}
    >
      <ReasonField id="sign-out-reason" value={r.reason} onChange={r.setReason} />
    </ConfirmDialog>
  );
}

function DisableToggle({ user }: { user: User }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { toast } = useToast();
  const r = useReason();
  const set = useMutation(trpc.admin.users.setDisabled.mutationOptions());
  const disable = !user.disabledAt;
  return (
    <ConfirmDialog
      trigger={<Button variant={disable ? "danger" : "secondary"}>{disable ? "Disable login" : "Re-enable login"}</Button>}
      title={disable ? `Disable ${user.email}?` : `Re-enable ${user.email}?`}
      description={
        <p>
          {disable
            ? `${user.email} is signed out everywhere at once and cannot sign in until staff re-enable the login.${user.partner ? ` ${user.partner.name}'s API keys keep working.` : ""}`
            : `${user.email} can sign in again with their password. Sessions from before they were disabled stay signed out.`}
        </p>
      }
      tone={disable ? "danger" : "primary"}
      confirmLabel={disable ? "Disable login" : "Re-enable login"}
      confirmDisabled={!r.ok}
      onOpenChange={r.reset}
      onConfirm={async () => {
        await set.mutateAsync({ id: user.id, disabled: disable, reason: r.reason.trim() });
        toast({ title: disable ? `${user.email} is disabled` : `${user.email} is enabled again`, tone: "success" });
        await refresh();
      }}
    >
      <ReasonField id="disable-reason" value={r.reason} onChange={r.setReason} />
    </ConfirmDialog>
  );
}

const staffRoleNames = { admin: "Staff", customer: "Customer" } as const;

function RoleChange({ user }: { user: User }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { toast } = useToast();
  const r = useReason();
  const setRole = useMutation(trpc.admin.users.setRole.mutationOptions());
  const partnerMember = user.role === "partner";
  const current = partnerMember ? (user.partnerRole ?? "owner") : user.role;
  const [next, setNext] = useState<string>(current);
  const label = partnerMember ? roleLabels[next as PartnerRole] : staffRoleNames[next as keyof typeof staffRoleNames];
  const unchanged = next === current;
  return (
    <div className="space-y-1.5">
      <Label htmlFor="user-next-role">{partnerMember ? `Role in ${user.partner?.name ?? "the partner"}` : "Role"}</Label>
      <div className="flex flex-wrap gap-2">
        <Select
          id="user-next-role"
          containerClassName="min-w-0 flex-1 basis-48"
          value={next}
          onChange={(event) => setNext(event.target.value)}
          aria-describedby="user-next-role-hint"
        >
          {partnerMember
            ? partnerRoles.map((role) => (
                <option key={role} value={role}>
                  {roleLabels[role]}
                </option>
              ))
            : (["admin", "customer"] as const).map((role) => (
                <option key={role} value={role}>
                  {staffRoleNames[role]}
                </option>
              ))}
        </Select>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" disabled={unchanged}>
              Change role
            </Button>
          }
          title={`Make ${user.email} ${partnerMember ? `${/^[aeiou]/i.test(label) ? "an" : "a"} ${label.toLowerCase()}` : label === "Staff" ? "staff" : "a customer"}?`}
          description={
            <p>
              {partnerMember
                ? `Their role in ${user.partner?.name ?? "the partner"} changes from ${roleLabels[current as PartnerRole]} to ${label}.`
                : next === "admin"
                  ? "They get full access to this admin console."
                  : "They lose access to this admin console."}{" "}
              They are signed out everywhere and sign in again under the new role.
            </p>
          }
          confirmLabel="Change role"
          confirmDisabled={!r.ok}
          onOpenChange={r.reset}
          onConfirm={async () => {
            const reason = r.reason.trim();
            await setRole.mutateAsync(
              partnerMember ? { id: user.id, partnerRole: next as PartnerRole, reason } : { id: user.id, role: next as "admin" | "customer", reason },
            );
            toast({ title: `${user.email} is now ${label}`, tone: "success" });
            await refresh();
          }}
        >
          <ReasonField id="role-reason" value={r.reason} onChange={r.setReason} />
        </ConfirmDialog>
      </div>
      <p id="user-next-role-hint" className="text-xs text-faint">
        {partnerMember ? roleDescriptions[next as PartnerRole] : next === "admin" ? "Full access to this console." : "Buys and signs in to OAuth apps; no console."}
      </p>
    </div>
  );
}
