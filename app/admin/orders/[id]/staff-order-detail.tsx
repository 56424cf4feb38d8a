"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import {
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  CopyButton,
  ErrorState,
  Label,
  LoadingRows,
  RelativeTime,
  Textarea,
  useToast,
} from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { StaffOrderStatus } from "../order-status";

// One order for staff: where it is, how it got there, and the moves the state
// machine allows from here, each confirmed with a reason that goes on the
// timeline (the partner sees it) and in the audit log.

type StaffOrder = inferRouterOutputs<AppRouter>["admin"]["orders"]["get"];
type Action = StaffOrder["actions"][number];

const actionCopy: Record<Action, { label: string; confirm: string; effect: string; danger: boolean }> = {
  clear_review: {
    label: "Approve (clear review)",
    confirm: "Clear review",
    effect: "The order returns to its paid state so the transfer can start; the partner receives order.manual_review_cleared.",
    danger: false,
  },
  start_transfer: {
    label: "Start transfer",
    confirm: "Start transfer",
    effect: "The order moves to TRANSFER_IN_PROGRESS; the partner receives order.transfer_started.",
    danger: false,
  },
  complete_transfer: {
    label: "Complete transfer",
    confirm: "Complete transfer",
    effect: "The domain is delivered: TRANSFER_COMPLETED, the settlement clock starts; the partner receives order.transfer_completed.",
    danger: false,
  },
  cancel: {
    label: "Reject / cancel",
    confirm: "Cancel order",
    effect: "The order is CANCELLED, its commission reversed and the domain relisted; the partner receives order.refunded.",
    danger: true,
  },
  refund: {
    label: "Refund",
    confirm: "Refund order",
    effect: "The buyer is refunded through the payment provider (hosted checkout) and the order becomes REFUNDED; the partner receives order.refunded.",
    danger: true,
  },
};

export function StaffOrderDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const order = useQuery(trpc.admin.orders.get.queryOptions({ id }));
  if (order.isPending) return <LoadingRows label="Loading the order…" rows={6} />;
  if (order.isError) return <ErrorState title="We couldn't load this order" error={order.error} onRetry={() => order.refetch()} />;
  const { order: o, timeline, actions } = order.data;
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link href="/admin/orders" className="text-sm text-muted hover:text-ink">
          ← All orders
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight break-all text-ink">{o.domain}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <StaffOrderStatus status={o.status} />
          <code className="font-mono text-xs text-muted">{o.id}</code>
          <CopyButton value={o.id} label="Copy order id" />
        </div>
      </div>
      <section aria-labelledby="moves" className="space-y-2">
        <h2 id="moves" className="text-base font-semibold text-ink">
          Moves
        </h2>
        {actions.length === 0 ? (
          <p className="text-sm text-muted">None by hand: the order is {o.status === "TRANSFER_COMPLETED" ? "waiting for its settlement run" : "finished"}.</p>
        ) : (
          <div className="flex flex-wrap gap-2">
            {actions.map((action) => (
              <Move key={action} order={order.data} action={action} />
            ))}
          </div>
        )}
      </section>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Sale</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs text-faint">Partner</dt>
                <dd>
                  {o.partnerId ? (
                    <Link href={`/admin/partners/${o.partnerId}`} className="text-brand hover:text-brand-hover">
                      {o.partnerName ?? o.partnerId}
                    </Link>
                  ) : (
                    "Marketplace (no partner)"
                  )}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Environment · channel</dt>
                <dd>
                  {o.environment} · {o.channel}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Price</dt>
                <dd className="tabular-nums">{formatMoney(o.salePriceCents, o.currency)}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Commission</dt>
                <dd className="tabular-nums">{formatMoney(o.commissionCents, o.currency)}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-xs text-faint">Buyer</dt>
                <dd className="break-words">
                  {o.buyerName ? `${o.buyerName} · ` : null}
                  {o.buyerEmail}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Recorded</dt>
                <dd>
                  <RelativeTime value={o.createdAt} />
                </dd>
              </div>
            </dl>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Timeline</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="space-y-3" aria-label="Timeline" data-testid="staff-timeline">
              {timeline.map((step, index) => (
                <li key={`${step.at}-${index}`} className="text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <StaffOrderStatus status={step.status} />
                    <RelativeTime value={step.at} />
                    {step.actor ? <span className="text-xs text-muted">by {step.actor}</span> : null}
                  </div>
                  {step.note ? <p className="mt-1 break-words text-muted">{step.note}</p> : null}
                </li>
              ))}
            </ol>
          </CardContent>
        </Card>
      </div>
    </div>
  );
}

function Move({ order, action }: { order: StaffOrder; action: Action }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const [reason, setReason] = useState("");
  const move = useMutation(trpc.admin.orders.transition.mutationOptions());
  const copy = actionCopy[action];
  const field = `reason-${action}`;
  return (
    <ConfirmDialog
      trigger={<Button variant={copy.danger ? "danger" : action === order.actions[0] ? "primary" : "secondary"}>{copy.label}</Button>}
      title={`${copy.confirm}: ${order.order.domain}?`}
      description={<p>{copy.effect}</p>}
      tone={copy.danger ? "danger" : "primary"}
      confirmLabel={copy.confirm}
      confirmDisabled={reason.trim().length < 3}
      onOpenChange={(open) => (open ? undefined : setReason(""))}
      onConfirm={async () => {
        const next = await move.mutateAsync({ id: order.order.id, action, reason: reason.trim() });
        toast({ title: `${order.order.domain} is now ${next.order.status}`, tone: "success" });
        await queryClient.invalidateQueries({ queryKey: trpc.admin.orders.pathKey() });
      }}
    >
      <div className="space-y-1.5">
        <Label htmlFor={field}>Reason (required; on the timeline the partner sees)</Label>
        <Textarea id={field} rows={3} value={reason} onChange={(event) => setReason(event.target.value)} className="font-sans text-sm" />
      </div>
    </ConfirmDialog>
  );
}
