import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { resetEnv } from "@/server/env";
import { disableWebhookEndpoint, saveWebhookEndpoint } from "@/server/services/webhooks";
import { startCountingReceiver } from "./lib/receiver";
import { atLeast, exactly, figure, sampler, type Report } from "./lib/figures";
import { harnessPartner, listDomains } from "./lib/fixtures";
import { sendSigned, startGateServers, type ServerProcesses, type Target } from "./lib/transport";
import { startWorkers, type RunningWorkers } from "./lib/workers";

// Harness 2, crashes: clients record unique orders (POST /orders, one
// idempotency key each, retried with a fresh nonce on any failure until a final
// answer) across two web processes and a worker process, while a killer SIGKILLs
// one of them every `killEveryMs` and starts a new one, `cycles` times; every
// `dbCutEvery` cycles it also cuts every database connection of the harness's
// database (pg_terminate_backend: the shared PostgreSQL cannot be stopped here).
//   0 lost        every order answered 201 exists, and every job ends with a 201
//   0 duplicated  one order per domain, one order.recorded event per order
//   delivered     every order.recorded event reaches the receiver at least once
//   nothing stuck no idempotency key in progress, no delivery still leased or pending

export interface CrashOptions {
  orders: number;
  clients: number;
  cycles: number;
  killEveryMs: number;
  dbCutEvery: number;
}

const PATH = "/api/partner/v1/orders";
const PRICE = 42_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function runCrash(options: CrashOptions): Promise<Report> {
  const { orders, clients, cycles, killEveryMs, dbCutEvery } = options;
  const { samples, add } = sampler(8);
  const db = getDb();
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
  resetEnv();

  const receiver = await startCountingReceiver();
  const { received, url: receiverUrl } = receiver;

  // One credential per 10 requests (the write class allows 20 a minute), retries included.
  const seller = await harnessPartner({ credentials: Math.ceil((orders * 3) / 10) + 10, scopes: ["buy"] });
  const owner = { partnerId: seller.partnerId, environment: "sandbox" as const };
  await saveWebhookEndpoint(db, { ...owner, url: receiverUrl, secret: `rel-crash-${seller.suffix}-0123456789` }, { type: "system" });
  const domains = await listDomains(`cr${seller.suffix}x`, orders, PRICE);
  const workerEnv = { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: "200ms,500ms,1s,2s,4s,8s" };
  const startWorker = () => startWorkers({ count: 1, mode: "processes", partnerIds: [seller.partnerId], db: getDb, env: workerEnv });

  // processes, replaced as they are killed; one that exits unasked (a crash) is counted
  let selfExits = 0;
  const watch = <T extends { children: ChildProcess[] }>(started: T): T => {
    for (const child of started.children) child.once("exit", (code, signal) => void (signal === null && code !== 0 && selfExits++));
    return started;
  };
  const web: ServerProcesses[] = [watch(await startGateServers(1)), watch(await startGateServers(1))];
  let worker: RunningWorkers = watch(await startWorker());
  const targets = (): Target[] => web.map((w) => w.targets[0]!);

  // clients
  let credentialIndex = 0;
  let attempts = 0;
  let transportErrors = 0;
  let fiveXx = 0;
  const answers: { domain: string; status: number; orderId?: string }[] = [];
  let nextJob = 0;
  let stopKiller = false;
  // Orders are paced over the killing period, so the kills land on traffic in flight.
  const paceMs = (cycles * killEveryMs * clients) / orders;
  async function client() {
    for (;;) {
      await sleep(paceMs * Math.random() * 2);
      if (nextJob >= orders) return;
      const domain = domains[nextJob++]!;
      const key = randomUUID();
      const body = JSON.stringify({ domain, expected_price: PRICE, currency: "USD", buyer: { email: "buyer@reliability.example" } });
      for (let attempt = 0; ; attempt++) {
        attempts++;
        const list = targets();
        const target = list[attempt % list.length]!;
        const credential = seller.pool[credentialIndex++ % seller.pool.length]!;
        try {
          const answer = await sendSigned(target, credential, { method: "POST", url: PATH, body, headers: { "idempotency-key": key } });
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
  async function killer() {
    for (let cycle = 1; cycle <= cycles && !stopKiller; cycle++) {
      await sleep(killEveryMs);
      const victim = cycle % 3; // 0, 1: a web process; 2: the worker
      if (victim < 2) {
        const dying = web[victim]!;
        web[victim] = watch(await startGateServers(1)); // the replacement first, so clients always have a target
        await dying.stop(); // SIGKILL
      } else {
        const dying = worker;
        await Promise.all(dying.children.map((c) => c.kill("SIGKILL")));
        worker = watch(await startWorker());
      }
      kills++;
      if (dbCutEvery > 0 && cycle % dbCutEvery === 0) {
        await db.execute(sql`select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`);
        dbCuts++;
      }
    }
  }

  const started = performance.now();
  const killing = killer();
  await Promise.all(Array.from({ length: clients }, client));
  const drivenSeconds = (performance.now() - started) / 1000;
  await killing; // the cycles all happen, even if the orders finished first
  stopKiller = true;

  // settle: a worker's lease (30 s) may hold deliveries a killed worker had claimed
  const settleStart = performance.now();
  let open = -1;
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await sleep(250)) {
    const [row] = await db.execute<{ open: number }>(sql`
      select count(*)::int as open from webhook_deliveries d join events e on e.id = d.event_id
      where e.partner_id = ${seller.partnerId} and d.status <> 'succeeded'`);
    const [unsequenced] = await db.execute<{ n: number }>(sql`
      select count(*)::int as n from events e where e.partner_id = ${seller.partnerId}
        and not exists (select 1 from webhook_deliveries d where d.event_id = e.id)`);
    open = (row?.open ?? 0) + (unsequenced?.n ?? 0);
    if (open === 0) break;
  }
  const settleSeconds = (performance.now() - settleStart) / 1000;
  await worker.stop("SIGKILL");
  await Promise.all(web.map((w) => w.stop()));
  await disableWebhookEndpoint(db, owner, { type: "system" }).catch(() => {});
  await receiver.close();

  // checks
  const rows = await db.execute<{ domain: string; id: string; recorded: number }>(sql`
    select o.domain, o.id, (select count(*)::int from events e where e.partner_id = o.partner_id and e.type = 'order.recorded'
                              and e.data->'order'->>'public_id' = o.id) as recorded
    from orders o where o.partner_id = ${seller.partnerId}`);
  const ordersByDomain = new Map<string, number>();
  for (const r of rows) ordersByDomain.set(r.domain, (ordersByDomain.get(r.domain) ?? 0) + 1);
  const orderIds = new Set(rows.map((r) => r.id));
  const lost = answers.filter((a) => a.status === 201 && !orderIds.has(a.orderId!)).length;
  const unfinished = orders - answers.filter((a) => a.status === 201).length;
  const duplicated = [...ordersByDomain.values()].filter((n) => n > 1).length;
  const eventsOff = rows.filter((r) => r.recorded !== 1).length;
  const eventIds = await db.execute<{ id: string }>(sql`select id from events where partner_id = ${seller.partnerId}`);
  const undelivered = eventIds.filter((e) => !received.has(e.id)).length;
  const [stuck] = await db.execute<{ n: number }>(sql`select count(*)::int as n from idempotency_keys where partner_id = ${seller.partnerId} and state <> 'completed'`);

  return {
    harness: `crash: ${orders} orders by ${clients} retrying clients over 2 web processes and 1 worker, one SIGKILLed every ${killEveryMs} ms (${cycles} cycles), all database connections cut every ${dbCutEvery} cycles`,
    figures: [
      figure("seconds driving / settling", `${drivenSeconds.toFixed(1)} / ${settleSeconds.toFixed(1)}`, "-"),
      atLeast("processes killed (SIGKILL)", kills, cycles),
      figure("database cuts", dbCuts, "-"),
      figure("requests sent / failed in transit / 5xx", `${attempts} / ${transportErrors} / ${fiveXx}`, "-"),
      exactly("orders answered 201 but missing (lost)", lost, 0),
      exactly("orders without a final 201", unfinished, 0),
      exactly("domains with more than one order", duplicated, 0),
      exactly("orders without exactly one order.recorded", eventsOff, 0),
      exactly("events never delivered", undelivered, 0),
      exactly("deliveries not succeeded after settling", Math.max(0, open), 0),
      exactly("idempotency keys left in progress", stuck?.n ?? 0, 0),
      figure("events delivered more than once", [...received.values()].filter((n) => n > 1).length, "- (at least once)"),
      figure("processes that exited unasked (driver crash, postgres.js#1208)", selfExits, "-"),
    ],
    samples,
  };
}
