import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { closeDb, getDb } from "@/db/client";
import { startScratchCluster } from "@/db/embedded";
import { migrateDatabase } from "@/db/migrate";
import { resetEnv } from "@/server/env";
import { disableWebhookEndpoint, saveWebhookEndpoint } from "@/server/services/webhooks";
import { checkoutFigures, finishCheckouts, newCheckoutCounters, payCheckout, type CheckoutJob } from "./crash-checkout";
import { settleAndBalance } from "./crash-settlement";
import { startCountingReceiver } from "./lib/receiver";
import { atLeast, exactly, figure, sampler, type Report } from "./lib/figures";
import { harnessPartner, listDomains } from "./lib/fixtures";
import { superviseSlots } from "./lib/supervisor";
import { sendSigned, startGateServers, type Target } from "./lib/transport";
import { startWorkers } from "./lib/workers";

// Harness 2, crashes: on a PostgreSQL cluster of its own (db/embedded.ts
// startScratchCluster; the shared server must never be stopped), clients record
// unique orders (POST /orders, one idempotency key each, retried with a fresh
// nonce on any failure until a final answer) and buyers pay hosted checkouts
// (reliability/crash-checkout.ts) across two web processes and a worker process,
// while a killer SIGKILLs one of them every `killEveryMs` and starts a new one,
// `cycles` times; every `dbCutEvery` cycles it cuts every database connection
// (pg_terminate_backend), and every `dbStopEvery` cycles it crashes PostgreSQL
// itself (pg_ctl stop -m immediate: no checkpoint), then starts it again (crash
// recovery). A process that exits unasked is restarted, and counted.
//   0 lost        every order answered 201 exists, and every job ends with a 201
//   0 duplicated  one order per domain, one order.recorded (order.paid) event per order
//   delivered     every event reaches the receiver at least once
//   nothing stuck no idempotency key in progress, no delivery still leased or pending
// and then the partner's settlement balances (reliability/crash-settlement.ts).

export interface CrashOptions {
  orders: number;
  checkouts: number;
  clients: number;
  cycles: number;
  killEveryMs: number;
  dbCutEvery: number;
  dbStopEvery: number;
  /** The scratch cluster's port; a free one when absent. */
  dbPort?: number;
}

const PATH = "/api/partner/v1/orders";
const PRICE = 42_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds spent in each phase, for the report. */
const phases = () => {
  const spent: string[] = [];
  let last = performance.now();
  return {
    lap: (name: string) => {
      spent.push(`${name} ${((performance.now() - last) / 1000).toFixed(1)}`);
      last = performance.now();
    },
    text: () => spent.join(", "),
  };
};

export async function runCrash(options: CrashOptions): Promise<Report> {
  const timer = phases();
  const cluster = await startScratchCluster(options.dbPort);
  const previousUrl = process.env.DATABASE_URL;
  await closeDb();
  process.env.DATABASE_URL = cluster.url; // this process and every child it starts
  resetEnv();
  try {
    await migrateDatabase(cluster.url);
    timer.lap("cluster");
    const report = await crashOn(cluster, options, timer);
    report.figures.unshift(figure("seconds per phase", timer.text(), "-"));
    return report;
  } finally {
    await closeDb();
    await cluster.remove();
    if (previousUrl === undefined) delete process.env.DATABASE_URL;
    else process.env.DATABASE_URL = previousUrl;
    resetEnv();
  }
}

type Cluster = Awaited<ReturnType<typeof startScratchCluster>>;

async function crashOn(cluster: Cluster, options: CrashOptions, timer: ReturnType<typeof phases>): Promise<Report> {
  const { orders, checkouts, clients, cycles, killEveryMs, dbCutEvery, dbStopEvery } = options;
  const { samples, add } = sampler(8);
  const db = getDb();
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  resetEnv();

  const receiver = await startCountingReceiver();
  const { received, url: receiverUrl } = receiver;

  // One credential per 10 requests (the write class allows 20 a minute), retries included.
  const seller = await harnessPartner({ credentials: Math.ceil(((orders + checkouts) * 3) / 10) + 10, scopes: ["buy", "embed"] });
  const owner = { partnerId: seller.partnerId, environment: "sandbox" as const };
  await saveWebhookEndpoint(db, { ...owner, url: receiverUrl, secret: `rel-crash-${seller.suffix}-0123456789` }, { type: "system" });
  const domains = await listDomains(`cr${seller.suffix}x`, orders + checkouts, PRICE);
  // The worker serves every partner (the cluster is the harness's alone), so it also runs the payment-intent chores.
  const workerEnv = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: "200ms,500ms,1s,2s,4s,8s" };
  const startWorker = () => startWorkers({ count: 1, mode: "processes", partnerIds: [], db: getDb, env: workerEnv });
  // Buyers send their own address in X-Forwarded-For, as behind one proxy.
  const startWeb = () => startGateServers(1, { TRUST_PROXY_HOPS: "1" });

  // processes: two web slots and a worker slot, refilled when killed or crashed (lib/supervisor.ts)
  const webs = superviseSlots([startWeb, startWeb]);
  const workers = superviseSlots([startWorker]);
  await Promise.all([webs.ready(), workers.ready()]);
  const targets = (): Target[] => [webs.current(0).targets[0]!, webs.current(1).targets[0]!];
  let credentialIndex = 0;
  const nextCredential = () => seller.pool[credentialIndex++ % seller.pool.length]!;

  // jobs: orders and checkouts interleaved
  type Job = { kind: "order"; domain: string } | { kind: "checkout"; job: CheckoutJob };
  const jobs: Job[] = [];
  for (let taken = 0, checkoutsTaken = 0; taken < domains.length; taken++) {
    const domain = domains[taken]!;
    const ordersTaken = taken - checkoutsTaken;
    if (checkoutsTaken < checkouts && (ordersTaken >= orders || checkoutsTaken * orders <= ordersTaken * checkouts)) {
      jobs.push({ kind: "checkout", job: { domain, ip: `10.${(taken >> 16) & 255}.${(taken >> 8) & 255}.${taken & 255}` } });
      checkoutsTaken++;
    } else jobs.push({ kind: "order", domain });
  }
  const checkoutJobs = jobs.flatMap((j) => (j.kind === "checkout" ? [j.job] : []));
  const checkoutCounters = newCheckoutCounters();

  let attempts = 0;
  let transportErrors = 0;
  let fiveXx = 0;
  const answers: { domain: string; status: number; orderId?: string }[] = [];
  let nextJob = 0;
  // Jobs are released a share per cycle, just before its kill, and paced over
  // about `killEveryMs`: the kills (and PostgreSQL's crash) land on traffic in flight.
  const share = (cycle: number) => Math.ceil((jobs.length * (cycle + 1)) / (cycles + 1));
  let released = share(0);
  const paceMs = (killEveryMs * clients) / Math.max(1, share(0));
  async function client() {
    for (;;) {
      await sleep(paceMs * Math.random() * 2);
      if (nextJob >= jobs.length) return;
      if (nextJob >= released) continue;
      const next = jobs[nextJob++]!;
      if (next.kind === "checkout") {
        await payCheckout(next.job, targets, nextCredential, checkoutCounters);
        continue;
      }
      const { domain } = next;
      const key = randomUUID();
      const body = JSON.stringify({ domain, expected_price: PRICE, currency: "USD", buyer: { email: "buyer@reliability.example" } });
      for (let attempt = 0; ; attempt++) {
        attempts++;
        const list = targets();
        const target = list[attempt % list.length]!;
        try {
          const answer = await sendSigned(target, nextCredential(), { method: "POST", url: PATH, body, headers: { "idempotency-key": key } });
          if (answer.status === 201) {
            answers.push({ domain, status: 201, orderId: (JSON.parse(answer.text) as { public_id: string }).public_id });
            break;
          }
          if (answer.status >= 500) fiveXx++;
          const retryable = answer.status >= 500 || answer.status === 429 || (answer.status === 409 && answer.text.includes("in progress"));
          if (!retryable || attempt > 200) {
            answers.push({ domain, status: answer.status });
            add(`${domain}: final ${answer.status} ${answer.text}`);
            break;
          }
        } catch {
          transportErrors++; // the process died under the request: retry elsewhere
        }
        await sleep(Math.min(1000, 50 * 2 ** Math.min(attempt, 4)));
      }
    }
  }

  // killer
  let kills = 0;
  let dbCuts = 0;
  let dbStops = 0;
  let downMs = 0;
  async function killer() {
    for (let cycle = 1; cycle <= cycles; cycle++) {
      await sleep(killEveryMs);
      const victim = cycle % 3; // 0, 1: a web process; 2: the worker
      released = share(cycle);
      await sleep(killEveryMs / 4);
      await (victim < 2 ? webs.kill(victim) : workers.kill(0));
      kills++;
      if (dbStopEvery > 0 && cycle % dbStopEvery === 0) {
        const down = performance.now();
        await cluster.stop("immediate"); // every backend killed, no checkpoint
        await sleep(1000);
        await cluster.start(); // crash recovery from the WAL
        downMs += performance.now() - down;
        dbStops++;
      } else if (dbCutEvery > 0 && cycle % dbCutEvery === 0) {
        await db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
        dbCuts++;
      }
    }
  }

  timer.lap("setup");
  const started = performance.now();
  const killing = killer();
  await Promise.all(Array.from({ length: clients }, client));
  const drivenSeconds = (performance.now() - started) / 1000;
  await killing; // the cycles all happen, even if the jobs finished first
  timer.lap("driving");
  const finished = await finishCheckouts(checkoutJobs, targets, nextCredential, checkoutCounters);
  timer.lap("checkout reconcile");

  // settle: no request can make an event once the web processes are gone, but the worker's
  // payment-intent chore still can (an intent a killed process left behind, recorded as
  // order.paid). So: stop the web, let the worker deliver, stop it, and look again; an event
  // recorded after the last look (the chore racing the look) gets a fresh worker to deliver it.
  await webs.stopAll();
  const openDeliveries = async () => {
    const [row] = await db.execute<{ open: number }>(sql`
      select count(*)::int as open from webhook_deliveries d join events e on e.id = d.event_id
      where e.partner_id = ${seller.partnerId} and d.status <> 'succeeded'`);
    const [unsequenced] = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from events e where e.partner_id = ${seller.partnerId}
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)`);
    return (row?.open ?? 0) + (unsequenced?.n ?? 0);
  };
  // A worker's lease (30 s) may hold deliveries a killed worker had claimed.
  const settle = async (deadline: number) => {
    let open = await openDeliveries();
    while (open > 0 && Date.now() < deadline) {
      await sleep(250);
      open = await openDeliveries();
    }
    return open;
  };
  const settleStart = performance.now();
  const settleDeadline = Date.now() + 90_000;
  let open = await settle(settleDeadline);
  await workers.stopAll();
  let lateWorkers = 0;
  for (open = await openDeliveries(); open > 0 && Date.now() < settleDeadline && lateWorkers < 3; open = await openDeliveries()) {
    lateWorkers++;
    const late = superviseSlots([startWorker]);
    await late.ready();
    await settle(settleDeadline);
    await late.stopAll();
  }
  const settleSeconds = (performance.now() - settleStart) / 1000;
  await disableWebhookEndpoint(db, owner, { type: "system" }).catch(() => {});
  await receiver.close();

  // checks
  const rows = await db.execute<{ domain: string; id: string; events: number }>(sql`
    select o.domain, o.id, (select count(*)::int from events e where e.partner_id = o.partner_id
                              and e.type = case o.channel when 'mor' then 'order.recorded' else 'order.paid' end
                              and e.data->'order'->>'public_id' = o.id) as events
    from orders o where o.partner_id = ${seller.partnerId}`);
  const ordersByDomain = new Map<string, number>();
  for (const r of rows) ordersByDomain.set(r.domain, (ordersByDomain.get(r.domain) ?? 0) + 1);
  const orderIds = new Set(rows.map((r) => r.id));
  const lost = answers.filter((a) => a.status === 201 && !orderIds.has(a.orderId!)).length;
  const unfinished = orders - answers.filter((a) => a.status === 201).length;
  const duplicated = [...ordersByDomain.values()].filter((n) => n > 1).length;
  const eventsOff = rows.filter((r) => r.events !== 1).length;
  const eventIds = await db.execute<{ id: string }>(sql`select id from events where partner_id = ${seller.partnerId}`);
  const missing = eventIds.filter((e) => !received.has(e.id)).map((e) => e.id);
  const undelivered = missing.length;
  for (const id of missing.slice(0, 3)) {
    const [detail] = await db.execute<{ text: string }>(sql`
      select e.type || ' seq ' || coalesce(e.seq::text, '-') || ' created ' || e.created_at || '; deliveries: ' || coalesce((
        select string_agg(d.status || ' x' || d.attempt_count || ' (' || coalesce((select string_agg(coalesce(a.response_status::text, a.error, '?'), ', ')
          from webhook_attempts a where a.delivery_id = d.id), '') || ')', '; ') from webhook_deliveries d where d.event_id = e.id), 'none') as text
      from events e where e.id = ${id}`);
    add(`never delivered ${id}: ${detail?.text}`);
  }
  const [stuck] = await db.execute<{ n: number }>(sql`select count(*)::int as n from idempotency_keys where partner_id = ${seller.partnerId} and state <> 'completed'`);
  const paid = await checkoutFigures(seller.partnerId, checkoutJobs, checkoutCounters, add);
  timer.lap("deliveries and checks");
  const settlement = await settleAndBalance(seller.partnerId);
  timer.lap("settlement");

  return {
    harness:
      `crash: ${orders} orders and ${checkouts} checkout payments by ${clients} retrying clients over 2 web processes and 1 worker, ` +
      `one SIGKILLed every ${killEveryMs} ms (${cycles} cycles); every connection cut every ${dbCutEvery} cycles, ` +
      `PostgreSQL crashed (stop -m immediate) every ${dbStopEvery} cycles`,
    figures: [
      figure("seconds driving / settling deliveries", `${drivenSeconds.toFixed(1)} / ${settleSeconds.toFixed(1)}`, "-"),
      figure("workers started after the last to deliver events recorded as it stopped", lateWorkers, "-"),
      atLeast("processes killed (SIGKILL)", kills, cycles),
      figure("database connection cuts", dbCuts, "-"),
      atLeast("PostgreSQL crashes (stop -m immediate, then recovery)", dbStops, dbStopEvery > 0 ? Math.floor(cycles / dbStopEvery) : 0),
      figure("ms PostgreSQL was down per crash (1 s stopped + recovery)", dbStops ? Math.round(downMs / dbStops) : 0, "-"),
      figure("order requests sent / failed in transit or refused by a dead process / 5xx", `${attempts} / ${transportErrors} / ${fiveXx}`, "-"),
      exactly("orders answered 201 but missing (lost)", lost, 0),
      exactly("orders without a final 201", unfinished, 0),
      exactly("domains with more than one order", duplicated, 0),
      exactly("orders without exactly one order.recorded / order.paid", eventsOff, 0),
      ...paid,
      figure("checkout: intents reconciled after the kills (recorded / abandoned) / buyers who paid again", `${finished.reconciled.recorded} / ${finished.reconciled.abandoned} / ${finished.repaid}`, "-"),
      exactly("events never delivered", undelivered, 0),
      exactly("deliveries not succeeded after settling", Math.max(0, open), 0),
      exactly("idempotency keys left in progress", stuck?.n ?? 0, 0),
      figure("events delivered more than once", [...received.values()].filter((n) => n > 1).length, "- (at least once)"),
      figure("processes that exited unasked (restarted)", webs.selfExits() + workers.selfExits(), "-"),
      ...settlement,
    ],
    samples,
  };
}
