"use client";

import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import type { ReactNode } from "react";
import { useTRPC } from "@/app/providers";
import {
  Badge,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  Code,
  CopyButton,
  ErrorState,
  formatExact,
  LoadingRows,
  PageHeader,
  RelativeTime,
} from "@/components/ui";
import type { Environment } from "@/db/schema";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { DeliveryStatusBadge } from "../../webhooks/delivery-format";
import { channelLabels, formatMoney, OrderStatusBadge } from "../order-format";
import { RefundButton } from "./refund-dialog";

// One order (/dashboard/orders/{id}, a URL to share): its status timeline with
// reasons, the events it caused and the webhook deliveries that carried them,
// the sale and buyer (masked for viewers), refunds, and the refund action for
// a merchant-of-record sale whose transfer has not started.

export type OrderView = inferRouterOutputs<AppRouter>["orders"]["get"];

const linkClasses = "font-medium text-brand-ink underline-offset-2 hover:underline";

export function OrderDetail({ id, environment }: { id: string; environment: Environment }) {
  const trpc = useTRPC();
  const detail = useQuery(trpc.orders.get.queryOptions({ id }));
  const back = (
    <Link href="/dashboard/orders" className={`${linkClasses} text-sm`}>
      <span aria-hidden="true">←</span> All orders
    </Link>
  );

  if (detail.isPending) {
    return (
      <div className="space-y-6">
        {back}
        <LoadingRows label="Loading the order…" rows={6} />
      </div>
    );
  }
  if (detail.isError) {
    const missing = detail.error.data?.code === "not_found";
    return (
      <div className="space-y-6">
        {back}
        <ErrorState
          title={missing ? "Order not found" : "We couldn't load this order"}
          error={missing ? { message: `There is no order ${id} in ${environment}. It may belong to the other environment: switch it in the header.` } : detail.error}
          onRetry={missing ? undefined : () => detail.refetch()}
        />
      </div>
    );
  }

  const order = detail.data;
  return (
    <div className="space-y-6" data-testid="order-detail">
      {back}
      <PageHeader
        title={<span className="break-all">{order.domain}</span>}
        description={
          <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <OrderStatusBadge status={order.status} />
            <span className="font-mono text-xs break-all">{order.id}</span>
            <CopyButton value={order.id} label="Copy order id" />
          </span>
        }
        actions={order.refundBlocker === null ? <RefundButton order={order} /> : undefined}
      />

      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 space-y-6 lg:col-span-2">
          <Timeline order={order} />
          <Events order={order} />
        </div>
        {/* On phones the sale and buyer come first; beside the timeline on wide screens. */}
        <div className="order-first min-w-0 space-y-6 lg:order-none">
          <Sale order={order} />
          <Buyer order={order} />
          {order.refunds.length > 0 ? <Refunds order={order} /> : null}
        </div>
      </div>
    </div>
  );
}

function Timeline({ order }: { order: OrderView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Timeline</CardTitle>
        <CardDescription>Every status the order has had, oldest first, with the reason when one was given.</CardDescription>
      </CardHeader>
      <CardContent>
        <ol className="relative space-y-5 border-l border-line pl-5" data-testid="order-timeline">
          {order.timeline.map((entry, index) => (
            <li key={index} className="relative" data-testid="timeline-entry" data-status={entry.status}>
              <span aria-hidden="true" className="absolute top-1.5 -left-[1.6rem] size-2.5 rounded-full bg-brand ring-4 ring-surface" />
              <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                <OrderStatusBadge status={entry.status} />
                <Code className="text-xs">{entry.status}</Code>
                <span className="text-sm text-muted">
                  <RelativeTime value={entry.at} />
                </span>
                {entry.actor ? <span className="text-xs text-faint">by {entry.actor}</span> : null}
              </div>
              {entry.note ? <p className="mt-1 text-sm break-words text-ink">{entry.note}</p> : null}
            </li>
          ))}
        </ol>
      </CardContent>
    </Card>
  );
}

function Events({ order }: { order: OrderView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Events and webhook deliveries</CardTitle>
        <CardDescription>
          What this order sent to your integration: each event (also in <Code className="whitespace-nowrap">GET /events</Code>) and the deliveries that carried it to your endpoint.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {order.events.length === 0 ? (
          <p className="text-sm text-muted">No events yet.</p>
        ) : (
          <ul className="divide-y divide-line" data-testid="order-events">
            {order.events.map((event) => (
              <li key={event.id} className="py-3 first:pt-0 last:pb-0" data-testid="order-event" data-type={event.type}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <Link href={`/dashboard/events?event=${encodeURIComponent(event.id)}`} className={`${linkClasses} font-mono text-sm`}>
                    {event.type}
                  </Link>
                  <span className="text-xs text-muted">
                    <RelativeTime value={event.createdAt} />
                  </span>
                </div>
                <p className="mt-0.5 truncate font-mono text-xs text-faint" title={event.id}>
                  {event.id}
                </p>
                {event.deliveries.length === 0 ? (
                  <p className="mt-1 text-xs text-muted">
                    Not delivered by webhook (no active endpoint when it happened).{" "}
                    <Link href="/dashboard/webhooks" className={linkClasses}>
                      Webhooks
                    </Link>
                  </p>
                ) : (
                  <ul className="mt-2 space-y-1">
                    {event.deliveries.map((delivery) => (
                      <li key={delivery.id} className="flex min-w-0 flex-wrap items-center gap-2 text-xs" data-testid="order-delivery">
                        <DeliveryStatusBadge status={delivery.status} />
                        <Link href={`/dashboard/webhooks?delivery=${encodeURIComponent(delivery.id)}`} className={linkClasses}>
                          {delivery.attempts === 1 ? "1 attempt" : `${delivery.attempts} attempts`}
                        </Link>
                        <span className="min-w-0 truncate font-mono text-faint" title={delivery.url}>
                          {delivery.url}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-medium tracking-wide text-muted uppercase">{label}</dt>
      <dd className="mt-1 min-w-0 text-sm break-words text-ink">{children}</dd>
    </div>
  );
}

const none = <span className="text-faint">—</span>;

function Sale({ order }: { order: OrderView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Sale</CardTitle>
      </CardHeader>
      <CardContent>
        <dl className="grid grid-cols-2 gap-x-4 gap-y-4">
          <Item label="Price">
            <span className="tabular-nums" data-testid="order-price">
              {formatMoney(order.salePriceCents, order.currency)}
            </span>
          </Item>
          <Item label="Commission">
            <span className="tabular-nums">{formatMoney(order.commissionCents, order.currency)}</span>{" "}
            <span className="text-xs text-muted">({(order.commissionBps / 100).toFixed(2).replace(/\.00$/, "")} %)</span>
          </Item>
          <Item label="Channel">{channelLabels[order.channel as keyof typeof channelLabels] ?? order.channel}</Item>
          <Item label="Currency">{order.currency}</Item>
          <Item label="Recorded">
            <span title={formatExact(new Date(order.createdAt))}>
              <RelativeTime value={order.createdAt} />
            </span>
          </Item>
          <Item label="Last change">
            <RelativeTime value={order.updatedAt} />
          </Item>
          <Item label="Transfer completed">{order.transferCompletedAt ? <RelativeTime value={order.transferCompletedAt} /> : none}</Item>
          <Item label="Settlement">{order.settlementId ? <span className="font-mono text-xs">{order.settlementId}</span> : none}</Item>
          {order.externalPaymentRef ? (
            <Item label="Your payment reference">
              <span className="font-mono text-xs">{order.externalPaymentRef}</span>
            </Item>
          ) : null}
          {order.checkoutSessionId ? (
            <Item label="Checkout session">
              <span className="font-mono text-xs">{order.checkoutSessionId}</span>
            </Item>
          ) : null}
        </dl>
        {order.refundBlocker && order.status !== "REFUNDED" && order.status !== "CANCELLED" ? (
          <p className="mt-4 border-t border-line pt-3 text-xs text-muted" data-testid="refund-blocker">
            Refund: {order.refundBlocker}
          </p>
        ) : null}
      </CardContent>
    </Card>
  );
}

function Buyer({ order }: { order: OrderView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Buyer</CardTitle>
        {order.buyer.masked ? <CardDescription>Masked: viewers see only enough to recognise a buyer.</CardDescription> : null}
      </CardHeader>
      <CardContent>
        <dl className="grid gap-y-4" data-testid="order-buyer">
          <Item label="Email">
            <span className="break-all">{order.buyer.email}</span>
          </Item>
          <Item label="Name">{order.buyer.name ?? none}</Item>
          <Item label="Country">{order.buyer.country ?? none}</Item>
        </dl>
      </CardContent>
    </Card>
  );
}

function Refunds({ order }: { order: OrderView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Refunds</CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3" data-testid="order-refunds">
          {order.refunds.map((refund) => (
            <li key={refund.id} className="text-sm">
              <div className="flex flex-wrap items-center gap-2">
                <span className="font-medium tabular-nums">{formatMoney(refund.amountCents, refund.currency)}</span>
                <Badge tone={refund.status === "succeeded" ? "success" : "warning"}>{refund.status}</Badge>
                <span className="text-xs text-muted">
                  by {refund.requestedBy}, <RelativeTime value={refund.createdAt} />
                </span>
              </div>
              {refund.reason ? <p className="mt-1 break-words text-muted">{refund.reason}</p> : null}
              <p className="mt-0.5 font-mono text-xs text-faint">{refund.id}</p>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

