"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { formatMoney } from "@/app/checkout/format";
import {
  Alert,
  Badge,
  Button,
  Card,
  CardContent,
  CardHeader,
  CardTitle,
  ConfirmDialog,
  CopyButton,
  ErrorState,
  Input,
  Label,
  LoadingRows,
  RelativeTime,
  Textarea,
  useToast,
} from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";

// One brokerage case for staff: its timeline (what the buyer's progress page
// shows), the next stages with a note the buyer reads, a final price to
// complete, and a note without a move.

type StaffCaseView = inferRouterOutputs<AppRouter>["admin"]["brokerage"]["get"];
type Stage = StaffCaseView["next"][number];

export function StaffCase({ id }: { id: string }) {
  const trpc = useTRPC();
  const view = useQuery(trpc.admin.brokerage.get.queryOptions({ id }));
  if (view.isPending) return <LoadingRows label="Loading the case…" rows={6} />;
  if (view.isError) return <ErrorState title="We couldn't load this case" error={view.error} onRetry={() => view.refetch()} />;
  const { case: c, timeline, next } = view.data;
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <Link href="/admin/brokerage" className="text-sm text-muted hover:text-ink">
          ← Brokerage queue
        </Link>
        <h1 className="text-2xl font-semibold tracking-tight break-all text-ink">{c.domain}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone="warning" data-testid="case-status">
            {c.status}
          </Badge>
          <code className="font-mono text-xs text-muted">{c.id}</code>
          <CopyButton value={c.id} label="Copy case id" />
          <a href={c.progressUrl} className="text-brand hover:text-brand-hover" target="_blank" rel="noreferrer">
            Buyer&apos;s progress page
          </a>
        </div>
      </div>
      <section aria-labelledby="case-moves" className="space-y-2">
        <h2 id="case-moves" className="text-base font-semibold text-ink">
          Next stage
        </h2>
        {next.length === 0 ? (
          <p className="text-sm text-muted">The case is closed.</p>
        ) : (
          <div className="flex flex-wrap gap-2">
            {next.map((to) => (
              <Advance key={to} view={view.data} to={to} />
            ))}
          </div>
        )}
      </section>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Case</CardTitle>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs text-faint">Partner</dt>
                <dd>
                  <Link href={`/admin/partners/${c.partnerId}`} className="text-brand hover:text-brand-hover">
                    {c.partnerName}
                  </Link>
                </dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Environment · tier</dt>
                <dd>
                  {c.environment} · {c.tier}
                </dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Budget</dt>
                <dd className="tabular-nums">{formatMoney(c.budgetCents, c.currency)}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Final price</dt>
                <dd className="tabular-nums">{c.finalPriceCents ? formatMoney(c.finalPriceCents, c.currency) : "—"}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-xs text-faint">Buyer</dt>
                <dd className="break-all">{c.buyerEmail}</dd>
              </div>
            </dl>
            {next.length > 0 ? <NoteForm id={c.id} /> : null}
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Timeline (as the buyer sees it)</CardTitle>
          </CardHeader>
          <CardContent>
            <ol className="space-y-3" aria-label="Timeline" data-testid="case-timeline">
              {timeline.map((step, index) => (
                <li key={`${step.at}-${index}`} className="text-sm">
                  <div className="flex flex-wrap items-center gap-2">
                    <Badge>{step.status}</Badge>
                    <RelativeTime value={step.at} />
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

function useRefresh() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: trpc.admin.brokerage.pathKey() });
}

function Advance({ view, to }: { view: StaffCaseView; to: Stage }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { toast } = useToast();
  const [note, setNote] = useState("");
  const [price, setPrice] = useState("");
  const advance = useMutation(trpc.admin.brokerage.advance.mutationOptions());
  const completing = to === "COMPLETED";
  const closing = to === "CLOSED_NO_DEAL";
  const cents = completing ? Math.round(Number(price) * 100) : undefined;
  const priceOk = !completing || (Number.isSafeInteger(cents) && (cents ?? 0) > 0);
  return (
    <ConfirmDialog
      trigger={<Button variant={closing ? "danger" : "primary"}>{completing ? "Complete with a deal" : closing ? "Close without a deal" : `Move to ${to}`}</Button>}
      title={`${view.case.domain}: ${to}?`}
      description={
        <p>
          {completing
            ? "The deal closes at the final price; the partner's share is computed and paid at the next settlement run, and the partner receives brokerage.case_completed."
            : closing
              ? "The case ends without a deal. This cannot be undone."
              : `The case moves to ${to}.`}{" "}
          The buyer reads your note on the progress page.
        </p>
      }
      tone={closing ? "danger" : "primary"}
      confirmLabel={completing ? "Complete case" : closing ? "Close case" : `Move to ${to}`}
      confirmDisabled={note.trim().length < 3 || !priceOk}
      onOpenChange={(open) => {
        if (!open) {
          setNote("");
          setPrice("");
        }
      }}
      onConfirm={async () => {
        await advance.mutateAsync({ id: view.case.id, to, note: note.trim(), finalPriceCents: cents });
        toast({ title: `Case moved to ${to}`, tone: "success" });
        await refresh();
      }}
    >
      <div className="space-y-3">
        {completing ? (
          <div className="space-y-1.5">
            <Label htmlFor={`price-${to}`}>Final price ({view.case.currency})</Label>
            <Input id={`price-${to}`} inputMode="decimal" value={price} onChange={(event) => setPrice(event.target.value)} />
          </div>
        ) : null}
        <div className="space-y-1.5">
          <Label htmlFor={`note-${to}`}>Note for the buyer (required)</Label>
          <Textarea id={`note-${to}`} rows={3} value={note} onChange={(event) => setNote(event.target.value)} className="font-sans text-sm" />
        </div>
      </div>
    </ConfirmDialog>
  );
}

function NoteForm({ id }: { id: string }) {
  const trpc = useTRPC();
  const refresh = useRefresh();
  const { toast } = useToast();
  const [note, setNote] = useState("");
  const add = useMutation(
    trpc.admin.brokerage.note.mutationOptions({
      onSuccess: async () => {
        setNote("");
        toast({ title: "Note added", description: "It shows on the buyer's progress page.", tone: "success" });
        await refresh();
      },
    }),
  );
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ id, note: note.trim() });
  };
  return (
    <form onSubmit={onSubmit} className="mt-5 space-y-2 border-t border-line pt-4" aria-label="Note for the buyer">
      {add.error ? <Alert tone="danger">{add.error.message}</Alert> : null}
      <Label htmlFor="buyer-note">Note for the buyer, without a move</Label>
      <Textarea id="buyer-note" rows={2} value={note} onChange={(event) => setNote(event.target.value)} className="font-sans text-sm" />
      <Button type="submit" variant="secondary" disabled={add.isPending || note.trim().length < 3}>
        {add.isPending ? "Adding…" : "Add note"}
      </Button>
    </form>
  );
}
