"use client";

import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState, type FormEvent } from "react";
import { useTRPC } from "@/app/providers";
import { useUrlState } from "@/components/dashboard/use-url-state";
import {
  Badge,
  Button,
  buttonClasses,
  Checkbox,
  CopyButton,
  EmptyState,
  ErrorState,
  Input,
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
import { cn } from "@/components/ui/cn";
import type { Environment } from "@/db/schema";
import { RequestDetail } from "./request-detail";
import { ERROR_CODES, formatLatency, STATUS_FILTERS, STATUS_PATTERN, statusTone } from "./request-format";

// The request log: every signed partner request of the environment, newest
// first, filtered from the URL, refreshed every few seconds so a call just made
// shows up. ?request=<id> opens one request with the sandbox signature debugger.

const FILTER_KEYS = ["status", "code", "key", "path", "from", "to", "request"] as const;
const PAGE_SIZE = 25;
const REFRESH_MS = 5_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const API_BASE = "/api/partner/v1";

/** The list shows paths without the API base, so a typed "/orders" means /api/partner/v1/orders. */
function pathPrefix(value: string): string | undefined {
  if (!value) return undefined;
  return value.startsWith("/api/") ? value : `${API_BASE}${value.startsWith("/") ? "" : "/"}${value}`;
}

type Filters = Record<(typeof FILTER_KEYS)[number], string>;

/** A yyyy-mm-dd from the URL as the first or last instant of that UTC day. */
function dayBound(value: string, end: boolean): string | undefined {
  if (!DAY.test(value)) return undefined;
  const date = new Date(`${value}T${end ? "23:59:59.999" : "00:00:00.000"}Z`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

export function RequestLog({ environment }: { environment: Environment }) {
  const trpc = useTRPC();
  const [filters, setFilters] = useUrlState(FILTER_KEYS);
  const [autoRefresh, setAutoRefresh] = useState(true);

  const input = useMemo(
    () => ({
      status: STATUS_PATTERN.test(filters.status) ? filters.status : undefined,
      errorCode: filters.code || undefined,
      keyId: filters.key || undefined,
      path: pathPrefix(filters.path),
      from: dayBound(filters.from, false),
      to: dayBound(filters.to, true),
      limit: PAGE_SIZE,
    }),
    [filters.status, filters.code, filters.key, filters.path, filters.from, filters.to],
  );
  const list = useInfiniteQuery(
    trpc.requests.list.infiniteQueryOptions(input, {
      getNextPageParam: (page) => page.nextCursor ?? undefined,
      refetchInterval: autoRefresh ? REFRESH_MS : false,
    }),
  );
  const keys = useQuery(trpc.keys.list.queryOptions({ includeRevoked: true }));

  const requests = useMemo(() => list.data?.pages.flatMap((page) => page.requests) ?? [], [list.data]);
  const filtered = Boolean(input.status || input.errorCode || input.keyId || input.path || input.from || input.to);
  const selectedId = /^\d+$/.test(filters.request) ? Number(filters.request) : null;
  const select = (id: number | null) => setFilters({ request: id === null ? null : String(id) });

  return (
    <div className="space-y-6">
      <PageHeader
        title="Request log"
        description={
          <>
            Every signed API request in <strong className="font-medium text-ink">{environment}</strong>, kept 30 days.
            {environment === "sandbox" ? " Open a refused request to see what the signature debugger found." : null}
          </>
        }
      />

      <RequestFilters
        filters={filters}
        setFilters={setFilters}
        keys={keys.data?.map((key) => ({ keyId: key.keyId, name: key.name, revoked: key.status === "revoked" })) ?? []}
        autoRefresh={autoRefresh}
        onAutoRefreshChange={setAutoRefresh}
        filtered={filtered}
      />

      {list.isPending ? (
        <LoadingRows label="Loading requests…" rows={6} />
      ) : list.isError ? (
        <ErrorState title="We couldn't load the request log" error={list.error} onRetry={() => list.refetch()} />
      ) : requests.length === 0 ? (
        filtered ? (
          <EmptyState
            title="No requests match these filters"
            description="Widen the date range or clear the filters to see every request."
            action={
              <Button variant="secondary" onClick={() => setFilters({ status: null, code: null, key: null, path: null, from: null, to: null })}>
                Clear filters
              </Button>
            }
          />
        ) : (
          <EmptyState
            title="No requests yet"
            description={`Make a signed call with one of your ${environment} keys and it appears here within a few seconds.`}
            action={
              <Link href="/dashboard/keys" className={buttonClasses({ variant: "secondary" })}>
                Go to API keys
              </Link>
            }
          />
        )
      ) : (
        <div className="space-y-4">
          <RequestTable requests={requests} selectedId={selectedId} onSelect={select} />
          <RequestCards requests={requests} selectedId={selectedId} onSelect={select} />
          <div className="flex flex-col items-center gap-2 sm:flex-row sm:justify-between">
            <p className="text-xs text-faint" aria-live="polite">
              {requests.length === 1 ? "1 request" : `${requests.length} requests`}, newest first
              {autoRefresh ? "; new calls appear automatically" : null}
            </p>
            {list.hasNextPage ? (
              <Button variant="secondary" onClick={() => list.fetchNextPage()} disabled={list.isFetchingNextPage}>
                {list.isFetchingNextPage ? "Loading…" : "Load more"}
              </Button>
            ) : null}
          </div>
        </div>
      )}

      <RequestDetail id={selectedId} environment={environment} onClose={() => select(null)} />
    </div>
  );
}

interface KeyOption {
  keyId: string;
  name: string | null;
  revoked: boolean;
}

function RequestFilters({
  filters,
  setFilters,
  keys,
  autoRefresh,
  onAutoRefreshChange,
  filtered,
}: {
  filters: Filters;
  setFilters: (changes: Partial<Record<keyof Filters, string | null>>) => void;
  keys: KeyOption[];
  autoRefresh: boolean;
  onAutoRefreshChange: (value: boolean) => void;
  filtered: boolean;
}) {
  // The path is typed, so it reaches the URL on Enter or when the field loses focus;
  // a change of the URL from elsewhere (clear, back) resets the field.
  const [path, setPath] = useState(filters.path);
  const [urlPath, setUrlPath] = useState(filters.path);
  if (urlPath !== filters.path) {
    setUrlPath(filters.path);
    setPath(filters.path);
  }
  const applyPath = () => {
    const value = path.trim();
    if (value !== filters.path) setFilters({ path: value });
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    applyPath();
  };

  const statusOptions = STATUS_FILTERS.some((option) => option.value === filters.status)
    ? STATUS_FILTERS
    : [...STATUS_FILTERS, { value: filters.status, label: filters.status }];
  const keyOptions = keys.some((key) => key.keyId === filters.key) || !filters.key ? keys : [...keys, { keyId: filters.key, name: null, revoked: false }];

  return (
    <form onSubmit={onSubmit} className="rounded-xl border border-line bg-surface p-4 shadow-card" aria-label="Filter requests" role="search">
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-6">
        <div className="space-y-1.5">
          <Label htmlFor="filter-status">Status</Label>
          <Select id="filter-status" value={filters.status} onChange={(event) => setFilters({ status: event.target.value })}>
            {statusOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-code">Error code</Label>
          <Select id="filter-code" value={filters.code} onChange={(event) => setFilters({ code: event.target.value })}>
            <option value="">Any</option>
            {ERROR_CODES.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
            {filters.code && !(ERROR_CODES as readonly string[]).includes(filters.code) ? <option value={filters.code}>{filters.code}</option> : null}
          </Select>
        </div>
        <div className="col-span-2 space-y-1.5 lg:col-span-1">
          <Label htmlFor="filter-key">Key</Label>
          <Select id="filter-key" value={filters.key} onChange={(event) => setFilters({ key: event.target.value })}>
            <option value="">All keys</option>
            {keyOptions.map((key) => (
              <option key={key.keyId} value={key.keyId}>
                {key.name ? `${key.name} (${key.keyId})` : key.keyId}
                {key.revoked ? " (revoked)" : ""}
              </option>
            ))}
          </Select>
        </div>
        <div className="col-span-2 space-y-1.5 lg:col-span-1">
          <Label htmlFor="filter-path">Path prefix</Label>
          <Input
            id="filter-path"
            value={path}
            onChange={(event) => setPath(event.target.value)}
            onBlur={applyPath}
            placeholder="/orders"
            spellCheck={false}
            autoComplete="off"
            className="font-mono"
          />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-from">From (UTC)</Label>
          <Input id="filter-from" type="date" value={filters.from} max={filters.to || undefined} onChange={(event) => setFilters({ from: event.target.value })} />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="filter-to">To (UTC)</Label>
          <Input id="filter-to" type="date" value={filters.to} min={filters.from || undefined} onChange={(event) => setFilters({ to: event.target.value })} />
        </div>
      </div>
      <div className="mt-4 flex flex-wrap items-center justify-between gap-3">
        <Checkbox
          id="auto-refresh"
          checked={autoRefresh}
          onCheckedChange={onAutoRefreshChange}
          label="Auto-refresh"
          description="Check for new requests every 5 seconds"
        />
        <div className="flex gap-2">
          {/* Enter in the path field applies it; the button is there for touch and for clarity. */}
          <Button type="submit" variant="secondary" size="sm">
            Apply path
          </Button>
          {filtered ? (
            <Button
              variant="ghost"
              size="sm"
              onClick={() => {
                setPath("");
                setFilters({ status: null, code: null, key: null, path: null, from: null, to: null });
              }}
            >
              Clear filters
            </Button>
          ) : null}
        </div>
      </div>
    </form>
  );
}

type RequestRow = {
  id: number;
  requestId: string;
  keyId: string;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  latencyMs: number;
  clientIp: string | null;
  hasDebug: boolean;
  createdAt: string;
};

interface ListProps {
  requests: RequestRow[];
  selectedId: number | null;
  onSelect: (id: number) => void;
}

export function StatusBadge({ status }: { status: number }) {
  return (
    <Badge tone={statusTone(status)} className="font-mono tabular-nums" data-testid="status-badge">
      {status}
    </Badge>
  );
}

/** Method and path; the button is the row's keyboard target. */
function RequestButton({ request, onSelect }: { request: RequestRow; onSelect: (id: number) => void }) {
  return (
    <button
      type="button"
      onClick={() => onSelect(request.id)}
      title={`${request.method} ${request.path}`}
      className="flex max-w-full min-w-0 items-baseline gap-2 rounded-sm text-left font-mono text-[0.8125rem] hover:underline"
    >
      <span className="shrink-0 font-semibold text-ink">{request.method}</span>{" "}
      {/* Every path starts with the API's base: shown without it, read in full (and in full in the detail). */}
      <span className="sr-only">{request.path}</span>
      <span className="truncate text-muted" aria-hidden="true">
        {request.path.startsWith(API_BASE) ? request.path.slice(API_BASE.length) || "/" : request.path}
      </span>
    </button>
  );
}

function RequestTable({ requests, selectedId, onSelect }: ListProps) {
  return (
    <div className="overflow-hidden rounded-xl border border-line bg-surface shadow-card max-lg:hidden">
      <Table className="table-fixed">
        <THead>
          <tr>
            <TH className="w-24">Time</TH>
            <TH>
              Request <span className="font-normal tracking-normal text-faint normal-case">under {API_BASE}</span>
            </TH>
            <TH className="w-20">Status</TH>
            <TH className="w-40">Error</TH>
            <TH className="w-44 max-xl:hidden">Key and client IP</TH>
            <TH className="w-24 text-right">Latency</TH>
            <TH className="w-64">Request ID</TH>
          </tr>
        </THead>
        <TBody>
          {requests.map((request) => (
            <TR
              key={request.id}
              data-testid="request-row"
              data-request-id={request.requestId}
              aria-current={request.id === selectedId ? "true" : undefined}
              onClick={rowClick(request.id, onSelect)}
              className={cn("cursor-pointer", request.id === selectedId && "bg-brand-soft/40")}
            >
              <TD className="text-muted whitespace-nowrap">
                <RelativeTime value={request.createdAt} />
              </TD>
              <TD className="min-w-0">
                <RequestButton request={request} onSelect={onSelect} />
              </TD>
              <TD>
                <StatusBadge status={request.status} />
              </TD>
              <TD className="truncate font-mono text-xs text-muted" title={request.errorCode ?? undefined}>
                {request.errorCode ?? <span className="text-faint">—</span>}
              </TD>
              <TD className="font-mono text-xs text-muted max-xl:hidden">
                <span className="block truncate" title={request.keyId}>
                  {request.keyId}
                </span>
                <span className="block truncate text-faint" title={request.clientIp ?? undefined}>
                  {request.clientIp ?? "no client IP"}
                </span>
              </TD>
              <TD className="text-right text-muted tabular-nums whitespace-nowrap">{formatLatency(request.latencyMs)}</TD>
              <TD className="py-1.5">
                <span className="flex min-w-0 items-center gap-1">
                  <span className="truncate font-mono text-xs text-muted" title={request.requestId}>
                    {request.requestId}
                  </span>
                  <CopyButton value={request.requestId} label={`Copy request id ${request.requestId}`} />
                </span>
              </TD>
            </TR>
          ))}
        </TBody>
      </Table>
    </div>
  );
}

/** Phones: one card per request instead of a table. */
function RequestCards({ requests, selectedId, onSelect }: ListProps) {
  return (
    <ul className="space-y-2 lg:hidden">
      {requests.map((request) => (
        <RowCard key={request.id} rowId={request.id} onOpen={onSelect} selected={request.id === selectedId} data-testid="request-card">
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0 flex-1">
              <RequestButton request={request} onSelect={onSelect} />
            </div>
            <StatusBadge status={request.status} />
          </div>
          <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted">
            <RelativeTime value={request.createdAt} />
            <span className="tabular-nums">{formatLatency(request.latencyMs)}</span>
            {request.errorCode ? <span className="font-mono">{request.errorCode}</span> : null}
            {request.clientIp ? <span className="font-mono">{request.clientIp}</span> : null}
          </div>
          <p className="mt-1 truncate font-mono text-xs text-muted" title={request.keyId}>
            {request.keyId}
          </p>
          <div className="mt-1 flex min-w-0 items-center gap-1 text-xs text-faint">
            <span className="truncate font-mono" title={request.requestId}>
              {request.requestId}
            </span>
            <CopyButton value={request.requestId} label={`Copy request id ${request.requestId}`} />
          </div>
        </RowCard>
      ))}
    </ul>
  );
}
