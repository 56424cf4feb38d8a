import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import { flushRequestLog } from "@/server/services/request-log";
import { formatReport, missed } from "@/reliability/lib/figures";
import { runScaleOut } from "@/reliability/scale-out";

// The reduced form of `npm run reliability:scale-out` (reliability/README.md).

// The request log is written by a timer: flush it before the pool closes, or the timer reopens one.
after(async () => {
  await flushRequestLog();
  await closeDb();
});

describe("reliability: two web processes and two worker processes on one database", () => {
  it("share nonces and limits, honour a revocation within a second, and deliver each event once", async () => {
    const report = await runScaleOut({ events: 60, partners: 4, revocations: 2 });
    assert.deepEqual(missed(report), [], formatReport(report));
  });
});
