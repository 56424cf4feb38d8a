"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState, type ReactNode } from "react";
import { useTRPC } from "@/app/providers";
import {
  Alert,
  Badge,
  Button,
  buttonClasses,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  EmptyState,
  ErrorState,
  Input,
  Label,
  LoadingRows,
  PageHeader,
  Select,
  useToast,
} from "@/components/ui";
import type { Environment } from "@/db/schema";
import type { AppRouter } from "@/server/trpc/routers/_app";

// Sandbox simulators: move test data the way staff, registries and buyers
// would, and watch the same webhooks arrive. Each button calls the real service.

type Targets = inferRouterOutputs<AppRouter>["sandbox"]["targets"];

const advanceLabels: Record<string, string> = {
  clear_review: "Clear review",
  start_transfer: "Start transfer",
  complete_transfer: "Complete transfer",
  settle: "Settle (runs your sandbox settlement)",
};

export function SimulatorsView({ environment, canRun }: { environment: Environment; canRun: boolean }) {
  const trpc = useTRPC();
  const targets = useQuery({ ...trpc.sandbox.targets.queryOptions(), enabled: environment === "sandbox" });
  return (
    <div className="space-y-8">
      <PageHeader
        title="Sandbox simulators"
        description="Move your sandbox orders, cases and referrals forward yourself. Each step runs the same code as the real thing and sends the same webhooks."
        actions={
          <Link href="/dashboard/webhooks" className={buttonClasses({ variant: "secondary" })}>
            Open the delivery log
          </Link>
        }
      />
      {environment !== "sandbox" ? (
        <Alert tone="info" title="Simulators work in sandbox only">
          Live orders and cases move when the real transfer, payment or deal does. Switch to Sandbox in the header to use them.
        </Alert>
      ) : !canRun ? (
        <Alert tone="info" title="Only owners and developers run simulators">
          Your role can watch the results in Orders, Events and Webhooks; ask an owner or developer to run a step.
        </Alert>
      ) : targets.isPending ? (
        <LoadingRows label="Loading your sandbox data…" rows={6} />
      ) : targets.isError ? (
        <ErrorState title="We couldn't load your sandbox data" error={targets.error} onRetry={() => targets.refetch()} />
      ) : (
        <div className="grid items-start gap-6 lg:grid-cols-2">
          <OrderSimulator orders={targets.data.orders} />
          <SettlementSimulator />
          <BrokerageSimulator cases={targets.data.cases} />
          <ReferralSimulator links={targets.data.links} />
        </div>
      )}
    </div>
  );
}

/** Refreshes everything a simulation may have changed on other pages too. */
function useRefreshAll() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries();
}

function Simulator({ title, description, children, testId }: { title: string; description: ReactNode; children: ReactNode; testId: string }) {
  return (
    <Card data-testid={testId}>
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">{children}</CardContent>
    </Card>
  );
}

function OrderSimulator({ orders }: { orders: Targets["orders"] }) {
  const trpc = useTRPC();
  const refresh = useRefreshAll();
  const { toast } = useToast();
  const [orderId, setOrderId] = useState(orders[0]?.id ?? "");
  const selected = orders.find((o) => o.id === orderId) ?? orders[0];
  const run = useMutation(
    trpc.sandbox.order.mutationOptions({
      onSuccess: (result) => toast({ title: `Order is now ${result.status}`, description: "Its webhook is on the way.", tone: "success" }),
      onError: (error) => toast({ title: "Step not run", description: error.message, tone: "danger" }),
      onSettled: () => refresh(),
    }),
  );
  if (!selected) {
    return (
      <Simulator title="Orders" description="Transfer, settle or fail a sandbox order." testId="simulate-order">
        <EmptyState title="No sandbox orders yet" description="Record one with POST /orders or pay a sandbox checkout link, then come back." />
      </Simulator>
    );
  }
  const { advance, fail } = selected.simulations;
  return (
    <Simulator title="Orders" description="Transfer, settle or fail a sandbox order, one step per press." testId="simulate-order">
      <div className="space-y-1.5">
        <Label htmlFor="sim-order">Order</Label>
        <Select id="sim-order" value={selected.id} onChange={(event) => setOrderId(event.target.value)}>
          {orders.map((order) => (
            <option key={order.id} value={order.id}>
              {order.domain} · {order.status}
            </option>
          ))}
        </Select>
      </div>
      <p className="text-sm text-muted">
        Status <Badge>{selected.status}</Badge>
      </p>
      <div className="flex flex-wrap gap-2">
        <Button disabled={!advance || run.isPending} onClick={() => run.mutate({ orderId: selected.id, simulation: "advance" })}>
          {advance ? advanceLabels[advance] : "No further step"}
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" disabled={!fail || run.isPending}>
              Fail the transfer
            </Button>
          }
          title={`Fail the transfer of ${selected.domain}?`}
          description={<p>The sandbox order is cancelled and the buyer refunded; your endpoint receives order.refunded. This cannot be undone.</p>}
          confirmLabel="Fail transfer"
          onConfirm={() => run.mutateAsync({ orderId: selected.id, simulation: "fail" })}
        />
      </div>
    </Simulator>
  );
}

function SettlementSimulator() {
  const trpc = useTRPC();
  const refresh = useRefreshAll();
  const { toast } = useToast();
  const settle = useMutation(trpc.sandbox.settle.mutationOptions({ onSettled: () => refresh() }));
  const result = settle.data;
  return (
    <Simulator
      title="Settlement"
      description="Close this month for your sandbox now: completed transfers are settled into a statement, referral and brokerage payouts are made."
      testId="simulate-settlement"
    >
      <ConfirmDialog
        trigger={<Button disabled={settle.isPending}>Run sandbox settlement now</Button>}
        title="Run your sandbox settlement now?"
        description={<p>Every sandbox order whose transfer completed is settled into this month&apos;s statement. Live money is not touched.</p>}
        confirmLabel="Run settlement"
        tone="primary"
        onConfirm={async () => {
          const run = await settle.mutateAsync();
          toast({ title: `${run.statements.length} statement${run.statements.length === 1 ? "" : "s"} closed`, tone: "success" });
        }}
      />
      {result ? (
        <p className="text-sm text-muted" role="status" data-testid="settlement-result">
          {result.statements.length === 0
            ? "Nothing to settle: no sandbox order has a completed transfer."
            : `${result.statements.length} statement(s), ${result.statements.reduce((n, s) => n + s.orderCount, 0)} order(s) settled; ${result.referralPayouts} referral and ${result.brokeragePayouts} brokerage payout(s).`}
        </p>
      ) : null}
    </Simulator>
  );
}

function BrokerageSimulator({ cases }: { cases: Targets["cases"] }) {
  const trpc = useTRPC();
  const refresh = useRefreshAll();
  const { toast } = useToast();
  const [caseId, setCaseId] = useState(cases[0]?.id ?? "");
  const [price, setPrice] = useState("");
  const selected = cases.find((c) => c.id === caseId) ?? cases[0];
  const run = useMutation(
    trpc.sandbox.brokerage.mutationOptions({
      onSuccess: (result) => toast({ title: `Case ${result.status === "COMPLETED" ? "completed" : "closed"}`, tone: "success" }),
      onError: (error) => toast({ title: "Case not moved", description: error.message, tone: "danger" }),
      onSettled: () => refresh(),
    }),
  );
  if (!selected) {
    return (
      <Simulator title="Brokerage" description="Complete or close an open sandbox case." testId="simulate-brokerage">
        <EmptyState title="No open sandbox cases" description="Open one with POST /brokerage, then come back." />
      </Simulator>
    );
  }
  const cents = price.trim() === "" ? undefined : Math.round(Number(price) * 100);
  const priceInvalid = cents !== undefined && !(Number.isSafeInteger(cents) && cents > 0);
  return (
    <Simulator
      title="Brokerage"
      description="Walk an open case through research and negotiation to a deal, or close it without one."
      testId="simulate-brokerage"
    >
      <div className="space-y-1.5">
        <Label htmlFor="sim-case">Case</Label>
        <Select id="sim-case" value={selected.id} onChange={(event) => setCaseId(event.target.value)}>
          {cases.map((c) => (
            <option key={c.id} value={c.id}>
              {c.domain} · {c.status}
            </option>
          ))}
        </Select>
      </div>
      <div className="space-y-1.5">
        <Label htmlFor="sim-price">Final price (optional, defaults to the budget)</Label>
        <Input
          id="sim-price"
          inputMode="decimal"
          value={price}
          onChange={(event) => setPrice(event.target.value)}
          aria-invalid={priceInvalid || undefined}
          aria-describedby={priceInvalid ? "sim-price-error" : undefined}
        />
        {priceInvalid ? (
          <p id="sim-price-error" className="text-xs font-medium text-danger-ink">
            Enter a positive amount such as 2500 or 2500.50.
          </p>
        ) : null}
      </div>
      <div className="flex flex-wrap gap-2">
        <Button disabled={run.isPending || priceInvalid} onClick={() => run.mutate({ caseId: selected.id, simulation: "complete", finalPriceCents: cents })}>
          Complete with a deal
        </Button>
        <ConfirmDialog
          trigger={
            <Button variant="secondary" disabled={run.isPending}>
              Close without a deal
            </Button>
          }
          title={`Close the case for ${selected.domain}?`}
          description={<p>The case ends without a deal; the buyer&apos;s progress page says so. This cannot be undone.</p>}
          confirmLabel="Close case"
          onConfirm={() => run.mutateAsync({ caseId: selected.id, simulation: "close" })}
        />
      </div>
    </Simulator>
  );
}

function ReferralSimulator({ links }: { links: Targets["links"] }) {
  const trpc = useTRPC();
  const refresh = useRefreshAll();
  const { toast } = useToast();
  const [linkId, setLinkId] = useState(links[0]?.id ?? "");
  const selected = links.find((l) => l.id === linkId) ?? links[0];
  const run = useMutation(
    trpc.sandbox.referral.mutationOptions({
      onSuccess: (result) =>
        toast({
          title: result.order ? `Referred sale of ${result.order.domain}` : result.counted ? "Click counted" : "Click not counted",
          tone: "success",
        }),
      onError: (error) => toast({ title: "Nothing simulated", description: error.message, tone: "danger" }),
      onSettled: () => refresh(),
    }),
  );
  if (!selected) {
    return (
      <Simulator title="Referrals" description="A visitor clicks your link and buys." testId="simulate-referral">
        <EmptyState title="No sandbox referral links" description="Create one with POST /links (affiliate accounts), then come back." />
      </Simulator>
    );
  }
  return (
    <Simulator title="Referrals" description="A new visitor clicks your link; with a sale they also buy a storefront domain with a test card." testId="simulate-referral">
      <div className="space-y-1.5">
        <Label htmlFor="sim-link">Link</Label>
        <Select id="sim-link" value={selected.id} onChange={(event) => setLinkId(event.target.value)}>
          {links.map((link) => (
            <option key={link.id} value={link.id}>
              /r/{link.code} → {link.target}
            </option>
          ))}
        </Select>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" disabled={run.isPending} onClick={() => run.mutate({ linkId: selected.id, buy: false })}>
          Simulate a click
        </Button>
        <Button disabled={run.isPending} onClick={() => run.mutate({ linkId: selected.id, buy: true })}>
          Simulate a click and a sale
        </Button>
      </div>
    </Simulator>
  );
}
