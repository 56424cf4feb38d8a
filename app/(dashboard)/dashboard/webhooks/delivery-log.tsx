"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import {
  Alert,
  Button,
  Code,
  CopyButton,
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogTrigger,
  EmptyState,
  ErrorState,
  Field,
  Label,
  LoadingRows,
  RelativeTime,
  RowCard,
  rowClick,
  Select,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
  useToast,
} from "@/components/ui";
import {
  DeliveryStatusBadge,
  deliveryStatuses,
  formatLatency,
  localInputToIso,
  pluralize,
  ResponseStatus,
  toLocalInput,
  type CatalogEntry,
  type DeliveryRow,
} from "./delivery-format";
import type { WebhookFilters } from "./webhooks-console";

export interface DeliveryLogQuery {
  data: { pages: { deliveries: DeliveryRow[] }[] } | undefined;
  isPending: boolean;
  isError: boolean;
  error: { message: string } | null;
  refetch: () => unknown;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
}

const linkClasses = "font-medium text-brand-ink underline-offset-2 hover:underline";

export function DeliveryLog({
  deliveries,
  catalog,
  filters,
  setFilters,
  endpointActive,
  onQueued,
}: {
  deliveries: DeliveryLogQuery;
  catalog: CatalogEntry[] | undefined;
  filters: WebhookFilters;
  setFilters: (changes: Partial<Record<keyof WebhookFilters, string | null>>) => void;
  endpointActive: boolean;
  onQueued: () => void;
}) {
  const pathname = usePathname();
  const params = useSearchParams();
  const rows = deliveries.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const filtered = Boolean(filters.status || filters.type || filters.from || filters.to);

  const hrefFor = (id: string) => {
    const next = new URLSearchParams(params.toString());
    next.set("delivery", id);
    return `${pathname}?${next.toString()}`;
  };
  const openRow = (id: string) => setFilters({ delivery: id });

  return (
    <section aria-labelledby="delivery-log-heading" className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h2 id="delivery-log-heading" className="text-lg font-semibold tracking-tight text-ink">
            Delivery log
          </h2>
          <p className="text-sm text-muted">Every delivery to this endpoint, newest first. Open one to see its attempts.</p>
        </div>
        <ResendFailedDialog disabled={!endpointActive} onQueued={onQueued} />
      </div>

      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="delivery-filters">
        <div className="space-y-1.5">
          <Label htmlFor="filter-status">Status</Label>
          <Select id="filter-status" value={filters.status} onChange={(e) => setFilters({ status: e.target.value, delivery: null })}>
            <option value="">All statuses</option>
            {Object.entries(deliveryStatuses).map(([value, { label }]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-type">Event type</Label>
          <Select id="filter-type" value={filters.type} onChange={(e) => setFilters({ type: e.target.value, delivery: null })}>
            <option value="">All types</option>
            {catalog?.map((c) => (
              <option key={c.type} value={c.type}>
                {c.type}
              </option>
            ))}
          </Select>
        </div>
        <Field
          id="filter-from"
          label="From"
          type="date"
          value={filters.from}
          max={filters.to || undefined}
          onChange={(e) => setFilters({ from: e.target.value, delivery: null })}
        />
        <Field
          id="filter-to"
          label="To"
          type="date"
          value={filters.to}
          min={filters.from || undefined}
          onChange={(e) => setFilters({ to: e.target.value, delivery: null })}
        />
      </div>
      {filtered ? (
        <div className="-mt-2 flex justify-end">
          <Button variant="ghost" size="sm" onClick={() => setFilters({ status: null, type: null, from: null, to: null })}>
            Clear filters
          </Button>
        </div>
      ) : null}

      {deliveries.isPending ? (
        <LoadingRows label="Loading deliveries…" />
      ) : deliveries.isError && rows.length === 0 ? (
        <ErrorState title="We couldn't load the delivery log" error={deliveries.error ?? { message: "Unknown error" }} onRetry={deliveries.refetch} />
      ) : rows.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No deliveries match these filters"
            description="Widen the dates or clear the filters."
            action={
              <Button variant="secondary" onClick={() => setFilters({ status: null, type: null, from: null, to: null })}>
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState
            title="No deliveries yet"
            description="Each event (an order recorded, paid, transferred…) becomes a delivery to your endpoint. Send a test event to see one arrive within seconds."
          />
        )
      ) : (
        <>
          <div className="max-md:hidden">
            <div className="rounded-xl border border-line bg-surface shadow-card">
              <Table data-testid="delivery-table">
                <caption className="sr-only">Webhook deliveries, newest first</caption>
                <THead>
                  <tr>
                    <TH>Event</TH>
                    <TH>Event ID</TH>
                    <TH>Status</TH>
                    <TH className="text-right">Attempts</TH>
                    <TH>Response</TH>
                    <TH className="text-right">Latency</TH>
                    <TH>Next retry</TH>
                    <TH>Created</TH>
                  </tr>
                </THead>
                <TBody>
                  {rows.map((d) => (
                    <TR
                      key={d.id}
                      onClick={rowClick(d.id, openRow)}
                      className={filters.delivery === d.id ? "cursor-pointer bg-brand-soft/50" : "cursor-pointer"}
                      data-testid="delivery-row"
                      data-delivery-id={d.id}
                      data-event-id={d.eventId}
                      data-status={d.status}
                    >
                      <TD className="whitespace-nowrap">
                        <Link href={hrefFor(d.id)} replace scroll={false} className={linkClasses}>
                          {d.type}
                        </Link>
                      </TD>
                      <TD className="whitespace-nowrap">
                        <span className="inline-flex items-center gap-0.5">
                          <Code className="text-xs">{d.eventId}</Code>
                          <CopyButton value={d.eventId} label={`Copy event ID ${d.eventId}`} />
                        </span>
                      </TD>
                      <TD>
                        <DeliveryStatusBadge status={d.status} />
                      </TD>
                      <TD className="text-right tabular-nums">{d.attempts}</TD>
                      <TD>
                        <ResponseStatus status={d.responseStatus} error={d.lastError} />
                      </TD>
                      <TD className="text-right whitespace-nowrap tabular-nums">{formatLatency(d.latencyMs)}</TD>
                      <TD className="whitespace-nowrap text-muted">
                        <RelativeTime value={d.nextAttemptAt} />
                      </TD>
                      <TD className="whitespace-nowrap text-muted">
                        <RelativeTime value={d.createdAt} />
                      </TD>
                    </TR>
                  ))}
                </TBody>
              </Table>
            </div>
          </div>

          <ul className="space-y-3 md:hidden" aria-label="Webhook deliveries, newest first" data-testid="delivery-cards">
            {rows.map((d) => (
              <RowCard key={d.id} rowId={d.id} onOpen={openRow} selected={filters.delivery === d.id} className="space-y-2" data-testid="delivery-card">
                <div className="flex items-start justify-between gap-3">
                  <Link href={hrefFor(d.id)} replace scroll={false} className={`${linkClasses} break-all`}>
                    {d.type}
                  </Link>
                  <DeliveryStatusBadge status={d.status} />
                </div>
                <div className="flex min-w-0 items-center gap-0.5">
                  <Code className="min-w-0 truncate text-xs">{d.eventId}</Code>
                  <CopyButton value={d.eventId} label={`Copy event ID ${d.eventId}`} />
                </div>
                <dl className="grid grid-cols-2 gap-x-4 gap-y-1 text-xs">
                  <dt className="text-muted">Attempts</dt>
                  <dd className="text-right tabular-nums">{d.attempts}</dd>
                  <dt className="text-muted">Response</dt>
                  <dd className="text-right">
                    <ResponseStatus status={d.responseStatus} error={d.lastError} />
                  </dd>
                  <dt className="text-muted">Latency</dt>
                  <dd className="text-right tabular-nums">{formatLatency(d.latencyMs)}</dd>
                  {d.nextAttemptAt ? (
                    <>
                      <dt className="text-muted">Next retry</dt>
                      <dd className="text-right">
                        <RelativeTime value={d.nextAttemptAt} />
                      </dd>
                    </>
                  ) : null}
                  <dt className="text-muted">Created</dt>
                  <dd className="text-right">
                    <RelativeTime value={d.createdAt} />
                  </dd>
                </dl>
              </RowCard>
            ))}
          </ul>

          {deliveries.isError ? (
            <ErrorState title="We couldn't refresh the delivery log" error={deliveries.error ?? { message: "Unknown error" }} onRetry={deliveries.refetch} />
          ) : null}
          {deliveries.hasNextPage ? (
            <div className="flex justify-center">
              <Button
                variant="secondary"
                onClick={() => !deliveries.isFetchingNextPage && deliveries.fetchNextPage()}
                aria-disabled={deliveries.isFetchingNextPage || undefined}
              >
                {deliveries.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

/** Every failed delivery of a window goes out again; the server leaves the rest alone, so twice is harmless. */
function ResendFailedDialog({ disabled, onQueued }: { disabled: boolean; onQueued: () => void }) {
  const trpc = useTRPC();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [localError, setLocalError] = useState<string>();
  const resend = useMutation(
    trpc.webhooks.resendFailed.mutationOptions({
      onSuccess: (result) => {
        toast({ title: `${pluralize(result.resent, "delivery", "deliveries")} queued`, tone: "success" });
        if (result.resent > 0) onQueued();
      },
    }),
  );

  function onOpenChange(next: boolean) {
    if (resend.isPending) return;
    setOpen(next);
    if (next) {
      const now = new Date();
      setFrom(toLocalInput(new Date(now.getTime() - 86_400_000)));
      setTo(toLocalInput(now));
      setLocalError(undefined);
      resend.reset();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const fromIso = localInputToIso(from);
    // The minute picked includes its last second.
    const toIso = localInputToIso(to) && new Date(new Date(localInputToIso(to)!).getTime() + 59_999).toISOString();
    if (!fromIso || !toIso) return setLocalError("Pick both ends of the window.");
    if (toIso < fromIso) return setLocalError("The window ends before it starts.");
    setLocalError(undefined);
    if (!resend.isPending) resend.mutate({ from: fromIso, to: toIso });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" disabled={disabled} title={disabled ? "Enable the endpoint first" : undefined}>
          Resend failed…
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Resend failed deliveries"
        description="Every event of the window whose delivery failed is queued again from the start of the retry schedule. Deliveries pending or already delivered are left alone, so resending twice sends nothing twice."
      >
        <form onSubmit={submit} className="space-y-4" noValidate>
          <div className="grid gap-3 sm:grid-cols-2">
            <Field id="resend-from" label="From" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
            <Field id="resend-to" label="To" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
          </div>
          <p className="text-xs text-faint">Times are in your time zone. The default is the last 24 hours.</p>
          {localError || resend.error ? (
            <p role="alert" className="text-sm font-medium text-danger-ink">
              {localError ?? resend.error?.message}
            </p>
          ) : null}
          {resend.data ? (
            <Alert tone="success" data-testid="resend-result">
              {pluralize(resend.data.resent, "delivery", "deliveries")} queued
              {resend.data.resent === 0 ? ": nothing in this window had failed, or it is already on its way again." : "."}
            </Alert>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="secondary">{resend.data ? "Close" : "Cancel"}</Button>
            </DialogClose>
            <Button type="submit" aria-disabled={resend.isPending || undefined}>
              {resend.isPending ? "Queuing…" : "Resend failed deliveries"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
