import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { closeDb } from "@/db/client";
import { flushRequestLog } from "@/server/services/request-log";
import { runLimits } from "@/reliability/limits";
import { formatReport, missed } from "@/reliability/lib/figures";
import { startGateServers } from "@/reliability/lib/transport";

// The reduced form of `npm run reliability:limits` (reliability/README.md): two
// server processes on one database share nonces, the skew window and rate limits.

// The request log is written by a timer: flush it before the pool closes, or the timer reopens one.
after(async () => {
  await flushRequestLog();
  await closeDb();
});

describe("reliability: replay, skew and limits across two processes", () => {
  it("refuses every reused nonce and every timestamp outside +-300 s; a 200-way burst gets exactly the limit, plus what refills while a slow burst lasts", async () => {
    const servers = await startGateServers(2);
    try {
      const report = await runLimits({ targets: servers.targets, nonces: 100, skews: 100, burst: 200, bursts: 1 });
      assert.deepEqual(missed(report), [], formatReport(report));
    } finally {
      await servers.stop();
    }
  });
});
