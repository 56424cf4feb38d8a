"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/app/providers";
import {
  Button,
  Code,
  CodeBlock,
  CopyButton,
  Dialog,
  DialogContent,
  ErrorState,
  formatExact,
  LoadingRows,
  RelativeTime,
  useToast,
} from "@/components/ui";
import { DeliveryStatusBadge, formatLatency, isInFlight, ResponseStatus } from "./delivery-format";

const EXCERPT_CHARS = 2000;

/** One delivery (`?delivery=whd_…`): every attempt, the event it carried, and Resend. */
export function DeliveryDetailDialog({ id, onClose, onQueued }: { id: string; onClose: () => void; onQueued: () => void }) {
  return (
    <Dialog open={Boolean(id)} onOpenChange={(open) => !open && onClose()}>
      {id ? (
        <DialogContent
          className="sm:max-w-3xl"
          title="Delivery"
          description={
            <span className="inline-flex items-center gap-1">
              <Code className="break-all">{id}</Code>
              <CopyButton value={id} label="Copy delivery ID" />
            </span>
          }
        >
          <DeliveryDetail id={id} onQueued={onQueued} />
        </DialogContent>
      ) : null}
    </Dialog>
  );
}

function DeliveryDetail({ id, onQueued }: { id: string; onQueued: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { toast } = useToast();
  const delivery = useQuery(
    trpc.webhooks.delivery.queryOptions(
      { id },
      { refetchInterval: (query) => (query.state.data && isInFlight(query.state.data.status) ? 2000 : false) },
    ),
  );
  // Shares the page's endpoint query: a disabled endpoint sends nothing, so Resend waits for Enable.
  const endpoint = useQuery(trpc.webhooks.endpoint.queryOptions());
  const resend = useMutation(
    trpc.webhooks.resend.mutationOptions({
      onSuccess: () => {
        toast({ title: "Delivery queued", description: "It is sent again from the start of the retry schedule.", tone: "success" });
        void queryClient.invalidateQueries({ queryKey: trpc.webhooks.delivery.queryKey({ id }) });
        onQueued();
      },
      onError: (error) => toast({ title: "Could not resend", description: error.message, tone: "danger" }),
    }),
  );

  if (delivery.isPending) return <LoadingRows label="Loading the delivery…" rows={3} />;
  if (delivery.isError) {
    const missing = delivery.error.data?.code === "not_found";
    return (
      <ErrorState
        title={missing ? "No such delivery in this environment" : "We couldn't load this delivery"}
        error={delivery.error}
        onRetry={missing ? undefined : () => delivery.refetch()}
      />
    );
  }

  const d = delivery.data;
  const blocked = d.status === "delivering" || endpoint.data?.active === false;
  const eventJson = JSON.stringify(d.event, null, 2);
  return (
    <div className="space-y-6" data-testid="delivery-detail">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1.5 text-sm">
          <dt className="text-muted">Status</dt>
          <dd>
            <DeliveryStatusBadge status={d.status} />
          </dd>
          <dt className="text-muted">Event</dt>
          <dd className="min-w-0">
            <Code className="break-all">{d.event.type}</Code>
          </dd>
          <dt className="text-muted">Event ID</dt>
          <dd className="flex min-w-0 items-center gap-0.5">
            <Link href={`/dashboard/events?event=${encodeURIComponent(d.event.id)}`} className="font-mono text-xs break-all text-brand-ink hover:underline">
              {d.event.id}
            </Link>
            <CopyButton value={d.event.id} label="Copy event ID" />
          </dd>
          <dt className="text-muted">Event created</dt>
          <dd>
            <RelativeTime value={d.event.created_at} />
          </dd>
          <dt className="text-muted">Attempts</dt>
          <dd className="tabular-nums">{d.attempts}</dd>
          {d.nextAttemptAt ? (
            <>
              <dt className="text-muted">Next retry</dt>
              <dd>
                <RelativeTime value={d.nextAttemptAt} />
              </dd>
            </>
          ) : null}
          {d.lastError && d.status !== "succeeded" ? (
            <>
              <dt className="text-muted">Last error</dt>
              <dd className="break-words text-danger-ink">{d.lastError}</dd>
            </>
          ) : null}
        </dl>
        <Button
          variant="secondary"
          className="shrink-0"
          onClick={() => !resend.isPending && !blocked && resend.mutate({ id })}
          aria-disabled={resend.isPending || blocked || undefined}
          title={
            d.status === "delivering"
              ? "An attempt is in flight right now"
              : endpoint.data?.active === false
                ? "Enable the endpoint to resend"
                : undefined
          }
        >
          {resend.isPending ? "Resending…" : "Resend"}
        </Button>
      </div>

      <section aria-labelledby="attempts-heading" className="space-y-3">
        <h3 id="attempts-heading" className="text-sm font-semibold text-ink">
          Attempts {d.attemptLog.length > 0 ? <span className="font-normal text-muted">(newest first)</span> : null}
        </h3>
        {d.attemptLog.length === 0 ? (
          <p className="text-sm text-muted">
            {isInFlight(d.status) ? "No attempt yet; the first one is moments away." : "No attempts were made."}
          </p>
        ) : (
          <ol className="space-y-3" data-testid="attempt-list">
            {d.attemptLog.map((a, index) => (
              <li key={`${a.at}-${index}`} className="space-y-2 rounded-lg border border-line p-3" data-testid="attempt">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
                  <span className="font-medium text-ink">#{d.attemptLog.length - index}</span>
                  <ResponseStatus status={a.responseStatus} error={a.error} />
                  <time dateTime={a.at} className="text-muted tabular-nums">
                    {formatExact(new Date(a.at))}
                  </time>
                  <span className="tabular-nums text-muted">{formatLatency(a.latencyMs)}</span>
                  <Code className="min-w-0 truncate text-xs">{a.url}</Code>
                </div>
                {a.error ? <p className="text-sm break-words text-danger-ink">{a.error}</p> : null}
                {a.responseBody ? (
                  <CodeBlock
                    tone="light"
                    className="max-h-40 text-xs"
                    tabIndex={0}
                    role="region"
                    aria-label={`Response body of attempt ${d.attemptLog.length - index}`}
                  >
                    {a.responseBody.length > EXCERPT_CHARS ? `${a.responseBody.slice(0, EXCERPT_CHARS)}…` : a.responseBody}
                  </CodeBlock>
                ) : null}
              </li>
            ))}
          </ol>
        )}
      </section>

      <section aria-labelledby="event-json-heading" className="space-y-2">
        <div className="flex items-center justify-between gap-2">
          <h3 id="event-json-heading" className="text-sm font-semibold text-ink">
            Event body
          </h3>
          <CopyButton value={eventJson} label="Copy JSON" size="sm" />
        </div>
        <CodeBlock className="max-h-80 text-xs" tabIndex={0} role="region" aria-label="Event JSON" data-testid="event-json">
          {eventJson}
        </CodeBlock>
      </section>
    </div>
  );
}
