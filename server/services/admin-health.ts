import { sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import { advisoryLocks } from "@/db/locks";
import { clock } from "@/server/clock";

// The health page's figures in one call: the webhook queue, failing endpoints,
// who holds the worker's leases and locks, the last settlement run and the
// database's size. One query per group, all sent at once (each on its own pool
// connection), so the page costs one round trip of the slowest query.
//
// Times leave the database as epoch milliseconds (float8): raw timestamptz text
// from db.execute is not ISO and not worth parsing by hand.

const DAY_MS = 86_400_000;
/** Endpoints listed under "top failing". */
const TOP_FAILING = 10;
/** Tables listed under "largest tables". */
const TOP_TABLES = 8;

const ms = (expression: SQL) => sql`(extract(epoch from ${expression}) * 1000)::float8`;
const iso = (value: number | null | undefined) => (value == null ? null : new Date(value).toISOString());
/** Deliveries the worker has yet to finish: waiting, or claimed (`delivering`: next_attempt_at is the lease's end). */
const unfinished = sql`status in ('pending', 'delivering')`;

/** A lock id of db/locks.ts by name; pg_locks shows a one-key lock as (classid, objid, objsubid 1) and a two-key lock as (key1, key2, objsubid 2). */
const lockNames = new Map<number, string>(Object.entries(advisoryLocks).map(([name, id]) => [id, name]));

/** The webhook queue as /admin/health and the metrics scrape (server/observability) show it. */
export async function queueFigures(db: Db, now: Date) {
  const at = sql`${now.toISOString()}::timestamptz`;
  const [row] = await db.execute<{ pending: number; in_flight: number; due: number; oldest_due_ms: number | null; oldest_created_ms: number | null }>(sql`
    select count(*) filter (where status = 'pending')::int as pending,
           count(*) filter (where status = 'delivering' and next_attempt_at > ${at})::int as in_flight,
           -- due: a pending row whose time has come, or a claim whose lease ran out (its worker died)
           count(*) filter (where next_attempt_at <= ${at})::int as due,
           ${ms(sql`min(next_attempt_at) filter (where next_attempt_at <= ${at})`)} as oldest_due_ms,
           ${ms(sql`min(created_at)`)} as oldest_created_ms
    from webhook_deliveries where ${unfinished}`);
  const oldestDue = row?.oldest_due_ms ?? null;
  return {
    pending: row?.pending ?? 0,
    inFlight: row?.in_flight ?? 0,
    due: row?.due ?? 0,
    /** How long the most overdue delivery has been waiting for a worker; 0 when nothing is due. */
    lagSeconds: oldestDue === null ? 0 : Math.max(0, Math.round((now.getTime() - oldestDue) / 1000)),
    oldestDueAt: iso(oldestDue),
    oldestUnfinishedAt: iso(row?.oldest_created_ms),
  };
}

async function failureFigures(db: Db, now: Date) {
  const since = new Date(now.getTime() - DAY_MS).toISOString();
  // An attempt failed unless the endpoint answered 2xx (as the worker decides).
  const rows = await db.execute<{
    endpoint_id: string;
    partner_id: string;
    partner_name: string;
    environment: "sandbox" | "live";
    url: string;
    active: boolean;
    disabled_reason: string | null;
    attempts: number;
    failed: number;
    last_failure_ms: number | null;
    total_attempts: number;
    total_failed: number;
  }>(sql`
    with per as (
      select d.endpoint_id, count(*)::int as attempts,
             count(*) filter (where a.response_status is null or a.response_status not between 200 and 299)::int as failed,
             max(a.attempted_at) filter (where a.response_status is null or a.response_status not between 200 and 299) as last_failure
      from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
      where a.attempted_at >= ${since}::timestamptz and a.attempted_at <= ${now.toISOString()}::timestamptz
      group by d.endpoint_id)
    select per.endpoint_id, w.partner_id, p.name as partner_name, w.environment, w.url, w.active, w.disabled_reason,
           per.attempts, per.failed, ${ms(sql`per.last_failure`)} as last_failure_ms,
           (sum(per.attempts) over ())::int as total_attempts, (sum(per.failed) over ())::int as total_failed
    from per join webhook_endpoints w on w.id = per.endpoint_id join partners p on p.id = w.partner_id
    order by per.failed desc, per.failed::float8 / per.attempts desc, per.endpoint_id
    limit ${TOP_FAILING}`);
  const totalAttempts = rows[0]?.total_attempts ?? 0;
  const totalFailed = rows[0]?.total_failed ?? 0;
  return {
    since,
    attempts: totalAttempts,
    failed: totalFailed,
    /** Failed attempts over all attempts in the window, 0..1; null without attempts. */
    rate: totalAttempts ? totalFailed / totalAttempts : null,
    topFailing: rows
      .filter((r) => r.failed > 0)
      .map((r) => ({
        endpointId: r.endpoint_id,
        partnerId: r.partner_id,
        partnerName: r.partner_name,
        environment: r.environment,
        url: r.url,
        active: r.active,
        disabledReason: r.disabled_reason,
        attempts: r.attempts,
        failed: r.failed,
        rate: r.failed / r.attempts,
        lastFailureAt: iso(r.last_failure_ms),
      })),
  };
}

async function lockFigures(db: Db) {
  // Session and transaction advisory locks of this database, with the backend holding (or waiting for) each.
  const rows = await db.execute<{
    classid: number;
    objid: number;
    objsubid: number;
    granted: boolean;
    pid: number | null;
    application_name: string | null;
    client_addr: string | null;
    since_ms: number | null;
    backend_start_ms: number | null;
    state: string | null;
  }>(sql`
    select l.classid::bigint::float8 as classid, l.objid::bigint::float8 as objid, l.objsubid::int as objsubid, l.granted,
           a.pid, a.application_name, host(a.client_addr) as client_addr, a.state,
           ${ms(sql`coalesce(l.waitstart, a.xact_start, a.query_start)`)} as since_ms,
           ${ms(sql`a.backend_start`)} as backend_start_ms
    from pg_locks l left join pg_stat_activity a on a.pid = l.pid
    where l.locktype = 'advisory' and l.database = (select oid from pg_database where datname = current_database())
    order by l.granted desc, since_ms`);
  return rows.map((r) => {
    const key = r.objsubid === 2 ? r.classid : r.classid * 2 ** 32 + r.objid;
    return {
      name: lockNames.get(key) ?? `lock ${key}`,
      key: r.objsubid === 2 ? `${r.classid}/${r.objid}` : String(key),
      granted: r.granted,
      pid: r.pid,
      holder: [r.application_name || null, r.client_addr].filter(Boolean).join(" @ ") || null,
      state: r.state,
      since: iso(r.since_ms),
      backendStartedAt: iso(r.backend_start_ms),
    };
  });
}

async function leaseFigures(db: Db, now: Date) {
  // A worker leases an endpoint by claiming its due deliveries (queue.ts); the
  // rows record when (updated_at) and until when (next_attempt_at), not which
  // process: the process shows only while it holds a lock (lockFigures).
  const [row] = await db.execute<{
    endpoints: {
      endpoint_id: string;
      partner_id: string;
      partner_name: string;
      environment: "sandbox" | "live";
      deliveries: number;
      claimed_ms: number;
      until_ms: number;
    }[];
    last_attempt_ms: number | null;
  }>(sql`
    select (select coalesce(json_agg(t order by t.claimed_ms), '[]'::json) from (
              select d.endpoint_id, w.partner_id, p.name as partner_name, w.environment, count(*)::int as deliveries,
                     ${ms(sql`min(d.updated_at)`)} as claimed_ms, ${ms(sql`max(d.next_attempt_at)`)} as until_ms
              from webhook_deliveries d join webhook_endpoints w on w.id = d.endpoint_id join partners p on p.id = w.partner_id
              where d.status = 'delivering'
              group by d.endpoint_id, w.partner_id, p.name, w.environment
              order by min(d.updated_at) limit 20) t) as endpoints,
           -- the newest attempt by any worker: is anyone delivering at all?
           (select ${ms(sql`attempted_at`)} from webhook_attempts order by id desc limit 1) as last_attempt_ms`);
  const rows = row?.endpoints ?? [];
  return {
    lastAttemptAt: iso(row?.last_attempt_ms),
    endpoints: rows.map((r) => ({
      endpointId: r.endpoint_id,
      partnerId: r.partner_id,
      partnerName: r.partner_name,
      environment: r.environment,
      deliveries: r.deliveries,
      claimedAt: iso(r.claimed_ms)!,
      expiresAt: iso(r.until_ms)!,
      /** The lease ran out without a result: the worker holding it stopped or died; another worker takes it over. */
      expired: r.until_ms <= now.getTime(),
    })),
  };
}

async function settlementFigures(db: Db) {
  const [row] = await db.execute<{
    run: { id: string; at: string; actor_type: string; actor_id: string | null; actor_email: string | null; data: Record<string, unknown> } | null;
    statements: number;
    last_statement_ms: number | null;
    statements_last_day: number;
  }>(sql`
    select (select json_build_object('id', l.id, 'at', l.created_at, 'actor_type', l.actor_type, 'actor_id', l.actor_id, 'actor_email', u.email, 'data', l.data)
              from audit_log l left join users u on u.id = l.actor_id
              where l.target_type = 'settlement_run' and l.action = 'settlement.run'
              order by l.created_at desc limit 1) as run,
           count(*)::int as statements,
           ${ms(sql`max(created_at)`)} as last_statement_ms,
           -- statements closed in the day before the newest one: the last run's, unless runs were hours apart
           (select count(*)::int from settlements s2 where s2.created_at > (select max(created_at) from settlements) - interval '1 day') as statements_last_day
    from settlements`);
  const run = row?.run ?? null;
  const data = (run?.data ?? {}) as { statements?: number; reason?: string; as_of?: string };
  return {
    lastRun: run
      ? {
          auditId: run.id,
          at: new Date(run.at).toISOString(),
          actor: run.actor_email ?? (run.actor_id ? `${run.actor_type} (${run.actor_id})` : run.actor_type),
          statements: typeof data.statements === "number" ? data.statements : null,
          asOf: data.as_of ?? null,
          reason: data.reason ?? null,
        }
      : null,
    statementsTotal: row?.statements ?? 0,
    lastStatementAt: iso(row?.last_statement_ms),
    statementsInLastDayOfRuns: row?.statements_last_day ?? 0,
  };
}

async function databaseFigures(db: Db) {
  const [row] = await db.execute<{ bytes: number; tables: { name: string; bytes: number; rows: number | null }[] }>(sql`
    select pg_database_size(current_database())::float8 as bytes,
           (select coalesce(json_agg(t), '[]'::json) from (
              select c.relname as name, pg_total_relation_size(c.oid)::float8 as bytes,
                     -- the planner's estimate; -1 until first analyzed, then the statistics collector's live count
                     (case when c.reltuples >= 0 then c.reltuples else s.n_live_tup end)::float8 as rows
              from pg_class c join pg_namespace n on n.oid = c.relnamespace
                left join pg_stat_user_tables s on s.relid = c.oid
              where c.relkind in ('r', 'p') and n.nspname = current_schema()
              order by pg_total_relation_size(c.oid) desc limit ${TOP_TABLES}) t) as tables`);
  return {
    bytes: row?.bytes ?? 0,
    largestTables: (row?.tables ?? []).map((t) => ({ name: t.name, bytes: t.bytes, rowsEstimate: t.rows === null ? null : Math.round(t.rows) })),
  };
}

/** Everything /admin/health shows, measured at `now` (the service clock). */
export async function getAdminHealth(db: Db, now: Date = clock.now()) {
  const [queue, failures, locks, leases, settlement, database] = await Promise.all([
    queueFigures(db, now),
    failureFigures(db, now),
    lockFigures(db),
    leaseFigures(db, now),
    settlementFigures(db),
    databaseFigures(db),
  ]);
  return { generatedAt: now.toISOString(), queue, failures, worker: { ...leases, locks }, settlement, database };
}
