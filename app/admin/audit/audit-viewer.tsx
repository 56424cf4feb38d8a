"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import { useMemo, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import { Badge, Button, Code, EmptyState, ErrorState, Input, Label, LoadingRows, PageHeader, RelativeTime, Select } from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";

// Every audited change, newest first, filtered from the URL. An entry that
// recorded a change shows it as before -> after; anything else as its data.

type Entry = inferRouterOutputs<AppRouter>["admin"]["audit"]["entries"][number];

const KEYS = ["action", "actorType", "actorId", "targetType", "targetId", "partnerId", "from", "to"] as const;
const TEXT_FIELDS = [
  { key: "action", label: "Action", placeholder: "order or order.cancel" },
  { key: "actorId", label: "Actor id", placeholder: "usr_…" },
  { key: "targetType", label: "Entity type", placeholder: "order, partner, credential…" },
  { key: "targetId", label: "Entity id", placeholder: "ord_…, ptn_…" },
  { key: "partnerId", label: "Partner id", placeholder: "ptn_…" },
] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const actorTypes = ["admin", "partner", "cli", "system"] as const;

const dayStart = (value: string, plusDays = 0) =>
  DAY.test(value) ? new Date(Date.parse(`${value}T00:00:00.000Z`) + plusDays * 86_400_000).toISOString() : undefined;

export function AuditViewer() {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(KEYS);
  const [draft, setDraft] = useState(filters);
  const input = useMemo(
    () => ({
      action: filters.action || undefined,
      actorType: (actorTypes as readonly string[]).includes(filters.actorType) ? (filters.actorType as (typeof actorTypes)[number]) : undefined,
      actorId: filters.actorId || undefined,
      targetType: filters.targetType || undefined,
      targetId: filters.targetId || undefined,
      partnerId: filters.partnerId || undefined,
      from: dayStart(filters.from),
      to: dayStart(filters.to, 1),
      limit: 50,
    }),
    [filters.action, filters.actorType, filters.actorId, filters.targetType, filters.targetId, filters.partnerId, filters.from, filters.to],
  );
  const list = useInfiniteQuery(trpc.admin.audit.infiniteQueryOptions(input, { getNextPageParam: (page) => page.nextCursor ?? undefined }));
  const entries = list.data?.pages.flatMap((page) => page.entries) ?? [];
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setFilters(Object.fromEntries(KEYS.map((key) => [key, draft[key].trim()])) as Record<(typeof KEYS)[number], string>);
  };
  const clear = () => {
    const empty = Object.fromEntries(KEYS.map((key) => [key, ""])) as Record<(typeof KEYS)[number], string>;
    setDraft(empty);
    setFilters(empty);
  };

  return (
    <div className="space-y-6">
      <PageHeader title="Audit log" description="Every change by staff, partners, the CLI and the system, in the transaction that made it. Dates are UTC." />
      <form onSubmit={apply} className="grid gap-3 rounded-xl border border-line bg-surface p-4 sm:grid-cols-2 lg:grid-cols-4" aria-label="Filter the audit log">
        {TEXT_FIELDS.map((field) => (
          <div key={field.key} className="space-y-1.5">
            <Label htmlFor={`audit-${field.key}`}>{field.label}</Label>
            <Input
              id={`audit-${field.key}`}
              value={draft[field.key]}
              placeholder={field.placeholder}
              onChange={(event) => setDraft({ ...draft, [field.key]: event.target.value })}
            />
          </div>
        ))}
        <div className="space-y-1.5">
          <Label htmlFor="audit-actorType">Actor type</Label>
          <Select id="audit-actorType" value={draft.actorType} onChange={(event) => setDraft({ ...draft, actorType: event.target.value })}>
            <option value="">Any</option>
            {actorTypes.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="audit-from">From (UTC)</Label>
          <Input id="audit-from" type="date" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="audit-to">To (UTC, inclusive)</Label>
          <Input id="audit-to" type="date" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </div>
        <div className="flex items-end gap-2">
          <Button type="submit">Apply</Button>
          <Button variant="ghost" onClick={clear}>
            Clear
          </Button>
        </div>
      </form>
      {list.isPending ? (
        <LoadingRows label="Loading the audit log…" rows={8} />
      ) : list.isError ? (
        <ErrorState title="We couldn't load the audit log" error={list.error} onRetry={() => list.refetch()} />
      ) : entries.length === 0 ? (
        <EmptyState title="No entries match" description="Change or clear the filters." />
      ) : (
        <>
          <ol className="divide-y divide-line rounded-xl border border-line bg-surface" aria-label="Audit entries">
            {entries.map((entry) => (
              <AuditRow key={entry.id} entry={entry} />
            ))}
          </ol>
          {list.hasNextPage ? (
            <Button variant="secondary" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? "Loading…" : "Show older entries"}
            </Button>
          ) : null}
        </>
      )}
    </div>
  );
}

/** before/after, from/to: the change an entry recorded, when it recorded one. */
function changeOf(data: Record<string, unknown>): { before: unknown; after: unknown; rest: Record<string, unknown> } | null {
  for (const [b, a] of [
    ["before", "after"],
    ["from", "to"],
  ] as const) {
    if (b in data && a in data) {
      const { [b]: before, [a]: after, ...rest } = data;
      return { before, after, rest };
    }
  }
  return null;
}

const show = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function AuditRow({ entry }: { entry: Entry }) {
  const data = (entry.data ?? {}) as Record<string, unknown>;
  const change = changeOf(data);
  const rest = change ? change.rest : data;
  return (
    <li className="space-y-2 px-4 py-3 text-sm" data-testid="audit-entry" data-action={entry.action}>
      <div className="flex flex-wrap items-center gap-2">
        <Code>{entry.action}</Code>
        {entry.environment ? <Badge>{entry.environment}</Badge> : null}
        <span className="text-muted">by</span>
        <span className="break-all text-ink">{entry.actor}</span>
        <span className="ml-auto text-xs text-muted">
          <RelativeTime value={entry.createdAt} />
        </span>
      </div>
      <div className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-muted">
        {entry.targetType ? (
          <span>
            {entry.targetType} <span className="font-mono break-all">{entry.targetId}</span>
          </span>
        ) : null}
        {entry.partnerId ? (
          <span>
            partner <span className="font-mono break-all">{entry.partnerId}</span>
          </span>
        ) : null}
      </div>
      {change ? (
        <p className="text-xs" data-testid="audit-change">
          <span className="rounded bg-danger-soft px-1.5 py-0.5 font-mono text-danger-ink">{show(change.before)}</span>
          <span aria-hidden="true"> → </span>
          <span className="sr-only"> changed to </span>
          <span className="rounded bg-success-soft px-1.5 py-0.5 font-mono text-success-ink">{show(change.after)}</span>
        </p>
      ) : null}
      {Object.keys(rest).length > 0 ? (
        <pre className="overflow-x-auto rounded-md bg-subtle px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap text-muted">{JSON.stringify(rest, null, 2)}</pre>
      ) : null}
    </li>
  );
}
