"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import {
  Button,
  CodeBlock,
  Dialog,
  DialogClose,
  DialogContent,
  DialogFooter,
  DialogTrigger,
  Label,
  Select,
  useToast,
} from "@/components/ui";
import type { CatalogEntry } from "./delivery-format";

type EventType = CatalogEntry["type"];

/** Any catalog type, queued like a real event (data marked `test: true`). */
export function SendTestDialog({
  catalog,
  disabled,
  defaultOpen,
  onClosed,
  onSent,
}: {
  catalog: CatalogEntry[] | undefined;
  disabled: boolean;
  /** Opened by a link (`?test=1`), e.g. from the Events page's empty state. */
  defaultOpen: boolean;
  onClosed: () => void;
  onSent: () => void;
}) {
  const trpc = useTRPC();
  const { toast } = useToast();
  const [open, setOpen] = useState(defaultOpen && !disabled);
  const [type, setType] = useState<EventType>("order.paid");
  const send = useMutation(
    trpc.webhooks.sendTest.mutationOptions({
      onSuccess: (event) => {
        toast({
          title: "Test event sent",
          description: `${event.type} ${event.id} is on its way; it shows up in the delivery log within seconds.`,
          tone: "success",
        });
        onSent();
        setOpen(false);
        onClosed();
      },
    }),
  );

  function onOpenChange(next: boolean) {
    if (send.isPending) return;
    setOpen(next);
    if (next) send.reset();
    else onClosed();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!send.isPending) send.mutate({ type });
  }

  const entry = catalog?.find((c) => c.type === type);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogTrigger asChild>
        <Button disabled={disabled} title={disabled ? "Enable the endpoint to send test events" : undefined}>
          Send test event
        </Button>
      </DialogTrigger>
      <DialogContent
        title="Send a test event"
        description="It goes through the same queue, signature and retries as a real event; its data carries test: true."
      >
        <form onSubmit={submit} className="space-y-4">
          <div className="space-y-1.5">
            <Label htmlFor="test-event-type">Event type</Label>
            <Select
              id="test-event-type"
              value={type}
              onChange={(e) => setType(e.target.value as EventType)}
              aria-describedby="test-event-description"
            >
              {(catalog ?? [{ type: "order.paid" as const, description: "", sample: {} }]).map((c) => (
                <option key={c.type} value={c.type}>
                  {c.type}
                </option>
              ))}
            </Select>
            <p id="test-event-description" className="text-sm text-muted">
              {entry?.description}
            </p>
          </div>
          {entry ? (
            <div className="space-y-1.5">
              <p className="text-sm font-medium text-ink">Sample data</p>
              <CodeBlock tone="light" className="max-h-56 text-xs" tabIndex={0} role="region" aria-label={`Sample data of ${entry.type}`}>
                {JSON.stringify(entry.sample, null, 2)}
              </CodeBlock>
            </div>
          ) : null}
          {send.error ? (
            <p role="alert" className="text-sm font-medium text-danger-ink">
              {send.error.message}
            </p>
          ) : null}
          <DialogFooter>
            <DialogClose asChild>
              <Button variant="secondary">Cancel</Button>
            </DialogClose>
            <Button type="submit" aria-disabled={send.isPending || undefined}>
              {send.isPending ? "Sending…" : "Send test event"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
