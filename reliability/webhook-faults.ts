import http from "node:http";
import type { AddressInfo } from "node:net";
import { performance } from "node:perf_hooks";
import { inArray } from "drizzle-orm";
import { createPool, getDb } from "@/db/client";
import { resolveDatabaseUrl } from "@/db/embedded";
import { webhookDeliveries } from "@/db/schema";
import { resetEnv } from "@/server/env";
import { recordEvent } from "@/server/services/events";
import { disableWebhookEndpoint, saveWebhookEndpoint } from "@/server/services/webhooks";
import { exactly, figure, sampler, type Report } from "./lib/figures";
import { harnessPartner } from "./lib/fixtures";
import { inProcess, sendSigned } from "./lib/transport";
import { startWorkers, type WorkerMode } from "./lib/workers";

// Harness 4, webhook faults: one partner per receiver behaviour, each with
// `events` events, delivered by `workers` workers against a node:http receiver
// on 127.0.0.1 that answers 500, hangs past the timeout, resets the connection,
// trickles its body, redirects, answers 200 only after the timeout, fails twice
// then succeeds, or answers 200 at once.
//   schedule   a delivery that never succeeds makes exactly 1 + schedule attempts,
//              each retry no earlier than its delay after the previous attempt began
//   no overlap the receiver never has two requests for one event in flight at once
//   outcome    the 200 and fail-twice receivers end succeeded, the rest failed
//   gap fill   GET /events lists every event of every partner

export interface WebhookFaultOptions {
  events: number;
  workers: number;
  mode: WorkerMode;
  /** Milliseconds between attempts. */
  schedule: number[];
  /** Per-attempt limit of in-process workers (worker processes use the default 5 s). */
  timeoutMs: number;
}

type Behaviour = "ok" | "error-500" | "hang" | "reset" | "slow-body" | "redirect" | "late-200" | "fail-twice";
const behaviours: Behaviour[] = ["ok", "error-500", "hang", "reset", "slow-body", "redirect", "late-200", "fail-twice"];
const succeeds = new Set<Behaviour>(["ok", "fail-twice", "slow-body"]);

interface Arrival {
  eventId: string;
  behaviour: Behaviour;
  start: number;
  end: number;
}

function startReceiver(timeoutMs: number) {
  const arrivals: Arrival[] = [];
  const seen = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const behaviour = (req.url ?? "").split("/")[1] as Behaviour;
    const eventId = String(req.headers["x-service-event-id"]);
    const arrival: Arrival = { eventId, behaviour, start: performance.now(), end: Infinity };
    arrivals.push(arrival);
    res.on("close", () => (arrival.end = performance.now()));
    const n = (seen.get(eventId) ?? 0) + 1;
    seen.set(eventId, n);
    req.resume();
    req.on("end", () => {
      switch (behaviour) {
        case "ok":
          return res.writeHead(200).end("ok");
        case "error-500":
          return res.writeHead(500).end("boom");
        case "hang":
          return; // never answers; the sender gives up at its timeout
        case "reset":
          return req.socket.destroy();
        case "slow-body": {
          // Headers at once, then the body a byte at a time for longer than the timeout.
          res.writeHead(200, { "content-type": "text/plain" });
          const timer = setInterval(() => res.write("."), Math.max(50, timeoutMs / 4));
          setTimeout(() => (clearInterval(timer), res.end()), timeoutMs * 2);
          return;
        }
        case "redirect":
          return res.writeHead(302, { location: "/ok" }).end();
        case "late-200":
          setTimeout(() => res.writeHead(200).end("ok"), timeoutMs * 2);
          return;
        case "fail-twice":
          return res.writeHead(n <= 2 ? 503 : 200).end();
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise<{ url: string; arrivals: Arrival[]; close: () => Promise<void> }>((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        arrivals,
        close: () => new Promise<void>((done) => (server.closeAllConnections(), server.close(() => done()))),
      }),
    ),
  );
}

export async function runWebhookFaults(options: WebhookFaultOptions): Promise<Report> {
  const { events: perPartner, workers, mode, schedule, timeoutMs } = options;
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true"; // the receiver is on loopback
  resetEnv();
  const receiver = await startReceiver(timeoutMs);
  const { samples, add } = sampler(8);
  const db = getDb();
  const owners: { partnerId: string; environment: "sandbox"; behaviour: Behaviour; credential: { keyId: string; secret: string }; eventIds: string[] }[] = [];
  for (const behaviour of behaviours) {
    const partner = await harnessPartner({ credentials: 1, scopes: ["webhook"] });
    await saveWebhookEndpoint(db, { partnerId: partner.partnerId, environment: "sandbox", url: `${receiver.url}/${behaviour}`, secret: `rel-secret-${partner.suffix}-0123456789` }, { type: "system" });
    owners.push({ partnerId: partner.partnerId, environment: "sandbox", behaviour, credential: partner.pool[0]!, eventIds: [] });
  }
  const pools: ReturnType<typeof createPool>[] = [];
  const running = await startWorkers({
    count: workers,
    mode,
    partnerIds: owners.map((o) => o.partnerId),
    db: () => {
      const pool = createPool(resolveDatabaseUrl(), 4);
      pools.push(pool);
      return pool.db;
    },
    options: { timeoutMs, leaseMs: timeoutMs + 2500, pollMs: 200, retrySchedule: schedule, allowPrivateTargets: true },
    env: { WEBHOOK_RETRY_SCHEDULE: schedule.map((ms) => `${ms}ms`).join(","), WEBHOOK_ALLOW_PRIVATE_TARGETS: "true" },
  });
  const started = performance.now();
  try {
    for (const owner of owners) {
      for (let i = 0; i < perPartner; i++) {
        const data = { order: { public_id: `ord_rel${i}`, domain: `rel${i}.com`, status: "EXTERNALLY_PAID", sale_price_cents: 1000 + i, currency: "USD" } };
        owner.eventIds.push((await recordEvent(db, { partnerId: owner.partnerId, environment: "sandbox", type: "order.recorded", data })).id);
      }
    }
    const allIds = owners.flatMap((o) => o.eventIds);
    // Worst case: an endpoint's deliveries go one at a time, and every attempt of every
    // event times out (worker processes: 5 s each); plus the delays.
    const attemptMs = mode === "processes" ? 5000 : timeoutMs;
    const deadline = Date.now() + perPartner * (schedule.length + 1) * (attemptMs + 250) + schedule.reduce((a, b) => a + b, 0) + 30_000;
    for (;;) {
      const rows = await db.select({ status: webhookDeliveries.status }).from(webhookDeliveries).where(inArray(webhookDeliveries.eventId, allIds));
      if (rows.length === allIds.length && rows.every((r) => r.status === "succeeded" || r.status === "failed")) break;
      if (Date.now() > deadline) {
        add(`deliveries still open at the deadline: ${rows.filter((r) => r.status !== "succeeded" && r.status !== "failed").length}`);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  } finally {
    await running.stop();
    await Promise.all(pools.map((p) => p.sql.end({ timeout: 5 })));
  }
  const seconds = (performance.now() - started) / 1000;

  // outcomes and schedule
  const rows = await db
    .select({ eventId: webhookDeliveries.eventId, status: webhookDeliveries.status, attempts: webhookDeliveries.attemptCount })
    .from(webhookDeliveries)
    .where(inArray(webhookDeliveries.eventId, owners.flatMap((o) => o.eventIds)));
  const byEvent = new Map(rows.map((r) => [r.eventId, r]));
  let wrongOutcome = 0;
  let wrongAttemptCount = 0;
  let early = 0;
  let overlaps = 0;
  let maxLateMs = 0;
  for (const owner of owners) {
    for (const eventId of owner.eventIds) {
      const row = byEvent.get(eventId);
      const expected = succeeds.has(owner.behaviour) ? "succeeded" : "failed";
      if (row?.status !== expected) {
        wrongOutcome++;
        add(`${owner.behaviour} ${eventId}: ${row?.status ?? "no delivery"}, expected ${expected}`);
      }
      if (expected === "failed" && row && row.attempts !== schedule.length + 1) {
        wrongAttemptCount++;
        add(`${owner.behaviour} ${eventId}: ${row.attempts} attempts, expected ${schedule.length + 1}`);
      }
      const mine = receiver.arrivals.filter((a) => a.eventId === eventId).sort((a, b) => a.start - b.start);
      for (let k = 1; k < mine.length; k++) {
        const gap = mine[k]!.start - mine[k - 1]!.start;
        const delay = schedule[k - 1] ?? 0;
        if (gap + 25 < delay) {
          early++;
          add(`${owner.behaviour} ${eventId}: attempt ${k + 1} ${gap.toFixed(0)} ms after the previous, delay ${delay} ms`);
        }
        if (mine[k]!.start < mine[k - 1]!.end) {
          overlaps++;
          add(`${owner.behaviour} ${eventId}: attempt ${k + 1} began while attempt ${k} was in flight`);
        }
        const attemptEnd = Math.min(mine[k - 1]!.end, mine[k - 1]!.start + timeoutMs);
        maxLateMs = Math.max(maxLateMs, mine[k]!.start - attemptEnd - delay);
      }
    }
  }

  // gap fill: GET /events pages through every event
  let missing = 0;
  for (const owner of owners) {
    const listed = new Set<string>();
    let after: string | null = null;
    for (;;) {
      const url: string = `/api/partner/v1/events?limit=200${after ? `&after_id=${after}` : ""}`;
      const answer = await sendSigned(inProcess, owner.credential, { method: "GET", url });
      const page = JSON.parse(answer.text) as { events: { id: string }[]; next_cursor: string | null; has_more: boolean };
      for (const event of page.events ?? []) listed.add(event.id);
      if (!page.has_more || !page.next_cursor) break;
      after = page.next_cursor;
    }
    missing += owner.eventIds.filter((id) => !listed.has(id)).length;
  }
  for (const owner of owners) await disableWebhookEndpoint(db, owner, { type: "system" }).catch(() => {});
  await receiver.close();

  return {
    harness: `webhook faults: ${behaviours.length} receiver behaviours x ${perPartner} events, ${workers} workers (${mode}), schedule ${schedule.join(",")} ms, timeout ${mode === "processes" ? 5000 : timeoutMs} ms`,
    figures: [
      figure("requests received", receiver.arrivals.length, "-"),
      figure("seconds to settle", seconds.toFixed(1), "-"),
      exactly("deliveries with the wrong outcome", wrongOutcome, 0),
      exactly("failed deliveries without 1+schedule attempts", wrongAttemptCount, 0),
      exactly("retries earlier than the schedule", early, 0),
      figure("latest retry past its due time (ms)", Math.round(maxLateMs), "-"),
      exactly("attempts overlapping for one event", overlaps, 0),
      exactly("events missing from GET /events", missing, 0),
    ],
    samples,
  };
}
