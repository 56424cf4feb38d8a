"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import {
  Alert,
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  Checkbox,
  Code,
  ConfirmDialog,
  CopyButton,
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogTrigger,
  EmptyState,
  Field,
  formatExact,
  RelativeTime,
  Stat,
  useToast,
} from "@/components/ui";
import type { Environment } from "@/db/schema";
import { fieldMessage } from "@/components/dashboard/field-message";
import { pluralize, type ConsoleEndpoint } from "./delivery-format";
import { SecretControls } from "./secret-controls";

const numberFormat = new Intl.NumberFormat("en-US");

function urlHint(environment: Environment) {
  return environment === "live"
    ? "An https URL that answers 2xx within 5 seconds."
    : "An https URL that answers 2xx within 5 seconds; plain http works in sandbox.";
}

/** Invalidate everything the endpoint's state shows up in. */
function useRefreshEndpoint() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.endpoint.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.webhooks.deliveries.pathKey() });
  };
}

/** No endpoint yet: the URL form, in an empty state that says what comes next. */
export function EndpointSetup({ environment }: { environment: Environment }) {
  const trpc = useTRPC();
  const refresh = useRefreshEndpoint();
  const { toast } = useToast();
  const [url, setUrl] = useState("");
  const [localError, setLocalError] = useState<string>();
  const save = useMutation(
    trpc.webhooks.setUrl.mutationOptions({
      onSuccess: () => {
        toast({ title: "Endpoint added", description: "Reveal the signing secret, then send a test event.", tone: "success" });
        refresh();
      },
    }),
  );

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!url.trim()) return setLocalError("Enter the URL events are sent to.");
    setLocalError(undefined);
    if (!save.isPending) save.mutate({ url: url.trim() });
  }

  return (
    <EmptyState
      title="No webhook endpoint yet"
      description={
        <>
          Add the URL of your receiver and we will POST each event to it as it happens: orders recorded, paid, transferred,
          settled or refunded, brokerage deals closed. One endpoint per environment.
        </>
      }
      action={
        <form onSubmit={submit} className="w-full max-w-lg space-y-3 text-left" noValidate data-testid="endpoint-setup">
          <Field
            id="endpoint-url"
            label="Endpoint URL"
            type="url"
            inputMode="url"
            autoComplete="url"
            placeholder="https://example.com/webhooks"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            hint={urlHint(environment)}
            error={localError ?? fieldMessage(save.error, "url")}
          />
          <Button type="submit" aria-disabled={save.isPending || undefined}>
            {save.isPending ? "Adding…" : "Add endpoint"}
          </Button>
        </form>
      }
    />
  );
}

const statusBadges = {
  active: { label: "Active", tone: "success" },
  partner: { label: "Disabled by you", tone: "neutral" },
  failing: { label: "Disabled after failures", tone: "danger" },
} as const;

export function EndpointStatusBadge({ endpoint }: { endpoint: ConsoleEndpoint }) {
  const key = endpoint.active ? "active" : (endpoint.disabledReason ?? "partner");
  const badge = statusBadges[key];
  return (
    <Badge tone={badge.tone} data-testid="endpoint-status">
      {badge.label}
    </Badge>
  );
}

export function EndpointCard({ endpoint, environment }: { endpoint: ConsoleEndpoint; environment: Environment }) {
  const trpc = useTRPC();
  const refresh = useRefreshEndpoint();
  const { toast } = useToast();
  const disable = useMutation(trpc.webhooks.disable.mutationOptions({ onSuccess: refresh }));
  const enable = useMutation(
    trpc.webhooks.enable.mutationOptions({
      onSuccess: () => {
        toast({ title: "Endpoint enabled", description: "New events are delivered again.", tone: "success" });
        refresh();
      },
      onError: (error) => toast({ title: "Could not enable the endpoint", description: error.message, tone: "danger" }),
    }),
  );

  return (
    <div className="space-y-4">
      <Card data-testid="endpoint-card">
        <CardHeader className="sm:flex-row sm:items-start sm:justify-between sm:gap-4">
          <div className="min-w-0 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <CardTitle>Endpoint</CardTitle>
              <EndpointStatusBadge endpoint={endpoint} />
              <Badge tone={environment === "live" ? "info" : "neutral"}>{environment === "live" ? "Live" : "Sandbox"}</Badge>
            </div>
            <div className="flex min-w-0 items-center gap-1">
              <Code className="min-w-0 break-all" data-testid="endpoint-url">
                {endpoint.url}
              </Code>
              <CopyButton value={endpoint.url} label="Copy endpoint URL" />
            </div>
            {!endpoint.active && endpoint.disabledAt ? (
              <p className="text-sm text-muted">
                Disabled <RelativeTime value={endpoint.disabledAt} />. Events are still recorded; none are delivered.
              </p>
            ) : null}
          </div>
          <div className="mt-3 flex shrink-0 flex-wrap gap-2 sm:mt-0">
            <EditUrlDialog endpoint={endpoint} environment={environment} />
            {endpoint.active ? (
              <ConfirmDialog
                trigger={<Button variant="secondary" size="sm">Disable</Button>}
                title="Disable this endpoint?"
                description={
                  <>
                    Deliveries stop at once and retries still waiting are marked failed. Events keep being recorded (see
                    Events); after you enable the endpoint again you can resend what failed.
                  </>
                }
                confirmLabel="Disable endpoint"
                onConfirm={async () => {
                  await disable.mutateAsync();
                  toast({ title: "Endpoint disabled", tone: "info" });
                }}
              />
            ) : endpoint.disabledReason !== "failing" ? (
              <Button size="sm" onClick={() => !enable.isPending && enable.mutate({ resend: false })} aria-disabled={enable.isPending || undefined}>
                {enable.isPending ? "Enabling…" : "Enable"}
              </Button>
            ) : null}
          </div>
        </CardHeader>
        <CardContent>
          <SecretControls endpoint={endpoint} />
        </CardContent>
      </Card>

      <section aria-labelledby="delivery-stats-heading" className="space-y-2">
        <h2 id="delivery-stats-heading" className="text-sm font-medium text-muted">
          Deliveries in the last 24 hours
        </h2>
        <dl className="grid grid-cols-3 gap-2 sm:gap-4">
          <Stat testId="stat-succeeded" className="max-sm:p-3" label="Succeeded" value={numberFormat.format(endpoint.stats.succeeded)} />
          <Stat
            testId="stat-failed"
            className="max-sm:p-3"
            label="Failed"
            value={numberFormat.format(endpoint.stats.failed)}
            hint={<span className="max-sm:hidden">Used up every retry</span>}
          />
          <Stat
            testId="stat-pending"
            className="max-sm:p-3"
            label="Pending"
            value={numberFormat.format(endpoint.stats.pending)}
            hint={<span className="max-sm:hidden">Waiting for a try or a retry</span>}
          />
        </dl>
      </section>
    </div>
  );
}

function EditUrlDialog({ endpoint, environment }: { endpoint: ConsoleEndpoint; environment: Environment }) {
  const trpc = useTRPC();
  const refresh = useRefreshEndpoint();
  const { toast } = useToast();
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState(endpoint.url);
  const [localError, setLocalError] = useState<string>();
  const save = useMutation(
    trpc.webhooks.setUrl.mutationOptions({
      onSuccess: () => {
        toast({ title: "Endpoint URL saved", description: "The signing secret is unchanged.", tone: "success" });
        refresh();
        setOpen(false);
      },
    }),
  );

  function onOpenChange(next: boolean) {
    if (save.isPending) return;
    setOpen(next);
    if (next) {
      setUrl(endpoint.url);
      setLocalError(undefined);
      save.reset();
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!url.trim()) return setLocalError("Enter the URL events are sent to.");
    setLocalError(undefined);
    if (!save.isPending) save.mutate({ url: url.trim() });
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button variant="secondary" size="sm">
          Edit URL
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Edit endpoint URL"
        description="Deliveries still waiting follow the endpoint to its new URL. The signing secret stays the same."
      >
        <form onSubmit={submit} noValidate>
          <Field
            id="endpoint-url-edit"
            label="Endpoint URL"
            type="url"
            inputMode="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            hint={urlHint(environment)}
            error={localError ?? fieldMessage(save.error, "url")}
          />
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            <Button type="submit" aria-disabled={save.isPending || undefined}>
              {save.isPending ? "Saving…" : "Save URL"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}

/** The endpoint was auto-disabled: why, since when, and the one-click way back. */
export function FailingBanner({ endpoint, onEnabled }: { endpoint: ConsoleEndpoint; onEnabled: () => void }) {
  const trpc = useTRPC();
  const refresh = useRefreshEndpoint();
  const { toast } = useToast();
  const [resend, setResend] = useState(true);
  const enable = useMutation(
    trpc.webhooks.enable.mutationOptions({
      onSuccess: (result) => {
        toast({
          title: "Endpoint re-enabled",
          description: result.resent > 0 || resend ? `${pluralize(result.resent, "delivery", "deliveries")} queued.` : "New events are delivered again.",
          tone: "success",
        });
        refresh();
        if (result.resent > 0) onEnabled();
      },
    }),
  );
  const since = endpoint.failingSince ?? endpoint.disabledAt;

  return (
    <Alert
      tone="danger"
      data-testid="failing-banner"
      title={
        <>
          Deliveries stopped: every attempt failed for 3 days
          {since ? ` since ${formatExact(new Date(since))}` : ""}
        </>
      }
    >
      <p>
        We disabled the endpoint
        {endpoint.disabledAt ? (
          <>
            {" "}
            <RelativeTime value={endpoint.disabledAt} />
          </>
        ) : null}
        . Events are still recorded but not delivered. Fix your receiver, then turn deliveries back on.
      </p>
      <div className="mt-3 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Checkbox
          id="reenable-resend"
          checked={resend}
          onCheckedChange={setResend}
          label="Resend what failed while disabled"
          description="Failed deliveries and events that came while the endpoint was off go out again."
        />
        <Button
          className="shrink-0"
          onClick={() => !enable.isPending && enable.mutate({ resend })}
          aria-disabled={enable.isPending || undefined}
        >
          {enable.isPending ? "Re-enabling…" : "Re-enable"}
        </Button>
      </div>
      {enable.error ? (
        <p className="mt-2 font-medium" data-testid="reenable-error">
          {enable.error.message}
        </p>
      ) : null}
    </Alert>
  );
}
