"use client";

import { useQuery } from "@tanstack/react-query";
import type { inferRouterOutputs } from "@trpc/server";
import Link from "next/link";
import { useEffect, useState } from "react";
import { useTRPC } from "@/app/providers";
import {
  Badge,
  Button,
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
  ErrorState,
  LoadingRows,
  PageHeader,
  RelativeTime,
  Stat,
  Table,
  TBody,
  TD,
  TH,
  THead,
  TR,
} from "@/components/ui";
import type { AppRouter } from "@/server/trpc/routers/_app";
import { formatBytes, formatCount, formatDuration, formatPercent } from "./format";

// Operational health for staff, refetched every 30 s: the webhook queue and
// its lag, failing endpoints (24 h), what the workers hold, the last settlement
// run and the database's size. One procedure, one service call.

type Health = inferRouterOutputs<AppRouter>["admin"]["health"]["get"];

const REFRESH_MS = 30_000;

/** "updated 12 s ago", ticking each second; not a live region, so screen readers are not told every second. */
function UpdatedAgo({ at, fetching }: { at: number; fetching: boolean }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  return (
    <span className="text-sm text-muted tabular-nums" data-testid="health-updated">
      {fetching ? "Updating…" : `Updated ${seconds} s ago`}
    </span>
  );
}

export function HealthView() {
  const trpc = useTRPC();
  const health = useQuery(trpc.admin.health.get.queryOptions(undefined, { refetchInterval: REFRESH_MS }));
  return (
    <div className="space-y-6">
      <PageHeader
        title="Health"
        description="Webhook delivery, workers, settlement and the database. Refreshes every 30 seconds."
        actions={
          health.data ? (
            <div className="flex items-center gap-3">
              <UpdatedAgo at={health.dataUpdatedAt} fetching={health.isFetching} />
              <Button variant="secondary" size="sm" onClick={() => void health.refetch()} disabled={health.isFetching}>
                Refresh
              </Button>
            </div>
          ) : null
        }
      />
      {health.isPending ? (
        <LoadingRows label="Loading health figures…" rows={6} />
      ) : health.isError && !health.data ? (
        <ErrorState title="We couldn't load the health figures" error={health.error} onRetry={() => health.refetch()} />
      ) : (
        <Figures health={health.data} stale={health.isError} />
      )}
    </div>
  );
}

function Figures({ health, stale }: { health: Health; stale: boolean }) {
  const { queue, failures, worker, settlement, database } = health;
  const lastRun = settlement.lastRun;
  return (
    <>
      {stale ? <p className="text-sm text-warning-ink">The last refresh failed; these figures are from the one before.</p> : null}
      <dl className="grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-5">
        <Stat testId="stat-queue-depth" className="max-sm:p-3" label="Webhooks pending" value={formatCount(queue.pending)} hint={`${formatCount(queue.due)} due · ${formatCount(queue.inFlight)} being delivered`} />
        <Stat
          testId="stat-queue-lag"
          className="max-sm:p-3"
          label="Queue lag"
          value={formatDuration(queue.lagSeconds)}
          hint={queue.oldestDueAt ? "the most overdue delivery's wait" : "nothing is waiting"}
        />
        <Stat
          testId="stat-failure-rate"
          className="max-sm:p-3"
          label="Failed attempts, 24 h"
          value={formatPercent(failures.rate)}
          hint={`${formatCount(failures.failed)} of ${formatCount(failures.attempts)} attempts`}
        />
        <Stat
          testId="stat-database"
          className="max-sm:p-3"
          label="Database size"
          value={formatBytes(database.bytes)}
          hint={database.largestTables[0] ? `largest: ${database.largestTables[0].name}` : undefined}
        />
        <Stat
          testId="stat-settlement"
          className="max-sm:col-span-2 max-sm:p-3"
          label="Last settlement run"
          value={lastRun ? <RelativeTime value={lastRun.at} /> : "Never"}
          hint={lastRun ? `${lastRun.statements ?? "?"} ${lastRun.statements === 1 ? "statement" : "statements"} · ${lastRun.actor}` : `${formatCount(settlement.statementsTotal)} statements in all`}
        />
      </dl>
      <Card>
        <CardHeader>
          <CardTitle>Failing endpoints, last 24 hours</CardTitle>
          <CardDescription>Endpoints by failed delivery attempts (anything but a 2xx answer, or no answer).</CardDescription>
        </CardHeader>
        <CardContent>
          {failures.topFailing.length === 0 ? (
            <p className="text-sm text-muted">No failed attempts in the last 24 hours.</p>
          ) : (
            <Table aria-label="Failing endpoints">
              <THead>
                <tr>
                  <TH>Partner</TH>
                  <TH>Endpoint</TH>
                  <TH className="text-right">Failed</TH>
                  <TH className="text-right">Rate</TH>
                  <TH>Last failure</TH>
                </tr>
              </THead>
              <TBody>
                {failures.topFailing.map((e) => (
                  <TR key={e.endpointId} data-testid="failing-endpoint" data-endpoint-id={e.endpointId}>
                    <TD>
                      <Link href={`/admin/partners/${e.partnerId}`} className="font-medium text-ink hover:text-brand">
                        {e.partnerName}
                      </Link>
                      <div className="text-xs text-muted">{e.environment}</div>
                    </TD>
                    <TD className="max-w-72">
                      <span className="block truncate font-mono text-xs" title={e.url}>
                        {e.url}
                      </span>
                      {e.active ? null : <Badge tone="warning">{e.disabledReason === "failing" ? "Disabled: failing" : "Turned off"}</Badge>}
                    </TD>
                    <TD className="text-right tabular-nums">
                      {formatCount(e.failed)} / {formatCount(e.attempts)}
                    </TD>
                    <TD className="text-right tabular-nums">{formatPercent(e.rate)}</TD>
                    <TD className="whitespace-nowrap">
                      <RelativeTime value={e.lastFailureAt} />
                    </TD>
                  </TR>
                ))}
              </TBody>
            </Table>
          )}
        </CardContent>
      </Card>
      <div className="grid items-start gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Workers</CardTitle>
            <CardDescription>
              Last delivery attempt by any worker: {worker.lastAttemptAt ? <RelativeTime value={worker.lastAttemptAt} /> : "never"}.
            </CardDescription>
          </CardHeader>
          <CardContent className="space-y-5">
            <div className="space-y-2">
              <h3 className="text-sm font-medium text-ink">Delivery leases</h3>
              {worker.endpoints.length === 0 ? (
                <p className="text-sm text-muted">No endpoint is leased: no delivery is in flight.</p>
              ) : (
                <ul className="space-y-2 text-sm" aria-label="Delivery leases">
                  {worker.endpoints.map((lease) => (
                    <li key={lease.endpointId} className="flex flex-wrap items-center justify-between gap-2" data-testid="delivery-lease">
                      <span className="min-w-0">
                        <Link href={`/admin/partners/${lease.partnerId}`} className="text-ink hover:text-brand">
                          {lease.partnerName}
                        </Link>{" "}
                        <span className="text-xs text-muted">
                          {lease.environment} · {lease.deliveries} {lease.deliveries === 1 ? "delivery" : "deliveries"} · since <RelativeTime value={lease.claimedAt} />
                        </span>
                      </span>
                      {lease.expired ? (
                        <Badge tone="danger">Expired: worker gone</Badge>
                      ) : (
                        <span className="text-xs text-muted">
                          expires <RelativeTime value={lease.expiresAt} />
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </div>
            <div className="space-y-2">
              <h3 className="text-sm font-medium text-ink">Locks held</h3>
              {worker.locks.length === 0 ? (
                <p className="text-sm text-muted">No chore or run holds a lock right now.</p>
              ) : (
                <ul className="space-y-2 text-sm" aria-label="Locks held">
                  {worker.locks.map((lock, index) => (
                    <li key={`${lock.key}-${lock.pid}-${index}`} className="flex flex-wrap items-center justify-between gap-2" data-testid="advisory-lock">
                      <span className="min-w-0">
                        <span className="font-medium text-ink">{lock.name}</span>{" "}
                        <span className="text-xs break-all text-muted">
                          pid {lock.pid ?? "?"}
                          {lock.holder ? ` · ${lock.holder}` : ""} · since <RelativeTime value={lock.since} />
                        </span>
                      </span>
                      <Badge tone={lock.granted ? "info" : "warning"}>{lock.granted ? "Held until released" : "Waiting"}</Badge>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Settlement</CardTitle>
            <CardDescription>
              <Link href="/admin/audit?action=settlement.run" className="text-brand hover:text-brand-hover">
                Every run in the audit log
              </Link>
            </CardDescription>
          </CardHeader>
          <CardContent>
            <dl className="grid grid-cols-2 gap-3 text-sm">
              <div>
                <dt className="text-xs text-faint">Last run</dt>
                <dd>{lastRun ? <RelativeTime value={lastRun.at} /> : "No run recorded"}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Statements it closed</dt>
                <dd className="tabular-nums">{lastRun?.statements ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Run by</dt>
                <dd className="break-all">{lastRun?.actor ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Periods ended before</dt>
                <dd>{lastRun?.asOf?.slice(0, 10) ?? "—"}</dd>
              </div>
              <div className="col-span-2">
                <dt className="text-xs text-faint">Reason</dt>
                <dd>{lastRun?.reason ?? "—"}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Statements in all</dt>
                <dd className="tabular-nums">{formatCount(settlement.statementsTotal)}</dd>
              </div>
              <div>
                <dt className="text-xs text-faint">Newest statement</dt>
                <dd>
                  <RelativeTime value={settlement.lastStatementAt} fallback="none" />
                </dd>
              </div>
            </dl>
          </CardContent>
        </Card>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Database</CardTitle>
          <CardDescription>{formatBytes(database.bytes)} in all; the largest tables with their indexes, rows estimated.</CardDescription>
        </CardHeader>
        <CardContent>
          <Table aria-label="Largest tables">
            <THead>
              <tr>
                <TH>Table</TH>
                <TH className="text-right">Size</TH>
                <TH className="text-right">Rows</TH>
              </tr>
            </THead>
            <TBody>
              {database.largestTables.map((table) => (
                <TR key={table.name} data-testid="largest-table">
                  <TD className="font-mono text-xs">{table.name}</TD>
                  <TD className="text-right whitespace-nowrap tabular-nums">{formatBytes(table.bytes)}</TD>
                  <TD className="text-right tabular-nums">{table.rowsEstimate === null ? "—" : formatCount(table.rowsEstimate)}</TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </CardContent>
      </Card>
    </>
  );
}
