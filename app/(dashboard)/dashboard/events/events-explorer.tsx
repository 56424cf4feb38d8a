"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import {
  Button,
  buttonClasses,
  Code,
  CodeBlock,
  CopyButton,
  Dialog,
  DialogContent,
  EmptyState,
  ErrorState,
  Field,
  Label,
  LoadingRows,
  PageHeader,
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
} from "@/components/ui";
import { dayToIso, DeliveryStatusBadge, eventSummary, formatLatency, isInFlight, ResponseStatus } from "../webhooks/delivery-format";

// The event explorer: the partner's events of the selected environment, newest
// first, as GET /api/partner/v1/events returns them. Filters and the open event
// live in the query string.

const URL_KEYS = ["type", "from", "to", "event"] as const;
const linkClasses = "font-medium text-brand-ink underline-offset-2 hover:underline";

export function EventsExplorer() {
  const trpc = useTRPC();
  const pathname = usePathname();
  const params = useSearchParams();
  const [filters, setFilters] = useUrlState(URL_KEYS);
  const catalog = useQuery(trpc.webhooks.catalog.queryOptions(undefined, { staleTime: Infinity }));
  const events = useInfiniteQuery(
    trpc.events.list.infiniteQueryOptions(
      { type: filters.type || undefined, from: dayToIso(filters.from, "start"), to: dayToIso(filters.to, "end"), limit: 25 },
      { getNextPageParam: (last) => last.nextCursor ?? undefined },
    ),
  );
  const rows = events.data?.pages.flatMap((page) => page.events) ?? [];
  const filtered = Boolean(filters.type || filters.from || filters.to);
  const families = [...new Set((catalog.data ?? []).map((c) => `${c.type.split(".")[0]}.*`))];
  const clear = () => setFilters({ type: null, from: null, to: null });

  const hrefFor = (id: string) => {
    const next = new URLSearchParams(params.toString());
    next.set("event", id);
    return `${pathname}?${next.toString()}`;
  };
  const openRow = (id: string) => setFilters({ event: id });

  return (
    <div className="space-y-8">
      <PageHeader
        title="Events"
        description={
          <>
            Everything that happened to your orders, brokerage deals and webhook endpoint, newest first. The same data as{" "}
            <Code className="whitespace-nowrap">GET /api/partner/v1/events</Code>, which you can poll instead of, or as well as, receiving webhooks.
          </>
        }
        actions={
          <Link href="/dashboard/webhooks" className={buttonClasses({ variant: "secondary" })}>
            Webhooks
          </Link>
        }
      />

      <section aria-label="Event list" className="space-y-4">
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3" data-testid="event-filters">
          <div className="col-span-2 space-y-1.5 sm:col-span-1">
            <Label htmlFor="filter-event-type">Type</Label>
            <Select id="filter-event-type" value={filters.type} onChange={(e) => setFilters({ type: e.target.value, event: null })}>
              <option value="">All types</option>
              {families.length > 0 ? (
                <optgroup label="Families">
                  {families.map((family) => (
                    <option key={family} value={family}>
                      {family}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              <optgroup label="Types">
                {catalog.data?.map((c) => (
                  <option key={c.type} value={c.type}>
                    {c.type}
                  </option>
                ))}
                {/* A type from a shared link that the catalog no longer lists still shows. */}
                {filters.type && !filters.type.endsWith(".*") && !catalog.data?.some((c) => c.type === filters.type) ? (
                  <option value={filters.type}>{filters.type}</option>
                ) : null}
              </optgroup>
            </Select>
          </div>
          <Field
            id="filter-event-from"
            label="From"
            type="date"
            value={filters.from}
            max={filters.to || undefined}
            onChange={(e) => setFilters({ from: e.target.value, event: null })}
          />
          <Field
            id="filter-event-to"
            label="To"
            type="date"
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => setFilters({ to: e.target.value, event: null })}
          />
        </div>
        {filtered ? (
          <div className="-mt-2 flex justify-end">
            <Button variant="ghost" size="sm" onClick={clear}>
              Clear filters
            </Button>
          </div>
        ) : null}

        {events.isPending ? (
          <LoadingRows label="Loading events…" />
        ) : events.isError && rows.length === 0 ? (
          <ErrorState title="We couldn't load your events" error={events.error} onRetry={() => events.refetch()} />
        ) : rows.length === 0 ? (
          filtered ? (
            <EmptyState
              title="No events match these filters"
              description="Pick another type or widen the dates."
              action={
                <Button variant="secondary" onClick={clear}>
                  Clear filters
                </Button>
              }
            />
          ) : (
            <EmptyState
              title="No events yet"
              description="Events are recorded when an order is recorded, paid, transferred, settled or refunded, when a brokerage deal closes, and when a failing webhook endpoint is disabled. Send a test event to see one now."
              action={
                <Link href="/dashboard/webhooks?test=1" className={buttonClasses()}>
                  Send a test event
                </Link>
              }
            />
          )
        ) : (
          <>
            <div className="max-md:hidden">
              <div className="rounded-xl border border-line bg-surface shadow-card">
                <Table data-testid="event-table">
                  <caption className="sr-only">Events, newest first</caption>
                  <THead>
                    <tr>
                      <TH>Type</TH>
                      <TH>Event ID</TH>
                      <TH>Summary</TH>
                      <TH>Created</TH>
                    </tr>
                  </THead>
                  <TBody>
                    {rows.map((e) => (
                      <TR
                        key={e.id}
                        onClick={rowClick(e.id, openRow)}
                        className={filters.event === e.id ? "cursor-pointer bg-brand-soft/50" : "cursor-pointer"}
                        data-testid="event-row"
                        data-event-id={e.id}
                      >
                        <TD className="whitespace-nowrap">
                          <Link href={hrefFor(e.id)} replace scroll={false} className={linkClasses}>
                            {e.type}
                          </Link>
                        </TD>
                        <TD className="whitespace-nowrap">
                          <span className="inline-flex items-center gap-0.5">
                            <Code className="text-xs">{e.id}</Code>
                            <CopyButton value={e.id} label={`Copy event ID ${e.id}`} />
                          </span>
                        </TD>
                        <TD className="max-w-xs truncate text-muted" title={eventSummary(e.data)}>
                          {eventSummary(e.data) || "—"}
                        </TD>
                        <TD className="whitespace-nowrap text-muted">
                          <RelativeTime value={e.created_at} />
                        </TD>
                      </TR>
                    ))}
                  </TBody>
                </Table>
              </div>
            </div>

            <ul className="space-y-3 md:hidden" aria-label="Events, newest first" data-testid="event-cards">
              {rows.map((e) => (
                <RowCard key={e.id} rowId={e.id} onOpen={openRow} selected={filters.event === e.id} className="space-y-1.5" data-testid="event-card">
                  <div className="flex items-start justify-between gap-3">
                    <Link href={hrefFor(e.id)} replace scroll={false} className={`${linkClasses} break-all`}>
                      {e.type}
                    </Link>
                    <span className="shrink-0 text-xs text-muted">
                      <RelativeTime value={e.created_at} />
                    </span>
                  </div>
                  {eventSummary(e.data) ? <p className="text-sm break-words text-muted">{eventSummary(e.data)}</p> : null}
                  <div className="flex min-w-0 items-center gap-0.5">
                    <Code className="min-w-0 truncate text-xs">{e.id}</Code>
                    <CopyButton value={e.id} label={`Copy event ID ${e.id}`} />
                  </div>
                </RowCard>
              ))}
            </ul>

            {events.isError ? <ErrorState title="We couldn't load more events" error={events.error} onRetry={() => events.refetch()} /> : null}
            {events.hasNextPage ? (
              <div className="flex justify-center">
                <Button
                  variant="secondary"
                  onClick={() => !events.isFetchingNextPage && events.fetchNextPage()}
                  aria-disabled={events.isFetchingNextPage || undefined}
                >
                  {events.isFetchingNextPage ? "Loading…" : "Load more"}
                </Button>
              </div>
            ) : null}
          </>
        )}
      </section>

      <Dialog open={Boolean(filters.event)} onOpenChange={(open) => !open && setFilters({ event: null })}>
        {filters.event ? (
          <DialogContent
            className="sm:max-w-3xl"
            title="Event"
            description={
              <span className="inline-flex items-center gap-1">
                <Code className="break-all">{filters.event}</Code>
                <CopyButton value={filters.event} label="Copy event ID" />
              </span>
            }
          >
            <EventDetail id={filters.event} />
          </DialogContent>
        ) : null}
      </Dialog>
    </div>
  );
}

function EventDetail({ id }: { id: string }) {
  const trpc = useTRPC();
  const detail = useQuery(
    trpc.events.get.queryOptions(
      { id },
      // Deliveries still on their way are followed until they settle.
      { refetchInterval: (query) => (query.state.data?.deliveries.some((d) => isInFlight(d.status)) ? 2000 : false) },
    ),
  );

  if (detail.isPending) return <LoadingRows label="Loading the event…" rows={3} />;
  if (detail.isError) {
    const missing = detail.error.data?.code === "not_found";
    return (
      <ErrorState
        title={missing ? "No such event in this environment" : "We couldn't load this event"}
        error={detail.error}
        onRetry={missing ? undefined : () => detail.refetch()}
      />
    );
  }

  const { event, deliveries } = detail.data;
  const json = JSON.stringify(event, null, 2);
  return (
    <div className="space-y-6" data-testid="event-detail">
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
        <dt className="text-muted">Type</dt>
        <dd>
          <Code>{event.type}</Code>
        </dd>
        <dt className="text-muted">Created</dt>
        <dd>
          <RelativeTime value={event.created_at} />
        </dd>
        {eventSummary(event.data) ? (
          <>
            <dt className="text-muted">Summary</dt>
            <dd className="break-words">{eventSummary(event.data)}</dd>
          </>
        ) : null}
      </dl>

      <section aria-labelledby="event-json-heading" className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <h3 id="event-json-heading" className="text-sm font-semibold text-ink">
            JSON
          </h3>
          <CopyButton value={json} label="Copy JSON" size="sm" />
        </div>
        <CodeBlock className="max-h-96 text-xs" tabIndex={0} role="region" aria-label="Event JSON" data-testid="event-json">
          {json}
        </CodeBlock>
      </section>

      <section aria-labelledby="event-deliveries-heading" className="space-y-2">
        <h3 id="event-deliveries-heading" className="text-sm font-semibold text-ink">
          Webhook deliveries
        </h3>
        {deliveries.length === 0 ? (
          <p className="text-sm text-muted">
            None: no webhook endpoint was active in this environment when the event was recorded. You can still read it
            here and from <Code>GET /events</Code>.
          </p>
        ) : (
          <ul className="divide-y divide-line rounded-lg border border-line" data-testid="event-deliveries">
            {deliveries.map((d) => (
              <li key={d.id} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2.5 text-sm" data-testid="event-delivery">
                <DeliveryStatusBadge status={d.status} />
                <span className="text-muted">
                  {d.attempts} {d.attempts === 1 ? "attempt" : "attempts"}
                </span>
                <span className="inline-flex items-center gap-1.5">
                  <span className="text-muted">Response</span>
                  <ResponseStatus status={d.responseStatus} error={d.lastError} />
                </span>
                <span className="tabular-nums text-muted">{formatLatency(d.latencyMs)}</span>
                <Link href={`/dashboard/webhooks?delivery=${encodeURIComponent(d.id)}`} className={`${linkClasses} ml-auto`}>
                  View delivery
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
