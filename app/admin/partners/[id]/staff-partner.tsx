"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import {
  Alert,
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  CopyButton,
  ErrorState,
  LoadingRows,
  RelativeTime,
  ReasonField,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
  reasonReady,
  useToast,
} from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { StaffOrderStatus } from "../../orders/order-status";
import { EditTerms, pct, SuspendPartner } from "./partner-standing";

// One partner for staff: organisation and terms, the affiliate switch, per
// environment the keys (revoke with a reason), webhook health and the latest
// requests, and the latest orders, each linking to its own screen.

type Partner = inferRouterOutputs<AppRouter>["admin"]["partners"]["get"];
type EnvironmentView = Partner["environments"][number];


export function StaffPartner({ id }: { id: string }) {
  const trpc = useTRPC();
  const partner = useQuery(trpc.admin.partners.get.queryOptions({ id }));
  if (partner.isPending) return <LoadingRows label="Loading the partner…" rows={8} />;
  if (partner.isError) return <ErrorState title="We couldn't load this partner" error={partner.error} onRetry={() => partner.refetch()} />;
  const { organisation: o, environments, orders, balances } = partner.data;
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link href="/admin/partners" className="text-sm text-muted hover:text-ink">
          ← All partners
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight text-ink">{o.name}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge>{o.paymentModel === "mor" ? "Merchant of record" : "Hosted checkout"}</Badge>
          <Badge tone={o.liveApprovedAt ? "success" : "warning"}>{o.liveApprovedAt ? "Live approved" : "Sandbox only"}</Badge>
          {o.isAffiliate ? <Badge tone="success">Affiliate</Badge> : null}
          {o.suspendedAt ? <Badge tone="danger">Suspended</Badge> : null}
          <code className="font-mono text-xs text-muted">{o.id}</code>
          <CopyButton value={o.id} label="Copy partner id" />
        </div>
      </div>
      {o.suspendedAt ? (
        <Alert tone="warning" title="This partner is suspended">
          Since <RelativeTime value={o.suspendedAt} />: {o.suspendedReason}. Every key gets 403 partner_suspended until reinstated.
        </Alert>
      ) : null}
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Organisation</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div className="col-span-2">
                <dt className="text-xs text-faint">Email</dt>
                <dd className="break-all">{o.email}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-xs text-faint">Payment model</dt>
                <dd>{o.paymentModel === "mor" ? "Merchant of record (partner collects, POST /orders)" : "Hosted checkout (we collect, commission paid out)"}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Sale commission</dt>
                <dd>{pct(o.rates.saleCommissionBps)}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Referral commission</dt>
                <dd>{pct(o.rates.referralCommissionBps)}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Brokerage share</dt>
                <dd>{pct(o.rates.brokerageShareBps)}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Joined</dt>
                <dd>
                  <RelativeTime value={o.createdAt} />
                </dd>
              </div>
            </dl>
            <div className="mt-4 flex flex-wrap gap-2">
              <EditTerms id={o.id} name={o.name} terms={{ paymentModel: o.paymentModel, ...o.rates }} />
              <AffiliateSwitch id={o.id} name={o.name} isAffiliate={o.isAffiliate} />
              <SuspendPartner id={o.id} name={o.name} suspended={Boolean(o.suspendedAt)} />
              <Link href={`/admin/audit?partnerId=${o.id}`} className="inline-flex items-center text-sm text-brand hover:text-brand-hover">
                Audit log
              </Link>
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Latest orders</CardTitle>
            <CardDescription>
              <Link href={`/admin/orders?partner=${o.id}`} className="text-brand hover:text-brand-hover">
                All orders of {o.name}
              </Link>
            </CardDescription>
          </CardHeader>
          <CardContent>
            {orders.length === 0 ? (
              <p className="text-sm text-muted">No orders yet.</p>
            ) : (
              <ul className="space-y-2 text-sm" aria-label="Latest orders">
                {orders.map((order) => (
                  <li key={order.id} className="flex flex-wrap items-center justify-between gap-2">
                    <Link href={`/admin/orders/${order.id}`} className="min-w-0 break-all text-ink hover:text-brand">
                      {order.domain}
                    </Link>
                    <span className="flex items-center gap-2">
                      <StaffOrderStatus status={order.status} />
                      <span className="tabular-nums">{formatMoney(order.salePriceCents, order.currency)}</span>
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
      <Balances partnerId={o.id} balances={balances} />
      {environments.map((env) => (
        <EnvironmentSection key={env.environment} partnerId={o.id} env={env} />
      ))}
    </div>
  );
}

function Balances({ partnerId, balances }: { partnerId: string; balances: Partner["balances"] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Balances</CardTitle>
        <CardDescription>
          Sales paid but not settled yet, and payouts owed to the partner that are not sent (
          <Link href={`/admin/payouts?partner=${partnerId}`} className="text-brand underline hover:text-brand-hover">
            its payouts
          </Link>
          ).
        </CardDescription>
      </CardHeader>
      <CardContent>
        {balances.length === 0 ? (
          <p className="text-sm text-muted">Nothing in flight: every sale is settled and every payout sent.</p>
        ) : (
          <Table aria-label="Balances" data-testid="partner-balances">
            <THead>
              <TR>
                <TH>Environment</TH>
                <TH className="text-right max-sm:hidden">Unsettled orders</TH>
                <TH className="text-right">Unsettled gross</TH>
                <TH className="text-right max-sm:hidden">Commission on it</TH>
                <TH className="text-right">Payouts to send</TH>
              </TR>
            </THead>
            <TBody>
              {balances.map((b) => (
                <TR key={`${b.environment}-${b.currency}`}>
                  <TD className="capitalize">
                    {b.environment} <span className="text-muted">{b.currency}</span>
                  </TD>
                  <TD className="text-right tabular-nums max-sm:hidden">{b.unsettledOrders}</TD>
                  <TD className="text-right tabular-nums">{formatMoney(b.unsettledGrossCents, b.currency)}</TD>
                  <TD className="text-right tabular-nums max-sm:hidden">{formatMoney(b.unsettledCommissionCents, b.currency)}</TD>
                  <TD className="text-right tabular-nums">{formatMoney(b.payoutsPendingCents, b.currency)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        )}
      </CardContent>
    </Card>
  );
}

function AffiliateSwitch({ id, name, isAffiliate }: { id: string; name: string; isAffiliate: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const set = useMutation(trpc.admin.partners.setAffiliate.mutationOptions());
  return (
    <ConfirmDialog
      trigger={<Button variant="secondary">{isAffiliate ? "Turn off the affiliate program" : "Turn on the affiliate program"}</Button>}
      title={isAffiliate ? `Stop ${name}'s affiliate program?` : `Make ${name} an affiliate?`}
      description={
        <p>{isAffiliate ? "Their referral links stop earning new commission; existing ledger rows stay." : "They can create referral links and earn referral commission."}</p>
      }
      tone={isAffiliate ? "danger" : "primary"}
      confirmLabel={isAffiliate ? "Turn off" : "Turn on"}
      onConfirm={async () => {
        await set.mutateAsync({ id, isAffiliate: !isAffiliate });
        toast({ title: isAffiliate ? "Affiliate program off" : "Affiliate program on", tone: "success" });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.partners.pathKey() });
      }}
    />
  );
}

function EnvironmentSection({ partnerId, env }: { partnerId: string; env: EnvironmentView }) {
  const total = env.webhooks.succeeded + env.webhooks.failed;
  return (
    <section aria-labelledby={`env-${env.environment}`} className="space-y-3">
      <h2 id={`env-${env.environment}`} className="text-base font-semibold text-ink capitalize">
        {env.environment}
      </h2>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Keys</CardTitle>
          </CardHeader>
          <CardContent>
            {env.keys.length === 0 ? (
              <p className="text-sm text-muted">No {env.environment} keys.</p>
            ) : (
              <ul className="space-y-3 text-sm" aria-label={`${env.environment} keys`}>
                {env.keys.map((key) => (
                  <li key={key.keyId} className="flex flex-wrap items-start justify-between gap-2" data-testid="staff-key" data-key-id={key.keyId}>
                    <div className="min-w-0">
                      <div className="flex flex-wrap items-center gap-2">
                        <span className="font-medium text-ink">{key.name ?? "Unnamed key"}</span>
                        <Badge tone={key.status === "active" ? "success" : "danger"}>{key.status}</Badge>
                      </div>
                      <code className="block truncate font-mono text-xs text-muted">{key.keyId}</code>
                      <span className="text-xs text-muted">
                        last used {key.lastUsedAt ? <RelativeTime value={key.lastUsedAt} /> : "never"} · {key.requests24h} requests in 24 h
                      </span>
                    </div>
                    {key.status === "active" ? <RevokeKey partnerId={partnerId} keyId={key.keyId} name={key.name ?? key.keyId} /> : null}
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Webhooks and requests</CardTitle>
            <CardDescription>
              Deliveries in the last 7 days: {env.webhooks.succeeded} delivered, {env.webhooks.failed} failed, {env.webhooks.pending} pending
              {total > 0 ? ` (${Math.round((env.webhooks.succeeded / total) * 100)}% success)` : ""}.
            </CardDescription>
          </CardHeader>
          <CardContent>
            {env.requests.length === 0 ? (
              <p className="text-sm text-muted">No signed requests logged.</p>
            ) : (
              <ul className="space-y-1 font-mono text-xs" aria-label={`Latest ${env.environment} requests`}>
                {env.requests.map((r) => (
                  <li key={r.id} className="flex flex-wrap gap-x-2">
                    <span className={r.status >= 400 ? "text-danger-ink" : "text-success-ink"}>{r.status}</span>
                    <span>{r.method}</span>
                    <span className="min-w-0 flex-1 truncate">{r.path}</span>
                  </li>
                ))}
              </ul>
            )}
          </CardContent>
        </Card>
      </div>
    </section>
  );
}

function RevokeKey({ partnerId, keyId, name }: { partnerId: string; keyId: string; name: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [reason, setReason] = useState("");
  const revoke = useMutation(trpc.admin.partners.revokeKey.mutationOptions());
  const field = `revoke-${keyId}`;
  return (
    <ConfirmDialog
      trigger={
        <Button variant="ghost" size="sm" aria-label={`Revoke ${name}`}>
          Revoke
        </Button>
      }
      title={`Revoke ${name}?`}
      description={<p>Every request signed with {keyId} fails with 401 from now on. The partner sees the key as revoked.</p>}
      confirmLabel="Revoke key"
      confirmDisabled={!reasonReady(reason)}
      onOpenChange={(open) => (open ? undefined : setReason(""))}
      onConfirm={async () => {
        await revoke.mutateAsync({ id: partnerId, keyId, reason: reason.trim() });
        toast({ title: `${name} revoked`, tone: "success" });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.partners.pathKey() });
      }}
    >
      <ReasonField id={field} value={reason} onChange={setReason} />
    </ConfirmDialog>
  );
}
