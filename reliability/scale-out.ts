import { performance } from "node:perf_hooks";
import { getDb } from "@/db/client";
import { resetEnv } from "@/server/env";
import { recordEvent } from "@/server/services/events";
import { createCredential, revokeCredential } from "@/server/services/partners";
import { disableWebhookEndpoint, saveWebhookEndpoint } from "@/server/services/webhooks";
import { startCountingReceiver } from "./lib/receiver";
import { atMost, exactly, figure, sampler, type Report } from "./lib/figures";
import { harnessPartner } from "./lib/fixtures";
import { sendSigned, startGateServers } from "./lib/transport";
import { startWorkers } from "./lib/workers";
import { runLimits } from "./limits";

// Harness 3, scale-out: two web processes and two worker processes on one
// database, requests spread across the web processes.
//   shared gate   the limits harness over both (nonces, skew, one rate limit)
//   revocation    a key used on both is revoked here; ms until both refuse it (< 1000)
//   delivery      `events` events over `partners` endpoints, two worker processes:
//                 every event received, none received twice

export interface ScaleOutOptions {
  events: number;
  partners: number;
  revocations: number;
}

const AVAILABILITY = "/api/partner/v1/availability?domain=reliability-scale.com";

export async function runScaleOut(options: ScaleOutOptions): Promise<Report> {
  const { samples, add } = sampler();
  const figures = [];
  const web = await startGateServers(2);
  try {
    // shared gate
    const limits = await runLimits({ targets: web.targets, nonces: 200, skews: 100, burst: 200, bursts: 1 });
    figures.push(...limits.figures.filter((f) => f.target !== "-").map((f) => ({ ...f, name: `gate: ${f.name}` })));
    samples.push(...limits.samples);

    // revocation
    const db = getDb();
    const owner = await harnessPartner({ credentials: 0, scopes: ["search"] });
    let worstMs = 0;
    let neverRefused = 0;
    for (let round = 0; round < options.revocations; round++) {
      const created = await createCredential(db, { partnerId: owner.partnerId, environment: "sandbox", scopes: ["search"] });
      const credential = { keyId: created.keyId, secret: created.secret };
      for (let i = 0; i < 3; i++) for (const target of web.targets) await sendSigned(target, credential, { method: "GET", url: AVAILABILITY });
      const t0 = performance.now();
      await revokeCredential(db, { keyId: credential.keyId });
      for (const target of web.targets) {
        for (;;) {
          const answer = await sendSigned(target, credential, { method: "GET", url: AVAILABILITY });
          const elapsed = performance.now() - t0;
          if (answer.status === 401) {
            worstMs = Math.max(worstMs, elapsed);
            break;
          }
          if (elapsed > 5000) {
            neverRefused++;
            add(`revocation round ${round}: ${target.name} still ${answer.status} after 5 s`);
            break;
          }
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      }
    }
    figures.push(atMost("revocation: slowest refusal on either process (ms)", Math.round(worstMs), 1000), exactly("revocation: never refused", neverRefused, 0));

    // delivery by two worker processes
    process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "true";
    resetEnv();
    const receiver = await startCountingReceiver();
    const { received, url } = receiver;
    const owners: { partnerId: string; environment: "sandbox" }[] = [];
    for (let i = 0; i < options.partners; i++) {
      const partner = await harnessPartner({ credentials: 0, scopes: ["webhook"] });
      await saveWebhookEndpoint(db, { partnerId: partner.partnerId, environment: "sandbox", url, secret: `rel-scale-${partner.suffix}-0123456789` }, { type: "system" });
      owners.push({ partnerId: partner.partnerId, environment: "sandbox" });
    }
    const workers = await startWorkers({
      count: 2,
      mode: "processes",
      partnerIds: owners.map((o) => o.partnerId),
      db: getDb,
      env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: "true", WEBHOOK_RETRY_SCHEDULE: "1s,2s" },
    });
    const ids: string[] = [];
    const t0 = performance.now();
    try {
      for (let i = 0; i < options.events; i++) {
        const partner = owners[i % owners.length]!;
        const data = { order: { public_id: `ord_scale${i}`, domain: `scale${i}.com`, status: "EXTERNALLY_PAID", sale_price_cents: 1000 + i, currency: "USD" } };
        ids.push((await recordEvent(db, { ...partner, type: "order.recorded", data })).id);
      }
      const deadline = Date.now() + 60_000;
      while (ids.some((id) => !received.has(id)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      await new Promise((resolve) => setTimeout(resolve, 500)); // a late duplicate would arrive now
    } finally {
      await workers.stop();
      for (const o of owners) await disableWebhookEndpoint(db, o, { type: "system" }).catch(() => {});
      await receiver.close();
    }
    const seconds = (performance.now() - t0) / 1000;
    figures.push(
      figure("delivery: events per second (2 worker processes)", Math.round(ids.length / seconds), "-"),
      exactly("delivery: events never received", ids.filter((id) => !received.has(id)).length, 0),
      exactly("delivery: events received more than once", ids.filter((id) => (received.get(id) ?? 0) > 1).length, 0),
    );
  } finally {
    await web.stop();
  }
  return {
    harness: `scale-out: 2 web processes (gate-server) and 2 worker processes on one database; ${options.revocations} revocations, ${options.events} events over ${options.partners} endpoints`,
    figures,
    samples,
  };
}
