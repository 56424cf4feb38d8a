"use client";

import { useInfiniteQuery, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Code, ErrorState, LoadingRows, PageHeader } from "@/components/ui";
import type { Environment } from "@/db/schema";
import { DeliveryDetailDialog } from "./delivery-detail";
import { dayToIso, deliveryStatuses, isInFlight, type DeliveryStatus } from "./delivery-format";
import { DeliveryLog } from "./delivery-log";
import { EndpointCard, EndpointSetup, FailingBanner } from "./endpoint-card";
import { SendTestDialog } from "./send-test-dialog";

// The Webhooks page: the endpoint of the selected environment (URL, status,
// signing secret, test events) and its delivery log with resends. Filters and
// the open delivery live in the query string.

const URL_KEYS = ["status", "type", "from", "to", "delivery", "test"] as const;
export type WebhookFilters = Record<(typeof URL_KEYS)[number], string>;

/** While deliveries are pending (or a test event was just sent), the log refreshes this often. */
const POLL_MS = 2000;
/** How long after a send the log keeps polling for a delivery the worker has not created yet. */
const BURST_MS = 15_000;

export function WebhooksConsole({ environment }: { environment: Environment }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useUrlState(URL_KEYS);
  const [burstUntil, setBurstUntil] = useState(0);

  const status = filters.status in deliveryStatuses ? (filters.status as DeliveryStatus) : undefined;
  const deliveries = useInfiniteQuery(
    trpc.webhooks.deliveries.infiniteQueryOptions(
      {
        status,
        type: filters.type || undefined,
        from: dayToIso(filters.from, "start"),
        to: dayToIso(filters.to, "end"),
        limit: 25,
      },
      {
        getNextPageParam: (last) => last.nextCursor ?? undefined,
        refetchInterval: (query) => {
          const pending = query.state.data?.pages.some((page) => page.deliveries.some((d) => isInFlight(d.status)));
          return pending || burstUntil > 0 ? POLL_MS : false;
        },
      },
    ),
  );
  const anyInFlight = Boolean(deliveries.data?.pages.some((page) => page.deliveries.some((d) => isInFlight(d.status))));

  // The card's counts and status follow the log while anything is on its way.
  const endpoint = useQuery(
    trpc.webhooks.endpoint.queryOptions(undefined, { refetchInterval: anyInFlight || burstUntil > 0 ? POLL_MS : false }),
  );
  const catalog = useQuery(trpc.webhooks.catalog.queryOptions(undefined, { staleTime: Infinity }));

  // Once the log settles, read the counts one last time.
  const wasInFlight = useRef(false);
  useEffect(() => {
    if (wasInFlight.current && !anyInFlight) void queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoint.queryKey() });
    wasInFlight.current = anyInFlight;
  }, [anyInFlight, queryClient, trpc]);
  useEffect(() => {
    if (burstUntil === 0) return;
    const id = setTimeout(() => setBurstUntil(0), Math.max(0, burstUntil - Date.now()));
    return () => clearTimeout(id);
  }, [burstUntil]);

  /** After anything that queues deliveries: refresh now and keep polling until they show up. */
  const onQueued = useCallback(() => {
    setBurstUntil(Date.now() + BURST_MS);
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoint.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.events.pathKey() });
  }, [queryClient, trpc]);

  const environmentLabel = environment === "live" ? "live" : "sandbox";
  const header = (
    <PageHeader
      title="Webhooks"
      description={
        <>
          We POST every event to your {environmentLabel} endpoint, signed with <Code>X-Service-Signature</Code>, and retry
          failures on a schedule.
        </>
      }
      actions={
        endpoint.data ? (
          <SendTestDialog
            catalog={catalog.data}
            disabled={!endpoint.data.active}
            defaultOpen={filters.test === "1"}
            onClosed={() => filters.test && setFilters({ test: null })}
            onSent={onQueued}
          />
        ) : undefined
      }
    />
  );

  if (endpoint.isPending) {
    return (
      <div className="space-y-8">
        {header}
        <LoadingRows label="Loading your webhook endpoint…" rows={3} />
      </div>
    );
  }
  if (endpoint.isError) {
    return (
      <div className="space-y-8">
        {header}
        <ErrorState title="We couldn't load your webhook endpoint" error={endpoint.error} onRetry={() => endpoint.refetch()} />
      </div>
    );
  }

  const current = endpoint.data;
  return (
    <div className="space-y-8">
      {header}
      {current?.disabledReason === "failing" ? <FailingBanner endpoint={current} onEnabled={onQueued} /> : null}
      {current ? (
        <>
          <EndpointCard endpoint={current} environment={environment} />
          <DeliveryLog
            deliveries={deliveries}
            catalog={catalog.data}
            filters={filters}
            setFilters={setFilters}
            endpointActive={current.active}
            onQueued={onQueued}
          />
        </>
      ) : (
        <EndpointSetup environment={environment} />
      )}
      <DeliveryDetailDialog id={filters.delivery} onClose={() => setFilters({ delivery: null })} onQueued={onQueued} />
    </div>
  );
}
