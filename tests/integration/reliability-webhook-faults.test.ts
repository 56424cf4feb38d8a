import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import { flushRequestLog } from "@/server/services/request-log";
import { formatReport, missed } from "@/reliability/lib/figures";
import { runWebhookFaults } from "@/reliability/webhook-faults";

// The reduced form of `npm run reliability:webhook-faults` (reliability/README.md):
// two workers, every receiver fault, a short schedule.

// The request log is written by a timer: flush it before the pool closes, or the timer reopens one.
after(async () => {
  await flushRequestLog();
  await closeDb();
});

describe("reliability: webhook delivery against faulty receivers", () => {
  it("follows the schedule, never sends one event twice at once, and GET /events lists every event", async () => {
    const report = await runWebhookFaults({ events: 2, workers: 2, mode: "in-process", schedule: [200, 400], timeoutMs: 600 });
    assert.deepEqual(missed(report), [], formatReport(report));
  });
});
