import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import { flushRequestLog } from "@/server/services/request-log";
import { formatReport, missed } from "@/reliability/lib/figures";
import { runCrash } from "@/reliability/crash";

// The reduced form of `npm run reliability:crash` (reliability/README.md): a few
// SIGKILLs of web and worker processes and two cuts of every database connection.

// The request log is written by a timer: flush it before the pool closes, or the timer reopens one.
after(async () => {
  await flushRequestLog();
  await closeDb();
});

describe("reliability: orders and webhooks through SIGKILLs and lost database connections", () => {
  it("loses and duplicates nothing, delivers every event, leaves nothing stuck", async () => {
    const report = await runCrash({ orders: 150, clients: 6, cycles: 6, killEveryMs: 800, dbCutEvery: 3 });
    assert.deepEqual(missed(report), [], formatReport(report));
  });
});
